//! A game against the computer as the person's socket sees it: which
//! state answers the person's step, when the computer's reply begins (and
//! how long after the person's last step of the turn), when its turn ends.
//! No I/O: the slot feeds it the states it reads.

use std::time::Duration;

use tokio::time::Instant;

/// What one state told about the game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Seen {
    /// The computer's first step of a turn arrived, this long after the
    /// person's last step of the turn before it was sent.
    pub reply: Option<Duration>,
    /// The computer's turn is complete (the person is to move, or the game
    /// ended on it).
    pub computer_turn: bool,
    /// The game has ended.
    pub over: bool,
    /// The person may step now.
    pub my_turn: bool,
}

/// Follows one game against the computer from the person's side.
#[derive(Debug)]
pub struct Replies {
    /// The person's seat: 0 for White, 1 for Black.
    me: usize,
    /// The person's step waiting for its state: the `seq` it makes, and
    /// when it was sent.
    sent: Option<(u64, Instant)>,
    /// The person's turn is complete at `seq`, its last step sent at the
    /// instant: the computer is to reply.
    awaiting: Option<(u64, Instant)>,
    /// The computer's turn has begun and is not over.
    replying: bool,
    /// Whether the last state left the person to move, with nothing sent.
    my_turn: bool,
}

impl Replies {
    /// A game where the person plays the seat `me` (0 White, 1 Black).
    pub fn new(me: usize) -> Replies {
        Replies {
            me,
            sent: None,
            awaiting: None,
            replying: false,
            my_turn: false,
        }
    }

    /// The person sent a step at `at`; it makes action number `seq`.
    pub fn sent(&mut self, seq: u64, at: Instant) {
        self.sent = Some((seq, at));
        self.my_turn = false;
    }

    /// The server refused the person's step: nothing was played, and
    /// `state_is_mine` says whether the last state leaves them to move.
    pub fn refused(&mut self, state_is_mine: bool) {
        self.sent = None;
        self.my_turn = state_is_mine;
    }

    /// Whether the person may step now.
    pub fn my_turn(&self) -> bool {
        self.my_turn
    }

    /// Since when the person's step, or the computer's reply, has been
    /// waited for; `None` when nothing is.
    pub fn waiting(&self) -> Option<Waiting> {
        match (self.sent, self.awaiting) {
            (Some((_, at)), _) => Some(Waiting::Step(at)),
            (None, Some((_, at))) => Some(Waiting::Reply(at)),
            (None, None) => None,
        }
    }

    /// Reads a state: action count `seq`, the seat to move (`None` when
    /// unknown) and whether the game has ended, received at `now`.
    pub fn state(&mut self, seq: u64, mover: Option<usize>, over: bool, now: Instant) -> Seen {
        let mut seen = Seen {
            over,
            ..Seen::default()
        };
        if let Some((at_seq, at)) = self.sent {
            if seq == at_seq && mover != Some(self.me) && !over {
                self.awaiting = Some((seq, at));
            } else if seq > at_seq {
                // The computer acted after the step, before this socket
                // saw the step's own state: the step ended the turn.
                self.awaiting = Some((at_seq, at));
            }
            if seq >= at_seq {
                self.sent = None;
            }
        }
        if let Some((after, at)) = self.awaiting {
            if seq > after {
                seen.reply = Some(now.saturating_duration_since(at));
                self.awaiting = None;
                self.replying = true;
            }
        }
        if self.replying && (over || mover == Some(self.me)) {
            seen.computer_turn = true;
            self.replying = false;
        }
        if over {
            self.awaiting = None;
        }
        self.my_turn = !over && self.sent.is_none() && mover == Some(self.me);
        seen.my_turn = self.my_turn;
        seen
    }
}

/// What a game against the computer waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Waiting {
    /// The state of the person's step, sent at the instant.
    Step(Instant),
    /// The computer's reply to the person's turn, whose last step was sent
    /// at the instant.
    Reply(Instant),
}

#[cfg(test)]
mod tests {
    use super::*;

    const WHITE: Option<usize> = Some(0);
    const BLACK: Option<usize> = Some(1);

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn the_first_state_leaves_the_person_to_move() {
        let mut r = Replies::new(0);
        let seen = r.state(0, WHITE, false, Instant::now());
        assert!(seen.my_turn && r.my_turn());
        assert_eq!(seen.reply, None);
        assert!(!seen.computer_turn && !seen.over);
        assert_eq!(r.waiting(), None);
    }

