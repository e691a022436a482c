//! A second, deliberately naive implementation of the rules, written from
//! `crates/fanorona/RULES.md` alone (the rules, notation and position
//! text), checked against the library.
//!
//! The reference knows nothing of bitboards or of the library's move
//! generation: a board is 45 `Option<Stone>`, directions are coordinate
//! deltas, turns are found by plain recursion and kept in `Vec`s. It parses
//! and prints position text and notation itself. The library and the
//! reference must agree on the set of complete turns and on the position
//! each one leads to, on the legal steps in the middle of a turn, on the
//! result of the game and on perft.

use crate::common;

use std::{collections::BTreeSet, fmt::Write as _};

use common::{data_files, random_actions, random_sparse, random_turns, Rng};
use fanorona::{EndReason, Position};

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Stone {
    White,
    Black,
}

impl Stone {
    fn other(self) -> Stone {
        match self {
            Stone::White => Stone::Black,
            Stone::Black => Stone::White,
        }
    }
}

/// File and rank deltas of the eight directions: N, NE, E, SE, S, SW, W, NW.
const DIRS: [(i32, i32); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];

fn opposite(d: usize) -> usize {
    (d + 4) % 8
}

/// The neighbour of point `p` along direction `d`, if a line leads there.
fn neighbour(p: usize, d: usize) -> Option<usize> {
    let (file, rank) = ((p % 9) as i32, (p / 9) as i32);
    let (df, dr) = DIRS[d];
    let diagonal = df != 0 && dr != 0;
    if diagonal && (file + rank) % 2 != 0 {
        return None;
    }
    let (f, r) = (file + df, rank + dr);
    if (0..9).contains(&f) && (0..5).contains(&r) {
        Some((r * 9 + f) as usize)
    } else {
        None
    }
}

fn name(p: usize) -> String {
    format!("{}{}", (b'a' + (p % 9) as u8) as char, p / 9 + 1)
}

/// A position at the start of a turn.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Naive {
    board: [Option<Stone>; 45],
    to_move: Stone,
    quiet: u32,
}

impl Naive {
    fn parse(text: &str) -> Naive {
        let words: Vec<&str> = text.split(' ').collect();
        let rows: Vec<&str> = words[0].split('/').collect();
        assert_eq!(rows.len(), 5, "{text}");
        let mut board = [None; 45];
        for (i, row) in rows.iter().enumerate() {
            let rank = 4 - i;
            assert_eq!(row.len(), 9, "{text}");
            for (file, c) in row.chars().enumerate() {
                board[rank * 9 + file] = match c {
                    'W' => Some(Stone::White),
                    'B' => Some(Stone::Black),
                    '.' => None,
                    _ => panic!("bad point {c:?} in {text}"),
                };
            }
        }
        let to_move = match words[1] {
            "w" => Stone::White,
            "b" => Stone::Black,
            other => panic!("bad side {other:?} in {text}"),
        };
        let quiet = words.get(2).map_or(0, |n| n.parse().expect("counter"));
        Naive {
            board,
            to_move,
            quiet,
        }
    }

    fn text(&self) -> String {
        let mut s = String::new();
        for rank in (0..5).rev() {
            for file in 0..9 {
                s.push(match self.board[rank * 9 + file] {
                    Some(Stone::White) => 'W',
                    Some(Stone::Black) => 'B',
                    None => '.',
                });
            }
            if rank > 0 {
                s.push('/');
            }
        }
        let side = if self.to_move == Stone::White {
            'w'
        } else {
            'b'
        };
        let _ = write!(s, " {side} {}", self.quiet);
        s
    }

    fn stones(&self, color: Stone) -> Vec<usize> {
        (0..45).filter(|&p| self.board[p] == Some(color)).collect()
    }

