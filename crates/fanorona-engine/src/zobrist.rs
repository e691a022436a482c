//! Zobrist keys: a 64-bit fingerprint of everything that decides a
//! position's value, so equal keys mean (almost surely) equal positions.
//!
//! The key covers the stones, the side to move, the turns since the last
//! capture (the same stones 10 turns nearer the fifty-turn draw are a
//! different position) and a capture chain in progress (its stone, the
//! points it has visited and its last direction).

use fanorona::{Color, Position, Square, FIFTY_TURNS};

/// SplitMix64, to fill the tables at compile time from a fixed seed.
const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

const COUNTERS: usize = FIFTY_TURNS as usize + 1;

struct Keys {
    stones: [[u64; Square::COUNT]; 2],
    black_to_move: u64,
    counter: [u64; COUNTERS],
    chain_stone: [u64; Square::COUNT],
    chain_visited: [u64; Square::COUNT],
    chain_direction: [u64; 8],
}

const fn keys() -> Keys {
    let mut k = Keys {
        stones: [[0; Square::COUNT]; 2],
        black_to_move: 0,
        counter: [0; COUNTERS],
        chain_stone: [0; Square::COUNT],
        chain_visited: [0; Square::COUNT],
        chain_direction: [0; 8],
    };
    let mut s = 0x00F4_A0A0_7A11_u64;
    let mut i = 0;
    while i < Square::COUNT {
        let (n, a) = splitmix(s);
        let (n, b) = splitmix(n);
        let (n, c) = splitmix(n);
        let (n, d) = splitmix(n);
        s = n;
        k.stones[0][i] = a;
        k.stones[1][i] = b;
        k.chain_stone[i] = c;
        k.chain_visited[i] = d;
        i += 1;
    }
    let mut i = 0;
    while i < COUNTERS {
        let (n, a) = splitmix(s);
        s = n;
        // Counter 0 hashes as nothing, so a position fresh from a capture
        // has the key of its stones and side alone.
        k.counter[i] = if i == 0 { 0 } else { a };
        i += 1;
    }
    let mut i = 0;
    while i < 8 {
        let (n, a) = splitmix(s);
        s = n;
        k.chain_direction[i] = a;
        i += 1;
    }
    k.black_to_move = splitmix(s).1;
    k
}

static KEYS: Keys = keys();

/// The Zobrist key of `pos`.
///
/// # Examples
///
/// ```
/// use fanorona::Position;
/// use fanorona_engine::zobrist;
///
/// let start = Position::start();
/// let after = start.play(&"d3-e3A".parse()?)?;
/// assert_ne!(zobrist(&start), zobrist(&after));
/// assert_eq!(zobrist(&start), zobrist(&Position::start()));
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
pub fn zobrist(pos: &Position) -> u64 {
    let board = pos.board();
    let mut key = 0;
    for sq in board.by_color(Color::White) {
        key ^= KEYS.stones[0][sq.index()];
    }
    for sq in board.by_color(Color::Black) {
        key ^= KEYS.stones[1][sq.index()];
    }
    if pos.turn() == Color::Black {
        key ^= KEYS.black_to_move;
    }
    key ^= KEYS.counter[(pos.turns_since_capture() as usize).min(COUNTERS - 1)];
    if let Some(chain) = pos.chain() {
        key ^= KEYS.chain_stone[chain.stone().index()];
        key ^= KEYS.chain_direction[chain.last_direction().index()];
        for sq in chain.visited() {
            key ^= KEYS.chain_visited[sq.index()];
        }
    }
    key
}

#[cfg(test)]
mod tests {
    use super::*;
    use fanorona::Setup;

    fn pos(text: &str) -> Position {
        Position::from_setup(text.parse::<Setup>().expect("text")).expect("legal")
    }

    #[test]
    fn side_counter_and_chain_change_the_key() {
        let white = pos("........./....B..../......B../....W..../......... w 3");
        let black = pos("........./....B..../......B../....W..../......... b 3");
        let later = pos("........./....B..../......B../....W..../......... w 4");
        assert_ne!(zobrist(&white), zobrist(&black));
        assert_ne!(zobrist(&white), zobrist(&later));
        let step = white.legal_steps()[0];
        let mid = white.play_step_unchecked(step);
        assert!(mid.chain().is_some());
        let ended = mid.end_turn().expect("chain open");
        assert_ne!(zobrist(&mid), zobrist(&ended));
    }

    #[test]
    fn keys_are_distinct() {
        let mut all: Vec<u64> = KEYS.stones.iter().flatten().copied().collect();
        all.extend(KEYS.counter.iter().skip(1));
        all.extend(KEYS.chain_stone);
        all.extend(KEYS.chain_visited);
        all.extend(KEYS.chain_direction);
        all.push(KEYS.black_to_move);
        let n = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), n);
    }
}
