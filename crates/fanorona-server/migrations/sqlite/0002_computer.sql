-- Games against the computer: the colour it plays and its level at the
-- start (both NULL in games between people), and the level a `set_level`
-- action chose.
ALTER TABLE games ADD COLUMN computer_color TEXT;
ALTER TABLE games ADD COLUMN computer_level INTEGER;
ALTER TABLE actions ADD COLUMN level INTEGER;
