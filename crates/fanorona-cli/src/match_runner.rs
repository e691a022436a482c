//! `fanorona match`: games between two players on every core, printed in
//! the order they were numbered, then the tally.

use std::{
    collections::BTreeMap,
    io::Write,
    num::NonZeroUsize,
    sync::{
        atomic::{AtomicBool, AtomicU32, Ordering},
        mpsc,
    },
    thread,
};

use fanorona_engine::{play_game, GameRecord, MatchConfig, Player, Tally, WinDrawLoss};

use crate::Failure;

/// Plays `config.games` games between `first` (White in even games, Black
/// in odd ones) and `second`, printing a line per game and the tally from
/// the first player's side.
///
/// # Errors
///
/// A game reported an illegal turn ([`Failure::Illegal`]), or writing
/// failed.
pub(crate) fn play(
    out: &mut impl Write,
    first: Player,
    second: Player,
    config: &MatchConfig,
) -> Result<(), Failure> {
    writeln!(
        out,
        "{first} against {second}: {} games, {} opening turns, seed {}; \
         colours change every game",
        config.games, config.opening_turns, config.seed
    )?;
    let threads = thread::available_parallelism()
        .map_or(1, NonZeroUsize::get)
        .min(config.games as usize);
    let next = AtomicU32::new(0);
    let failed = AtomicBool::new(false);
    let (send, receive) = mpsc::channel();
    let mut tally = Tally::default();
    let mut failure = None;
    thread::scope(|scope| -> Result<(), Failure> {
        for _ in 0..threads {
            let send = send.clone();
            let (next, failed) = (&next, &failed);
            scope.spawn(move || loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                if index >= config.games || failed.load(Ordering::Relaxed) {
                    break;
                }
                let record = play_game(first, second, config, index);
                failed.fetch_or(record.is_err(), Ordering::Relaxed);
                if send.send((index, record)).is_err() {
                    break;
                }
            });
        }
        drop(send);
        // Results arrive as games end; each is printed once every game
        // before it has been.
        let mut waiting = BTreeMap::new();
        let mut printed = 0;
        for (index, record) in receive {
            waiting.insert(index, record);
            while let Some(record) = waiting.remove(&printed) {
                match record {
                    Ok(record) => {
                        writeln!(out, "{}", game_line(printed, first, second, &record))?;
                        out.flush()?;
                        tally.add(record.result);
                    }
                    Err(err) => {
                        failure.get_or_insert(format!("game {}: {err}", printed + 1));
                    }
                }
                printed += 1;
            }
        }
        Ok(())
    })?;
    if let Some(message) = failure {
        return Err(Failure::Illegal(message));
    }
    writeln!(out, "tally {first}: {tally}")?;
    Ok(())
}

/// `game 2: level 1 (Beginner) as black vs random: win, 38 turns (black
/// wins: white has no stones left)`.
fn game_line(index: u32, first: Player, second: Player, record: &GameRecord) -> String {
    let result = match record.result {
        WinDrawLoss::Win => "win",
        WinDrawLoss::Draw => "draw",
        WinDrawLoss::Loss => "loss",
    };
    let how = record
        .end
        .outcome()
        .map_or_else(String::new, |outcome| format!(" ({outcome})"));
    format!(
        "game {}: {first} as {} vs {second}: {result}, {} turns{how}",
        index + 1,
        record.first_plays,
        record.turns.len()
    )
}