    /// The result if the game is over: `Some(None)` for a draw,
    /// `Some(Some(winner))` for a win.
    fn result(&self) -> Option<(Option<Stone>, EndReason)> {
        if self.stones(self.to_move).is_empty() {
            Some((Some(self.to_move.other()), EndReason::NoStones))
        } else if self.quiet >= 50 {
            Some((None, EndReason::FiftyTurns))
        } else if self.turns().is_empty() {
            Some((Some(self.to_move.other()), EndReason::NoLegalStep))
        } else {
            None
        }
    }

    /// Every complete turn in notation, with the position it leads to.
    fn turns(&self) -> Vec<(String, Naive)> {
        let me = self.to_move;
        if self.stones(me).is_empty() || self.quiet >= 50 {
            return Vec::new();
        }
        let mut out = Vec::new();
        for from in self.stones(me) {
            for cap in captures(&self.board, from, me, None, &[from]) {
                let mut board = self.board;
                apply(&mut board, from, &cap);
                let text = format!("{}-{}{}", name(from), name(cap.to), cap.kind);
                chain(
                    self,
                    board,
                    cap.to,
                    cap.dir,
                    vec![from, cap.to],
                    text,
                    &mut out,
                );
            }
        }
        if out.is_empty() {
            for from in self.stones(me) {
                for d in 0..8 {
                    let Some(to) = neighbour(from, d) else {
                        continue;
                    };
                    if self.board[to].is_some() {
                        continue;
                    }
                    let mut board = self.board;
                    board[to] = board[from].take();
                    let next = Naive {
                        board,
                        to_move: me.other(),
                        quiet: self.quiet + 1,
                    };
                    out.push((format!("{}-{}", name(from), name(to)), next));
                }
            }
        }
        out
    }
}

/// One capturing step from a point: where it lands, its direction, `'A'`
/// or `'W'`, and the stones it takes.
#[derive(Clone, Debug)]
struct Capture {
    to: usize,
    dir: usize,
    kind: char,
    taken: Vec<usize>,
}

/// The unbroken run of `enemy` stones starting at `first` and going along `d`.
fn enemy_run(
    board: &[Option<Stone>; 45],
    first: Option<usize>,
    d: usize,
    enemy: Stone,
) -> Vec<usize> {
    let mut run = Vec::new();
    let mut at = first;
    while let Some(p) = at {
        if board[p] != Some(enemy) {
            break;
        }
        run.push(p);
        at = neighbour(p, d);
    }
    run
}

/// Every capture the stone on `from` can make: not in direction `last`, and
/// not onto a point of `visited`.
fn captures(
    board: &[Option<Stone>; 45],
    from: usize,
    me: Stone,
    last: Option<usize>,
    visited: &[usize],
) -> Vec<Capture> {
    let enemy = me.other();
    let mut out = Vec::new();
    for d in 0..8 {
        if last == Some(d) {
            continue;
        }
        let Some(to) = neighbour(from, d) else {
            continue;
        };
        if board[to].is_some() || visited.contains(&to) {
            continue;
        }
        let approach = enemy_run(board, neighbour(to, d), d, enemy);
        if !approach.is_empty() {
            out.push(Capture {
                to,
                dir: d,
                kind: 'A',
                taken: approach,
            });
        }
        let back = opposite(d);
        let withdrawal = enemy_run(board, neighbour(from, back), back, enemy);
        if !withdrawal.is_empty() {
            out.push(Capture {
                to,
                dir: d,
                kind: 'W',
                taken: withdrawal,
            });
        }
    }
    out
}

fn apply(board: &mut [Option<Stone>; 45], from: usize, cap: &Capture) {
    board[cap.to] = board[from].take();
    for &p in &cap.taken {
        board[p] = None;
    }
}

