//! Load generator for the Fanorona server.
//!
//! It creates live games over the HTTP API, connects both players (and
//! optionally spectators) over real WebSockets, plays random legal steps
//! taken from the states the server sends, and measures the relay latency
//! (a step sent by one player until the opponent receives the new state),
//! the server's memory and CPU time, and the same figures for a raw
//! WebSocket echo server run by this tool on the same stack, so every
//! figure can be given as a ratio to the transport's own cost. Beside the
//! games between people it can keep games against the computer, one
//! socket each playing the person's side, to see whether the computer's
//! searches slow the relay; their reply times are counted apart. And it
//! can measure whether the computer is shared fairly: a victim address's
//! reply times alone and while attacker addresses flood the computer.

pub mod cli;
pub mod computer;
pub mod echo;
pub mod fairness;
pub mod game;
pub mod plot;
pub mod procinfo;
pub mod quick;
pub mod reply;
pub mod report;
pub mod run;
pub mod stats;
pub mod wire;
