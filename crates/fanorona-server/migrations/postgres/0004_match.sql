-- The score of a match, stored in each rematch when it is created: the
-- games before it won by this game's White, by its Black, and drawn (all
-- NULL in a game that is not a rematch). As migrations/sqlite/0005.
ALTER TABLE games ADD COLUMN match_white BIGINT;
ALTER TABLE games ADD COLUMN match_black BIGINT;
ALTER TABLE games ADD COLUMN match_draws BIGINT;
