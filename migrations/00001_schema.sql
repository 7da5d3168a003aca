-- +goose Up
CREATE TABLE meta (
    key   TEXT PRIMARY KEY NOT NULL,
    value TEXT NOT NULL
);

CREATE TABLE factions (
    id          INTEGER PRIMARY KEY NOT NULL,
    key         TEXT NOT NULL UNIQUE,
    name        TEXT NOT NULL,
    alignment   TEXT NOT NULL DEFAULT '',
    homeland    TEXT NOT NULL DEFAULT '',
    description TEXT NOT NULL DEFAULT ''
);
CREATE INDEX factions_name_lower ON factions (lower(name));

CREATE TABLE champions (
    id         INTEGER PRIMARY KEY NOT NULL,
    key        TEXT NOT NULL UNIQUE,
    name       TEXT NOT NULL,
    faction_id INTEGER NOT NULL REFERENCES factions (id),
    rarity     TEXT NOT NULL,
    affinity   TEXT NOT NULL,
    role       TEXT NOT NULL,
    hp         INTEGER NOT NULL DEFAULT 0,
    atk        INTEGER NOT NULL DEFAULT 0,
    def        INTEGER NOT NULL DEFAULT 0,
    spd        INTEGER NOT NULL DEFAULT 0,
    c_rate     INTEGER NOT NULL DEFAULT 0,
    c_dmg      INTEGER NOT NULL DEFAULT 0,
    res        INTEGER NOT NULL DEFAULT 0,
    acc        INTEGER NOT NULL DEFAULT 0,
    lore       TEXT NOT NULL DEFAULT ''
);
CREATE INDEX champions_name_lower ON champions (lower(name));
CREATE INDEX champions_faction ON champions (faction_id);

CREATE TABLE champion_tags (
    champion_id INTEGER NOT NULL REFERENCES champions (id),
    tag         TEXT NOT NULL,
    PRIMARY KEY (champion_id, tag)
);

CREATE TABLE champion_skills (
    champion_id INTEGER NOT NULL REFERENCES champions (id),
    slot        INTEGER NOT NULL,
    name        TEXT NOT NULL,
    cooldown    INTEGER NOT NULL DEFAULT 0,
    description TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (champion_id, slot)
);

CREATE TABLE skill_effects (
    champion_id INTEGER NOT NULL,
    slot        INTEGER NOT NULL,
    effect      TEXT NOT NULL,
    PRIMARY KEY (champion_id, slot, effect),
    FOREIGN KEY (champion_id, slot) REFERENCES champion_skills (champion_id, slot)
);
CREATE INDEX skill_effects_effect ON skill_effects (effect);

CREATE TABLE dungeons (
    id          INTEGER PRIMARY KEY NOT NULL,
    key         TEXT NOT NULL UNIQUE,
    name        TEXT NOT NULL,
    kind        TEXT NOT NULL DEFAULT '',
    stages      INTEGER NOT NULL DEFAULT 0,
    energy_cost INTEGER NOT NULL DEFAULT 0,
    boss_id     INTEGER REFERENCES bosses (id),
    description TEXT NOT NULL DEFAULT ''
);
CREATE INDEX dungeons_name_lower ON dungeons (lower(name));

CREATE TABLE bosses (
    id          INTEGER PRIMARY KEY NOT NULL,
    key         TEXT NOT NULL UNIQUE,
    name        TEXT NOT NULL,
    affinity    TEXT NOT NULL DEFAULT '',
    dungeon_id  INTEGER REFERENCES dungeons (id),
    difficulty  TEXT NOT NULL DEFAULT '',
    hp          INTEGER NOT NULL DEFAULT 0,
    description TEXT NOT NULL DEFAULT ''
);
CREATE INDEX bosses_name_lower ON bosses (lower(name));

CREATE TABLE boss_phases (
    boss_id      INTEGER NOT NULL REFERENCES bosses (id),
    number       INTEGER NOT NULL,
    name         TEXT NOT NULL,
    hp_threshold INTEGER NOT NULL DEFAULT 0,
    description  TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (boss_id, number)
);

CREATE TABLE boss_mechanics (
    boss_id  INTEGER NOT NULL REFERENCES bosses (id),
    seq      INTEGER NOT NULL,
    mechanic TEXT NOT NULL,
    PRIMARY KEY (boss_id, seq)
);

CREATE TABLE boss_weaknesses (
    boss_id INTEGER NOT NULL REFERENCES bosses (id),
    effect  TEXT NOT NULL,
    PRIMARY KEY (boss_id, effect)
);

CREATE TABLE boss_immunities (
    boss_id INTEGER NOT NULL REFERENCES bosses (id),
    effect  TEXT NOT NULL,
    PRIMARY KEY (boss_id, effect)
);

CREATE TABLE boss_counters (
    boss_id     INTEGER NOT NULL REFERENCES bosses (id),
    champion_id INTEGER NOT NULL REFERENCES champions (id),
    rank        INTEGER NOT NULL,
    PRIMARY KEY (boss_id, champion_id)
);

CREATE TABLE champion_strong_against (
    champion_id INTEGER NOT NULL REFERENCES champions (id),
    boss_id     INTEGER NOT NULL REFERENCES bosses (id),
    PRIMARY KEY (champion_id, boss_id)
);
CREATE INDEX champion_strong_against_boss ON champion_strong_against (boss_id);

CREATE TABLE gear_sets (
    id          INTEGER PRIMARY KEY NOT NULL,
    key         TEXT NOT NULL UNIQUE,
    name        TEXT NOT NULL,
    pieces      INTEGER NOT NULL DEFAULT 0,
    bonus       TEXT NOT NULL DEFAULT '',
    stat_bonus  TEXT NOT NULL DEFAULT '',
    best_for    TEXT NOT NULL DEFAULT '',
    description TEXT NOT NULL DEFAULT ''
);
CREATE INDEX gear_sets_name_lower ON gear_sets (lower(name));

CREATE TABLE dungeon_drops (
    dungeon_id  INTEGER NOT NULL REFERENCES dungeons (id),
    gear_set_id INTEGER NOT NULL REFERENCES gear_sets (id),
    PRIMARY KEY (dungeon_id, gear_set_id)
);
CREATE INDEX dungeon_drops_gear_set ON dungeon_drops (gear_set_id);

CREATE TABLE masteries (
    id          INTEGER PRIMARY KEY NOT NULL,
    key         TEXT NOT NULL UNIQUE,
    name        TEXT NOT NULL,
    tree        TEXT NOT NULL DEFAULT '',
    tier        INTEGER NOT NULL DEFAULT 0,
    description TEXT NOT NULL DEFAULT ''
);
CREATE INDEX masteries_name_lower ON masteries (lower(name));

CREATE TABLE display_names (
    entity_id INTEGER NOT NULL,
    locale    TEXT NOT NULL,
    name      TEXT NOT NULL,
    PRIMARY KEY (entity_id, locale)
);
CREATE INDEX display_names_name_lower ON display_names (lower(name));

-- +goose Down
DROP TABLE display_names;
DROP TABLE masteries;
DROP TABLE dungeon_drops;
DROP TABLE gear_sets;
DROP TABLE champion_strong_against;
DROP TABLE boss_counters;
DROP TABLE boss_immunities;
DROP TABLE boss_weaknesses;
DROP TABLE boss_mechanics;
DROP TABLE boss_phases;
DROP TABLE bosses;
DROP TABLE dungeons;
DROP TABLE skill_effects;
DROP TABLE champion_skills;
DROP TABLE champion_tags;
DROP TABLE champions;
DROP TABLE factions;
DROP TABLE meta;
