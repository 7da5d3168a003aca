-- Runebound, a collectible card game: the example of a studio's own game
-- run by gameassist from files only. Build its database with
--   sqlite3 cards.db < cards.sql
-- (or any SQLite client); gameassist opens it as is, read-only.
PRAGMA foreign_keys = ON;
BEGIN;

CREATE TABLE card_sets (
  set_code TEXT PRIMARY KEY,
  title    TEXT NOT NULL,
  released TEXT NOT NULL
);

CREATE TABLE cards (
  card_id    INTEGER PRIMARY KEY,
  set_code   TEXT NOT NULL REFERENCES card_sets (set_code),
  title      TEXT NOT NULL UNIQUE,
  mana       INTEGER NOT NULL CHECK (mana BETWEEN 0 AND 10),
  kind       TEXT NOT NULL CHECK (kind IN ('unit', 'spell', 'relic')),
  element    TEXT NOT NULL CHECK (element IN ('ember', 'tide', 'stone', 'gale', 'void')),
  rarity     TEXT NOT NULL CHECK (rarity IN ('common', 'rare', 'epic', 'mythic')),
  power      INTEGER,
  toughness  INTEGER,
  rules_text TEXT NOT NULL
);

CREATE TABLE keywords (
  keyword  TEXT PRIMARY KEY,
  reminder TEXT NOT NULL
);

CREATE TABLE card_keywords (
  card_id INTEGER NOT NULL REFERENCES cards (card_id),
  keyword TEXT NOT NULL REFERENCES keywords (keyword),
  PRIMARY KEY (card_id, keyword)
);

CREATE TABLE decks (
  deck_id   INTEGER PRIMARY KEY,
  title     TEXT NOT NULL UNIQUE,
  archetype TEXT NOT NULL,
  win_rate  REAL NOT NULL
);

CREATE TABLE deck_list (
  deck_id INTEGER NOT NULL REFERENCES decks (deck_id),
  card_id INTEGER NOT NULL REFERENCES cards (card_id),
  copies  INTEGER NOT NULL CHECK (copies BETWEEN 1 AND 3),
  PRIMARY KEY (deck_id, card_id)
);

-- Screen prompts show names in the player's language from this table.
CREATE TABLE display_names (
  entity_id INTEGER NOT NULL,
  locale    TEXT NOT NULL,
  name      TEXT NOT NULL,
  PRIMARY KEY (entity_id, locale)
);

INSERT INTO card_sets VALUES
  ('CORE', 'Core Set', '2025-03-01'),
  ('SHAT', 'The Shattered Realms', '2025-09-15');

