-- The key of the preset message a `message` action said (NULL for every
-- other kind of action).
ALTER TABLE actions ADD COLUMN message TEXT;