/// After a capture that left the stone on `at`: the turn may stop here, or
/// go on with any further capture.
fn chain(
    start: &Naive,
    board: [Option<Stone>; 45],
    at: usize,
    last: usize,
    visited: Vec<usize>,
    text: String,
    out: &mut Vec<(String, Naive)>,
) {
    let me = start.to_move;
    out.push((
        text.clone(),
        Naive {
            board,
            to_move: me.other(),
            quiet: 0,
        },
    ));
    for cap in captures(&board, at, me, Some(last), &visited) {
        let mut next = board;
        apply(&mut next, at, &cap);
        let mut seen = visited.clone();
        seen.push(cap.to);
        let text = format!("{text}-{}{}", name(cap.to), cap.kind);
        chain(start, next, cap.to, cap.dir, seen, text, out);
    }
}

fn naive_perft(pos: &Naive, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let turns = pos.turns();
    if depth == 1 {
        return turns.len() as u64;
    }
    turns
        .iter()
        .map(|(_, next)| naive_perft(next, depth - 1))
        .sum()
}

/// Compares the library and the reference at a position with no turn in
/// progress: the turns and where they lead, and the result. Panics with the
/// position text and the differing turns.
fn compare(pos: &Position) {
    let text = pos.to_string();
    let naive = Naive::parse(&text);
    assert_eq!(naive.text(), text, "the reference reads position text back");

    let lib_list: Vec<(String, String)> = pos
        .legal_turns()
        .iter()
        .map(|t| {
            let after = pos
                .play(t)
                .unwrap_or_else(|e| panic!("{text}: listed turn {t} refused: {e}"));
            (t.to_string(), after.to_string())
        })
        .collect();
    let lib: BTreeSet<(String, String)> = lib_list.iter().cloned().collect();
    assert_eq!(lib.len(), lib_list.len(), "{text}: a turn is listed twice");
    let reference: BTreeSet<(String, String)> = naive
        .turns()
        .into_iter()
        .map(|(t, n)| (t, n.text()))
        .collect();
    if lib != reference {
        let mut msg = format!("turns differ in {text}\n");
        for (t, after) in lib.difference(&reference) {
            let _ = writeln!(msg, "  library only:   {t} -> {after}");
        }
        for (t, after) in reference.difference(&lib) {
            let _ = writeln!(msg, "  reference only: {t} -> {after}");
        }
        panic!("{msg}");
    }

    let lib_result = pos.outcome().map(|o| {
        let winner = o.winner.map(|c| match c {
            fanorona::Color::White => Stone::White,
            fanorona::Color::Black => Stone::Black,
        });
        (winner, o.reason)
    });
    assert_eq!(lib_result, naive.result(), "result differs in {text}");
}

/// Compares the legal steps with a turn possibly in progress.
fn compare_steps(pos: &Position) {
    let text = pos.to_string();
    let naive = Naive::parse(&text);
    let lib: BTreeSet<String> = pos.legal_steps().iter().map(|s| s.to_string()).collect();
    let reference: BTreeSet<String> = match pos.chain() {
        Some(chain) => {
            let at = chain.stone().index();
            let (df, dr) = chain.last_direction().delta();
            let last = DIRS
                .iter()
                .position(|&d| d == (i32::from(df), i32::from(dr)))
                .expect("a direction");
            let visited: Vec<usize> = chain.visited().into_iter().map(|s| s.index()).collect();
            captures(&naive.board, at, naive.to_move, Some(last), &visited)
                .into_iter()
                .map(|c| format!("{}-{}{}", name(at), name(c.to), c.kind))
                .collect()
        }
        // At the start of a turn the first steps of the turns are the steps.
        None => naive
            .turns()
            .into_iter()
            .map(|(t, _)| t.split('-').take(2).collect::<Vec<_>>().join("-"))
            .collect(),
    };
    assert_eq!(
        lib,
        reference,
        "legal steps differ in {text} (chain {:?})",
        pos.chain()
    );
}

fn walk(pos: &Position, depth: u32, visited: &mut usize) {
    compare(pos);
    compare_steps(pos);
    *visited += 1;
    if depth == 0 {
        return;
    }
    for turn in pos.legal_turns() {
        let next = pos.play(&turn).expect("a listed turn is legal");
        walk(&next, depth - 1, visited);
    }
}