INSERT INTO cards VALUES
  (101, 'CORE', 'Ember Imp',        1, 'unit',  'ember', 'common', 1, 1, 'Haste. When Ember Imp enters, deal 1 damage to the enemy champion.'),
  (102, 'CORE', 'Cinder Archer',    2, 'unit',  'ember', 'common', 2, 1, 'Reach.'),
  (103, 'CORE', 'Blazing Volley',   3, 'spell', 'ember', 'rare',   NULL, NULL, 'Deal 2 damage to up to three units.'),
  (104, 'CORE', 'Ashen Drake',      6, 'unit',  'ember', 'mythic', 6, 5, 'Flying. When Ashen Drake attacks, deal 2 damage to every enemy unit.'),
  (105, 'CORE', 'Tide Caller',      3, 'unit',  'tide',  'rare',   2, 3, 'When Tide Caller enters, draw a card.'),
  (106, 'CORE', 'Undertow',         2, 'spell', 'tide',  'common', NULL, NULL, 'Return a unit to its owner''s hand.'),
  (107, 'CORE', 'Pearl Warden',     4, 'unit',  'tide',  'epic',   3, 5, 'Ward. Your other units have +0/+1.'),
  (108, 'CORE', 'Stone Golem',      5, 'unit',  'stone', 'common', 4, 6, 'Guard.'),
  (109, 'CORE', 'Quarry Shaman',    2, 'unit',  'stone', 'common', 1, 3, 'When Quarry Shaman enters, gain 1 armor.'),
  (110, 'CORE', 'Mountain''s Heart',4, 'relic', 'stone', 'epic',   NULL, NULL, 'At the start of your turn, give a unit +1/+1.'),
  (111, 'CORE', 'Gale Runner',      1, 'unit',  'gale',  'common', 1, 2, 'Flying.'),
  (112, 'CORE', 'Skyward Oath',     3, 'spell', 'gale',  'rare',   NULL, NULL, 'Give a unit Flying and +2/+0 this turn.'),
  (113, 'SHAT', 'Void Whisper',     2, 'spell', 'void',  'rare',   NULL, NULL, 'Look at the enemy hand; discard a card from it.'),
  (114, 'SHAT', 'Hollow Seer',      3, 'unit',  'void',  'epic',   2, 2, 'Lifesteal. When Hollow Seer enters, scry 2.'),
  (115, 'SHAT', 'Rift Colossus',    8, 'unit',  'void',  'mythic', 8, 8, 'Guard. Lifesteal. Costs 1 less for each relic you control.'),
  (116, 'SHAT', 'Shardstorm',       5, 'spell', 'gale',  'epic',   NULL, NULL, 'Deal 3 damage to every unit without Flying.'),
  (117, 'SHAT', 'Emberglass Idol',  2, 'relic', 'ember', 'rare',   NULL, NULL, 'Your ember spells cost 1 less.'),
  (118, 'SHAT', 'Tidebound Leviathan', 7, 'unit', 'tide', 'mythic', 7, 7, 'Ward. When Tidebound Leviathan enters, return all other units to their owners'' hands.');

INSERT INTO keywords VALUES
  ('Haste',     'Can attack the turn it enters.'),
  ('Reach',     'Can block units with Flying.'),
  ('Flying',    'Can only be blocked by units with Flying or Reach.'),
  ('Guard',     'Enemies must attack units with Guard first.'),
  ('Ward',      'The first enemy spell that targets this unit is cancelled.'),
  ('Lifesteal', 'Damage dealt by this unit also heals your champion.');

INSERT INTO card_keywords VALUES
  (101, 'Haste'), (102, 'Reach'), (104, 'Flying'), (107, 'Ward'), (108, 'Guard'), (111, 'Flying'),
  (114, 'Lifesteal'), (115, 'Guard'), (115, 'Lifesteal'), (118, 'Ward');

INSERT INTO decks VALUES
  (201, 'Ember Rush',     'aggro',    0.54),
  (202, 'Tidal Control',  'control',  0.51),
  (203, 'Stone Fortress', 'midrange', 0.49);

INSERT INTO deck_list VALUES
  (201, 101, 3), (201, 102, 3), (201, 103, 2), (201, 117, 2), (201, 104, 1), (201, 111, 3),
  (202, 105, 3), (202, 106, 3), (202, 107, 2), (202, 113, 2), (202, 118, 1), (202, 116, 2),
  (203, 108, 3), (203, 109, 3), (203, 110, 2), (203, 115, 1), (203, 114, 2);

INSERT INTO display_names VALUES
  (101, 'en', 'Ember Imp'),      (101, 'fr', 'Diablotin de braise'),
  (104, 'en', 'Ashen Drake'),    (104, 'fr', 'Drake cendré'),
  (105, 'en', 'Tide Caller'),    (105, 'fr', 'Mande-marée'),
  (108, 'en', 'Stone Golem'),    (108, 'fr', 'Golem de pierre'),
  (115, 'en', 'Rift Colossus'),  (115, 'fr', 'Colosse de la faille'),
  (118, 'en', 'Tidebound Leviathan'),
  (201, 'en', 'Ember Rush'),     (201, 'fr', 'Ruée de braise'),
  (202, 'en', 'Tidal Control'),  (202, 'fr', 'Contrôle des marées'),
  (203, 'en', 'Stone Fortress'), (203, 'fr', 'Forteresse de pierre');

COMMIT;
