//! Matches between players: games from varied openings, each opening
//! played twice with colours swapped, and the score as an Elo difference
//! with its error bars.

use std::{
    fmt,
    str::FromStr,
    sync::{atomic::AtomicBool, Arc},
    time::Duration,
};

use fanorona::{Color, Position, Turn};

use crate::{
    players::{greedy_turn, random_turn},
    search::{Config, Engine},
    Level, Limits, Tables, Weights,
};

/// Someone who plays a match.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Player {
    /// Plays a legal turn at random.
    Random,
    /// Takes the most stones it can.
    Greedy,
    /// The engine at a level.
    Level(Level),
    /// A level that searches by nodes (5 or 6), stopped after at most this
    /// many: the level as a server short of time plays it.
    Capped(Level, u64),
    /// The engine searching this many turns deep with these weights, a
    /// 4 MiB hash and no tables: a candidate of the evaluation's tuning.
    Weighted(u32, Weights),
}

impl FromStr for Player {
    type Err = String;

    /// `random`, `greedy`, a level number 1 to 6, or a level that
    /// searches by nodes and its cap, like `6/100000`.
    fn from_str(s: &str) -> Result<Player, String> {
        let level = |text: &str| text.parse::<u8>().ok().and_then(Level::new);
        match s {
            "random" => Ok(Player::Random),
            "greedy" => Ok(Player::Greedy),
            _ => match s.split_once('/') {
                None => level(s).map(Player::Level).ok_or_else(|| {
                    format!("expected a level 1 to 6, random or greedy, found {s:?}")
                }),
                Some((l, nodes)) => match (level(l), nodes.parse::<u64>()) {
                    (Some(l), Ok(n)) if n > 0 && l.spec().nodes.is_some() => {
                        Ok(Player::Capped(l, n))
                    }
                    _ => Err(format!(
                        "expected a level that searches by nodes (5 or 6) and a cap of 1 or more, like 6/100000, found {s:?}"
                    )),
                },
            },
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Player::Random => f.write_str("random"),
            Player::Greedy => f.write_str("greedy"),
            Player::Level(l) => write!(f, "level {l}"),
            Player::Capped(l, n) => write!(f, "level {l} at {n} nodes"),
            Player::Weighted(depth, w) => write!(f, "weights {:?} at depth {depth}", w.0),
        }
    }
}

/// How a match is played.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// Games in all; openings are played in pairs, colours swapped.
    pub games: u32,
    /// Random turns played from the start before the players take over.
    pub opening_turns: u32,
    /// When set, engine levels that search by nodes search this long
    /// instead (the match is then no longer deterministic).
    pub time: Option<Duration>,
    /// Seed for the openings and the weak levels' choices.
    pub seed: u64,
    /// Endgame tables for the levels that use them.
    pub tables: Option<Arc<Tables>>,
}

/// The end of one game, from the first player's side.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum WinDrawLoss {
    /// The first player won.
    Win,
    /// A draw.
    Draw,
    /// The first player lost.
    Loss,
}

/// One game of a match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// The colour the first player had.
    pub first_plays: Color,
    /// The turns, opening included.
    pub turns: Vec<Turn>,
    /// The result for the first player.
    pub result: WinDrawLoss,
    /// The final position.
    pub end: Position,
}

/// Wins, draws and losses of the first player.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games the first player won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games the first player lost.
    pub losses: u32,
}

impl Tally {
    /// Adds one result.
    pub fn add(&mut self, r: WinDrawLoss) {
        match r {
            WinDrawLoss::Win => self.wins += 1,
            WinDrawLoss::Draw => self.draws += 1,
            WinDrawLoss::Loss => self.losses += 1,
        }
    }

    /// Games counted.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The first player's score, 0 to 1 (a draw counts a half).
    pub fn score(&self) -> f64 {
        let n = f64::from(self.games().max(1));
        (f64::from(self.wins) + f64::from(self.draws) / 2.0) / n
    }

    /// The Elo difference the score implies, with its 95% interval
    /// `(elo, low, high)`: the Wilson interval of the score (a draw counts
    /// as half a win), which stays finite when one side won every game.
    pub fn elo(&self) -> (f64, f64, f64) {
        let n = f64::from(self.games().max(1));
        let s = self.score();
        let z: f64 = 1.96;
        let z2n = z * z / n;
        let centre = (s + z2n / 2.0) / (1.0 + z2n);
        let half = z * (s * (1.0 - s) / n + z2n / (4.0 * n)).sqrt() / (1.0 + z2n);
        (elo(s), elo(centre - half), elo(centre + half))
    }
}

/// The Elo difference for an expected score `s`.
pub fn elo(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10()
    }
}

impl fmt::Display for Tally {
    /// `+12 =3 -5 score 62.5% elo +88 [+12, +170]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (e, lo, hi) = self.elo();
        let show = |x: f64| {
            if x.is_infinite() {
                if x > 0.0 {
                    "+inf".to_string()
                } else {
                    "-inf".to_string()
                }
            } else {
                format!("{x:+.0}")
            }
        };
        write!(
            f,
            "+{} ={} -{} score {:.1}% elo {} [{}, {}]",
            self.wins,
            self.draws,
            self.losses,
            self.score() * 100.0,
            show(e),
            show(lo),
            show(hi)
        )
    }
}

/// A player with its own engine and random numbers.
struct Seat {
    player: Player,
    engine: Option<Engine>,
    rng: fastrand::Rng,
}

