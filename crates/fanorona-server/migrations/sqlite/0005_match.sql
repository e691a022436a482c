-- The score of a match, stored in each rematch when it is created: the
-- games before it won by this game's White, by its Black, and drawn (all
-- NULL in a game that is not a rematch).
ALTER TABLE games ADD COLUMN match_white INTEGER;
ALTER TABLE games ADD COLUMN match_black INTEGER;
ALTER TABLE games ADD COLUMN match_draws INTEGER;
