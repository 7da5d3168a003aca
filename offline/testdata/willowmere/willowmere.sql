-- Willowmere, a small farming game used as a studio's own game in tests:
-- produce, livestock and villagers. Its columns are not called "name".
CREATE TABLE produce (produce_id INTEGER PRIMARY KEY, label TEXT NOT NULL, season TEXT NOT NULL, days_to_mature INTEGER NOT NULL, base_price INTEGER NOT NULL);
CREATE TABLE livestock (beast_id INTEGER PRIMARY KEY, breed TEXT NOT NULL, shelter TEXT NOT NULL, yields TEXT NOT NULL, yield_value INTEGER NOT NULL);
CREATE TABLE villagers (villager_id INTEGER PRIMARY KEY, full_name TEXT NOT NULL, trade TEXT NOT NULL, birthday TEXT NOT NULL, favourite_gift TEXT NOT NULL);
INSERT INTO produce VALUES (1, 'Parsnip', 'Spring', 4, 35), (2, 'Blueberry', 'Summer', 13, 50), (3, 'Melon', 'Summer', 12, 250), (4, 'Eggplant', 'Autumn', 5, 60), (5, 'Yam', 'Autumn', 10, 160), (6, 'Cauliflower', 'Spring', 12, 175);
INSERT INTO livestock VALUES (1, 'Goat', 'Barn', 'Goat Milk', 225), (2, 'Duck', 'Coop', 'Duck Feather', 250), (3, 'Pig', 'Barn', 'Truffle', 625), (4, 'Rabbit', 'Coop', 'Rabbit Foot', 565);
INSERT INTO villagers VALUES (1, 'Marlow Finch', 'Miller', 'Autumn 9', 'Pumpernickel'), (2, 'Odile Brand', 'Blacksmith', 'Winter 3', 'Copper Bar'), (3, 'Wenna Hale', 'Fisher', 'Summer 21', 'Sardine');
