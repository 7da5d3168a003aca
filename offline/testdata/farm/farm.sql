-- Greenhollow, a small farming game: crops and animals.
CREATE TABLE crops (crop_id INTEGER PRIMARY KEY, name TEXT NOT NULL, season TEXT NOT NULL, grow_days INTEGER NOT NULL, sell_price INTEGER NOT NULL);
CREATE TABLE animals (animal_id INTEGER PRIMARY KEY, name TEXT NOT NULL, building TEXT NOT NULL, produce TEXT NOT NULL, produce_price INTEGER NOT NULL);
INSERT INTO crops VALUES (1, 'Turnip', 'Spring', 4, 60), (2, 'Strawberry', 'Spring', 8, 120), (9, 'Pumpkin', 'Autumn', 13, 320), (10, 'Cranberry', 'Autumn', 7, 75);
INSERT INTO animals VALUES (1, 'Sheep', 'Barn', 'Wool', 340), (2, 'Cow', 'Barn', 'Milk', 125), (3, 'Hen', 'Coop', 'Egg', 50);
