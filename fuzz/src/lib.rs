//! The invariants the fuzz targets check, shared with the rules crate's
//! `fuzz_corpus` test, which runs the committed corpus through them.

pub mod checks;
