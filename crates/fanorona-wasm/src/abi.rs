//! The functions the page's worker calls, and the one it provides. Text
//! crosses in the module's memory: the worker asks [`fnr_input`] for room,
//! writes UTF-8 there and calls a command, which answers by the length of
//! its output at [`fnr_output`]; lines reported while a search runs come
//! through the worker's `fnr_line`, which must copy them at once. Only
//! WebAssembly builds export them; the host builds see plain functions.
#![allow(unsafe_code)]

use std::cell::RefCell;

use crate::Analyser;

#[derive(Debug, Default)]
struct State {
    analyser: Analyser,
    input: Vec<u8>,
    output: Vec<u8>,
}

thread_local! {
    static STATE: RefCell<State> = RefCell::new(State::default());
}

#[cfg(target_arch = "wasm32")]
#[link(wasm_import_module = "env")]
extern "C" {
    /// The worker's: a line at `ptr`, `len` bytes of UTF-8.
    fn fnr_line(ptr: *const u8, len: usize);
}

/// Hands a line to the worker.
fn report(line: &str) {
    #[cfg(target_arch = "wasm32")]
    // SAFETY: the worker reads `len` bytes at `ptr` before it returns,
    // and the line lives until then.
    unsafe {
        fnr_line(line.as_ptr(), line.len());
    }
    #[cfg(not(target_arch = "wasm32"))]
    let _ = line;
}

/// Room for `len` bytes of input, zeroed; returns where it starts.
#[no_mangle]
pub extern "C" fn fnr_input(len: usize) -> *mut u8 {
    STATE.with_borrow_mut(|s| {
        s.input.clear();
        s.input.resize(len, 0);
        s.input.as_mut_ptr()
    })
}

/// Where the last command's output starts.
#[no_mangle]
pub extern "C" fn fnr_output() -> *const u8 {
    STATE.with_borrow(|s| s.output.as_ptr())
}

/// Builds the endgame tables of up to `stones` stones (0 for none);
/// returns their size in bytes.
#[no_mangle]
pub extern "C" fn fnr_tables(stones: u32) -> u32 {
    STATE.with_borrow_mut(|s| {
        let bytes = s.analyser.set_tables(stones.min(5) as usize);
        u32::try_from(bytes).unwrap_or(u32::MAX)
    })
}

/// Writes the tables in use to the output, for another worker to load;
/// returns the output's length (0 without tables).
#[no_mangle]
pub extern "C" fn fnr_tables_save() -> usize {
    STATE.with_borrow_mut(|s| {
        s.output = s.analyser.saved_tables();
        s.output.len()
    })
}

/// Loads the tables the input holds, as [`fnr_tables_save`] wrote them;
/// returns their size in memory, or 0 when the input is not such tables.
#[no_mangle]
pub extern "C" fn fnr_tables_load() -> u32 {
    STATE.with_borrow_mut(|s| {
        let input = std::mem::take(&mut s.input);
        let size = s.analyser.load_tables(&input).unwrap_or(0);
        s.input = input;
        u32::try_from(size).unwrap_or(u32::MAX)
    })
}

/// Searches the position in the input within `nodes` and `depth` (0 for
/// no limit), reporting each depth's `info` line; the output is the last
/// line (see [`Analyser::analyse`]). Returns the output's length.
#[no_mangle]
pub extern "C" fn fnr_analyse(nodes: u32, depth: u32) -> usize {
    STATE.with_borrow_mut(|s| {
        let answer = match std::str::from_utf8(&s.input) {
            Ok(text) => s.analyser.analyse(text, u64::from(nodes), depth, report),
            Err(_) => "error the position is not UTF-8".into(),
        };
        s.output = answer.into_bytes();
        s.output.len()
    })
}

/// What the rules allow for the input, position text and, on a second
/// line, the turn so far: the JSON of `GET /api/steps` or an error (see
/// [`crate::steps::steps`]). Returns the output's length.
#[no_mangle]
pub extern "C" fn fnr_steps() -> usize {
    answer_with(crate::steps::steps)
}

/// The position after the whole turn of the input, position text and, on
/// a second line, the turn (see [`crate::steps::play`]). Returns the
/// output's length.
#[no_mangle]
pub extern "C" fn fnr_play() -> usize {
    answer_with(crate::steps::play)
}

/// Answers the input by `f`, its output's length returned.
fn answer_with(f: fn(&str) -> String) -> usize {
    STATE.with_borrow_mut(|s| {
        let answer = match std::str::from_utf8(&s.input) {
            Ok(text) => f(text),
            Err(_) => "{\"code\":\"bad_message\",\"message\":\"the input is not UTF-8\"}".into(),
        };
        s.output = answer.into_bytes();
        s.output.len()
    })
}
