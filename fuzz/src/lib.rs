//! The invariants the fuzz targets check, shared with the rules crate's
//! `fuzz_corpus` test (and the server's, for `server_checks`), which run
//! the committed corpus through them.

pub mod checks;
pub mod server_checks;
