-- Clocks: a game's time control (NULL: none), as PGN's TimeControl tag
-- writes it (`300+3`, `1/259200`), and when each action was accepted, in
-- milliseconds since the Unix epoch (NULL in actions stored before; their
-- `created_at` seconds stand for it).
ALTER TABLE games ADD COLUMN time_control TEXT;
ALTER TABLE actions ADD COLUMN at_ms BIGINT;
