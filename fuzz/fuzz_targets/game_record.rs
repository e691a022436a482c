#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| fanorona_fuzz::checks::game_record(data));
