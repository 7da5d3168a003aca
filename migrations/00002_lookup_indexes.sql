-- +goose Up
-- Reverse lookups used by the champion and counter tools.
CREATE INDEX boss_counters_champion ON boss_counters (champion_id);
CREATE INDEX champion_tags_tag ON champion_tags (tag);

-- +goose Down
DROP INDEX champion_tags_tag;
DROP INDEX boss_counters_champion;