#[test]
fn turns_agree_at_the_start() {
    compare(&Position::start());
    let naive = Naive::parse(common::START);
    assert_eq!(naive.turns().len(), 5);
}

#[test]
fn turns_agree_on_every_position_of_the_perft_tree_to_depth_3() {
    let mut visited = 0;
    walk(&Position::start(), 3, &mut visited);
    assert_eq!(visited, 1 + 5 + 39 + 724);
}

#[test]
fn turns_agree_on_positions_from_random_play() {
    let mut compared = 0;
    let mut rng = Rng::new(0x5eed_0001);
    for _ in 0..40 {
        random_turns(Position::start(), &mut rng, 150, |p| {
            compare(p);
            compared += 1;
        });
    }
    let mut sparse = 0;
    while sparse < 150 {
        let density = 1 + rng.below(8) as u64;
        if let Some(start) = random_sparse(&mut rng, density) {
            sparse += 1;
            random_turns(start, &mut rng, 25, |p| {
                compare(p);
                compared += 1;
            });
        }
    }
    assert!(compared >= 3000, "only {compared} positions compared");
}

#[test]
fn steps_agree_in_the_middle_of_turns() {
    let mut rng = Rng::new(0x5eed_0002);
    let mut in_chain = 0;
    for game in 0..300 {
        let start = if game % 2 == 0 {
            Some(Position::start())
        } else {
            random_sparse(&mut rng, (3 + game % 6) as u64)
        };
        let Some(mut pos) = start else { continue };
        for _ in 0..120 {
            compare_steps(&pos);
            in_chain += usize::from(pos.chain().is_some());
            let next = random_actions(pos, &mut rng, 1);
            if next == pos {
                break;
            }
            pos = next;
        }
    }
    assert!(
        in_chain >= 500,
        "only {in_chain} positions with a chain open"
    );
}

#[test]
fn perft_agrees_to_depth_4_from_the_start() {
    let naive = Naive::parse(common::START);
    let start = Position::start();
    let expected = [5, 39, 724, 18_026];
    for (depth, want) in (1..=4).zip(expected) {
        let reference = naive_perft(&naive, depth);
        assert_eq!(reference, want, "reference perft({depth})");
        assert_eq!(fanorona::perft(&start, depth), reference, "perft({depth})");
    }
}

/// The reference limit for perft lines from the data files; raise it with
/// `FANORONA_REFERENCE_LIMIT` in a release build to check deeper lines.
fn reference_limit() -> u64 {
    std::env::var("FANORONA_REFERENCE_LIMIT")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(100_000)
}

/// Every `perft` line of the data files with few enough nodes agrees with
/// the reference, so the recorded figures do not rest on the library alone.
#[test]
fn perft_data_agrees_with_the_reference() {
    let limit = reference_limit();
    let mut checked = 0;
    for file in data_files() {
        let text = std::fs::read_to_string(&file).expect("readable");
        let mut current: Option<(String, Naive)> = None;
        for line in text.lines() {
            if let Some(pos) = line.strip_prefix("pos ") {
                current = Some((pos.to_owned(), Naive::parse(pos)));
            } else if let Some(rest) = line.strip_prefix("perft ") {
                let (depth, nodes) = rest.split_once(' ').expect("perft <depth> <nodes>");
                let depth: u32 = depth.parse().expect("depth");
                let nodes: u64 = nodes.parse().expect("nodes");
                if nodes > limit {
                    continue;
                }
                let (pos, naive) = current.as_ref().expect("pos before perft");
                assert_eq!(
                    naive_perft(naive, depth),
                    nodes,
                    "{}: perft {depth} of {pos}",
                    file.display()
                );
                checked += 1;
            }
        }
    }
    assert!(checked >= 20, "only {checked} perft lines checked");
}