impl Seat {
    fn new(player: Player, seed: u64, tables: Option<&Arc<Tables>>) -> Seat {
        let engine = match player {
            Player::Level(_) | Player::Capped(..) => {
                let mut engine = Engine::new(Config {
                    table_bytes: 8 << 20,
                    ..Config::default()
                });
                engine.set_tables(tables.cloned());
                Some(engine)
            }
            Player::Weighted(_, weights) => Some(Engine::new(Config {
                table_bytes: 4 << 20,
                weights,
                ..Config::default()
            })),
            _ => None,
        };
        Seat {
            player,
            engine,
            rng: fastrand::Rng::with_seed(seed),
        }
    }

    fn turn(&mut self, pos: &Position, time: Option<Duration>) -> Option<Turn> {
        let stop = AtomicBool::new(false);
        match (self.player, self.engine.as_mut()) {
            (Player::Random, _)
            | (Player::Level(_) | Player::Capped(..) | Player::Weighted(..), None) => {
                random_turn(pos, &mut self.rng)
            }
            (Player::Greedy, _) => greedy_turn(pos, &mut self.rng),
            (Player::Level(level), Some(engine)) => {
                let spec = level.spec();
                match time {
                    Some(t) if spec.nodes.is_some() => {
                        let limits = Limits {
                            time: Some(t),
                            ..Limits::default()
                        };
                        engine.search(pos, limits, &stop, |_| {}).best
                    }
                    _ => {
                        let seed = self.rng.u64(..);
                        engine.play_level(pos, level, seed, &stop).best
                    }
                }
            }
            (Player::Capped(level, cap), Some(engine)) => {
                // The levels by nodes play their search's best turn, with
                // their tables and the full quiescence: the same search,
                // stopped sooner.
                let limits = Limits {
                    nodes: Some(level.spec().nodes.map_or(cap, |n| n.min(cap))),
                    ..Limits::default()
                };
                engine.search(pos, limits, &stop, |_| {}).best
            }
            (Player::Weighted(depth, _), Some(engine)) => {
                engine.search(pos, Limits::depth(depth), &stop, |_| {}).best
            }
        }
    }
}

/// The opening of game pair `pair`: `turns` random turns from the start
/// (fewer if the game ends).
pub fn opening(seed: u64, pair: u32, turns: u32) -> Vec<Turn> {
    let mut rng = fastrand::Rng::with_seed(seed ^ (u64::from(pair) << 20) ^ 0x5EED);
    let mut pos = Position::start();
    let mut out = Vec::new();
    for _ in 0..turns {
        let Some(t) = random_turn(&pos, &mut rng) else {
            break;
        };
        let Ok(next) = pos.play(&t) else {
            break;
        };
        pos = next;
        out.push(t);
    }
    out
}

/// Plays game `index` of a match between `first` and `second`: pairs of
/// games share an opening, the first player White in even games.
///
/// # Errors
///
/// A player's illegal turn, as text (never expected; the match checks
/// every turn against the rules crate).
pub fn play_game(
    first: Player,
    second: Player,
    config: &MatchConfig,
    index: u32,
) -> Result<GameRecord, String> {
    let first_plays = if index % 2 == 0 {
        Color::White
    } else {
        Color::Black
    };
    let seed = config.seed.wrapping_add(u64::from(index) * 0x9E37_79B9);
    let tables = config.tables.as_ref();
    let mut seats = [
        Seat::new(first, seed, tables),
        Seat::new(second, seed ^ 1, tables),
    ];
    let mut turns = opening(config.seed, index / 2, config.opening_turns);
    let mut pos = Position::start();
    for t in &turns {
        pos = pos.play(t).map_err(|e| format!("opening {t}: {e}"))?;
    }
    while pos.outcome().is_none() {
        let who = usize::from(pos.turn() != first_plays);
        let turn = seats[who]
            .turn(&pos, config.time)
            .ok_or_else(|| format!("{} found no turn in {pos}", seats[who].player))?;
        pos = pos
            .play(&turn)
            .map_err(|e| format!("{} played {turn} in {pos}: {e}", seats[who].player))?;
        turns.push(turn);
    }
    let winner = pos.outcome().and_then(|o| o.winner);
    let result = match winner {
        None => WinDrawLoss::Draw,
        Some(c) if c == first_plays => WinDrawLoss::Win,
        Some(_) => WinDrawLoss::Loss,
    };
    Ok(GameRecord {
        first_plays,
        turns,
        result,
        end: pos,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_and_its_interval() {
        let even = Tally {
            wins: 10,
            draws: 0,
            losses: 10,
        };
        let (e, lo, hi) = even.elo();
        assert!(e.abs() < 1e-9 && lo < -100.0 && hi > 100.0, "{e} {lo} {hi}");
        let sweep = Tally {
            wins: 200,
            draws: 0,
            losses: 0,
        };
        let (e, lo, hi) = sweep.elo();
        assert!(e.is_infinite() && hi.is_infinite(), "{e} {hi}");
        assert!(lo > 500.0 && lo.is_finite(), "{lo}");
        assert_eq!(
            sweep.to_string(),
            format!("+200 =0 -0 score 100.0% elo +inf [{lo:+.0}, +inf]")
        );
        let three_quarters = Tally {
            wins: 150,
            draws: 0,
            losses: 50,
        };
        assert!((three_quarters.elo().0 - 190.8).abs() < 0.1);
    }

    #[test]
    fn players_parse() {
        assert_eq!("greedy".parse(), Ok(Player::Greedy));
        assert_eq!(
            "3".parse(),
            Ok(Player::Level(Level::new(3).expect("level")))
        );
        assert!("7".parse::<Player>().is_err());
        assert_eq!("6/100000".parse(), Ok(Player::Capped(Level::MAX, 100_000)));
        for bad in ["3/1000", "6/0", "6/", "6/many", "/100", "7/100"] {
            assert!(bad.parse::<Player>().is_err(), "{bad}");
        }
    }
}
