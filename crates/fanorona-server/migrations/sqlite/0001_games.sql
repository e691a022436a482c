-- A game is its start position, its two seats and its ordered actions.
-- Seat secrets and the invitation token are stored as SHA-256 hex only.
CREATE TABLE games (
    id TEXT PRIMARY KEY NOT NULL,
    created_at BIGINT NOT NULL,
    start_position TEXT NOT NULL,
    creator TEXT NOT NULL,
    white_seat TEXT,
    black_seat TEXT,
    invite TEXT NOT NULL,
    rematch_of TEXT,
    next_game TEXT
);

CREATE TABLE actions (
    game_id TEXT NOT NULL REFERENCES games (id),
    seq BIGINT NOT NULL,
    player TEXT NOT NULL,
    kind TEXT NOT NULL,
    step TEXT,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