    #[test]
    fn a_reply_is_timed_from_the_last_step_of_the_turn() {
        let t0 = Instant::now();
        let mut r = Replies::new(0);
        r.state(0, WHITE, false, t0);
        // A capture that lets the chain go on: still the person's turn.
        r.sent(1, t0);
        assert_eq!(r.waiting(), Some(Waiting::Step(t0)));
        let seen = r.state(1, WHITE, false, t0 + ms(2));
        assert!(seen.my_turn);
        assert_eq!(r.waiting(), None);
        // The last step of the turn.
        r.sent(2, t0 + ms(100));
        let seen = r.state(2, BLACK, false, t0 + ms(102));
        assert_eq!(seen.reply, None);
        assert!(!seen.my_turn);
        assert_eq!(r.waiting(), Some(Waiting::Reply(t0 + ms(100))));
        // Presence and "thinking" states keep the count.
        assert_eq!(r.state(2, BLACK, false, t0 + ms(300)), Seen::default());
        // The computer's first step of a chain of two.
        let seen = r.state(3, BLACK, false, t0 + ms(900));
        assert_eq!(seen.reply, Some(ms(800)));
        assert!(!seen.computer_turn && !seen.my_turn);
        assert_eq!(r.waiting(), None);
        // Its second step ends its turn.
        let seen = r.state(4, WHITE, false, t0 + ms(1500));
        assert_eq!(seen.reply, None);
        assert!(seen.computer_turn && seen.my_turn);
    }

    #[test]
    fn a_reply_of_one_step_starts_and_ends_in_one_state() {
        let t0 = Instant::now();
        let mut r = Replies::new(0);
        r.state(0, WHITE, false, t0);
        r.sent(1, t0);
        r.state(1, BLACK, false, t0 + ms(1));
        let seen = r.state(2, WHITE, false, t0 + ms(600));
        assert_eq!(seen.reply, Some(ms(600)));
        assert!(seen.computer_turn && seen.my_turn);
    }

    #[test]
    fn a_skipped_state_still_times_the_reply() {
        // The socket got the computer's step without the person's own
        // step's state (a slow socket gets only the latest).
        let t0 = Instant::now();
        let mut r = Replies::new(1);
        r.sent(5, t0);
        let seen = r.state(6, BLACK, false, t0 + ms(700));
        assert_eq!(seen.reply, Some(ms(700)));
        assert!(seen.computer_turn && seen.my_turn);
    }

    #[test]
    fn older_states_do_not_answer_the_step() {
        let t0 = Instant::now();
        let mut r = Replies::new(0);
        r.sent(3, t0);
        let seen = r.state(2, WHITE, false, t0 + ms(1));
        assert!(!seen.my_turn);
        assert_eq!(r.waiting(), Some(Waiting::Step(t0)));
    }

    #[test]
    fn a_game_ended_by_the_computer_ends_its_turn() {
        let t0 = Instant::now();
        let mut r = Replies::new(0);
        r.sent(7, t0);
        r.state(7, BLACK, false, t0);
        let seen = r.state(8, WHITE, true, t0 + ms(500));
        assert_eq!(seen.reply, Some(ms(500)));
        assert!(seen.computer_turn && seen.over && !seen.my_turn);
        assert_eq!(r.waiting(), None);
    }

    #[test]
    fn a_game_ended_by_the_person_waits_for_nothing() {
        let t0 = Instant::now();
        let mut r = Replies::new(0);
        r.sent(9, t0);
        let seen = r.state(9, BLACK, true, t0 + ms(1));
        assert_eq!(seen.reply, None);
        assert!(seen.over && !seen.computer_turn && !seen.my_turn);
        assert_eq!(r.waiting(), None);
    }

    #[test]
    fn a_refused_step_gives_the_turn_back() {
        let t0 = Instant::now();
        let mut r = Replies::new(0);
        r.state(0, WHITE, false, t0);
        r.sent(1, t0);
        assert!(!r.my_turn());
        r.refused(true);
        assert!(r.my_turn());
        assert_eq!(r.waiting(), None);
    }
}
