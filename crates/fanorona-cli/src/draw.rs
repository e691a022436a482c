//! The board drawn in text for `fanorona show`.
//!
//! Points are `W`, `B` or `.` as in position text, joined by the lines of
//! the board; the diagonals meet only at strong points, so strong and weak
//! points can be told apart at a glance:
//!
//! ```text
//! 5  B---B---B---B---B---B---B---B---B
//!    | \ | / | \ | / | \ | / | \ | / |
//! 4  B---B---B---B---B---B---B---B---B
//! ```

use std::fmt::Write;

use fanorona::{Color, Position, Square, FILES, RANKS};

/// Draws the board, then the side to move, the turns since the last
/// capture and the result if the game is over, each line ending in `\n`.
pub(crate) fn position(pos: &Position) -> String {
    let mut text = String::new();
    for rank in (0..RANKS).rev() {
        text.push_str(&points_row(pos, rank));
        if rank > 0 {
            text.push_str(&lines_row(rank - 1));
        }
    }
    text.push_str("  ");
    for file in 0..FILES {
        let _ = write!(text, " {}  ", char::from(b'a' + file));
    }
    truncate_line(&mut text);
    let _ = writeln!(text);
    let _ = writeln!(text, "{} to move", pos.turn());
    let _ = writeln!(
        text,
        "turns since the last capture: {}",
        pos.turns_since_capture()
    );
    if let Some(outcome) = pos.outcome() {
        let _ = writeln!(text, "result: {outcome}");
    }
    text
}

/// One rank of points, `5  B---B---...`, with its number on the left.
fn points_row(pos: &Position, rank: u8) -> String {
    let mut row = format!("{}  ", rank + 1);
    for file in 0..FILES {
        if file > 0 {
            row.push_str("---");
        }
        let stone = Square::from_coords(file, rank).and_then(|sq| pos.board().stone_at(sq));
        row.push(stone.map_or('.', Color::stone_char));
    }
    row.push('\n');
    row
}

/// The lines between rank `below` and the rank above it: the verticals and,
/// in each cell, the one diagonal that joins its two strong corners.
fn lines_row(below: u8) -> String {
    let mut row = String::from("   |");
    for file in 0..FILES - 1 {
        // The cell's lower-left corner is strong when file + rank is even;
        // then the diagonal rises to the right, otherwise to the left.
        let diagonal = if (file + below) % 2 == 0 { '/' } else { '\\' };
        row.push(' ');
        row.push(diagonal);
        row.push_str(" |");
    }
    row.push('\n');
    row
}

fn truncate_line(text: &mut String) {
    let trimmed = text.trim_end_matches(' ').len();
    text.truncate(trimmed);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diagonals_meet_at_strong_points() {
        // a1 is strong: the cell a1-b2 carries '/', the cell b1-c2 '\'.
        assert!(lines_row(0).starts_with("   | / | \\ |"));
        // a5 is strong: the cell a4-b5 carries '\'.
        assert!(lines_row(3).starts_with("   | \\ | / |"));
    }

    #[test]
    fn start_rank_three_reads_like_position_text() {
        let row = points_row(&Position::start(), 2);
        assert_eq!(row, "3  B---W---B---W---.---B---W---B---W\n");
    }
}
