-- The tables of migrations/sqlite/ (0001 and 0002 together), in
-- PostgreSQL's dialect. A game is its start position, its two seats and
-- its ordered actions; seat secrets and the invitation token are stored
-- as SHA-256 hex only.
CREATE TABLE games (
    id TEXT PRIMARY KEY NOT NULL,
    created_at BIGINT NOT NULL,
    start_position TEXT NOT NULL,
    creator TEXT NOT NULL,
    white_seat TEXT,
    black_seat TEXT,
    invite TEXT NOT NULL,
    rematch_of TEXT,
    next_game TEXT,
    computer_color TEXT,
    computer_level BIGINT
);

-- The primary key is what serialises two processes that accept an action
-- for the same game: only one of them can store its number.
CREATE TABLE actions (
    game_id TEXT NOT NULL REFERENCES games (id),
    seq BIGINT NOT NULL,
    player TEXT NOT NULL,
    kind TEXT NOT NULL,
    step TEXT,
    level BIGINT,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (game_id, seq)
);

-- The sweep looks for old games with a free seat.
CREATE INDEX games_created_at ON games (created_at);
