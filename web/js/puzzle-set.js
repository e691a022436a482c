// The puzzles without the DOM: the file `fanorona puzzles` writes
// (web/puzzles/puzzles.txt) read, put in order from the easiest, the
// player's progress kept in localStorage, and a finished turn judged.

/** Where the puzzles are. */
export const PUZZLES_FILE = '/puzzles/puzzles.txt';
/** The localStorage item of the player's progress. */
export const PROGRESS_ITEM = 'fanorona.puzzles';

const THEMES = new Set(['capture', 'chain', 'choice', 'clock', 'ending']);
const ID = /^[0-9a-f]{8}$/;

/**
 * @typedef {{id: string, position: string, solution: string, difficulty: number, themes: string[]}} Puzzle
 * @typedef {{results: Record<string, 'solved'|'missed'>}} Progress
 */

/**
 * Reads a puzzles file: after its `#` header, one puzzle a line, fields
 * separated by tabs (id, position, solution, difficulty, themes, scores).
 * Lines that do not read are skipped. In the file's order.
 * @param {string} text
 * @returns {Puzzle[]}
 */
export function readPuzzles(text) {
  const puzzles = [];
  for (const line of String(text).split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const [id, position, solution, difficulty, themes] = line.split('\t');
    const level = Number(difficulty);
    const named = String(themes || '').split(',').filter((t) => THEMES.has(t));
    if (!ID.test(id || '') || !position || !/^[a-i][1-5](-[a-i][1-5][AW]?)+$/.test(solution || '')) continue;
    if (!Number.isInteger(level) || level < 1 || level > 5 || !named.length) continue;
    puzzles.push({ id, position, solution, difficulty: level, themes: named });
  }
  return puzzles;
}

/**
 * The order puzzles are played in: the easiest first, in the file's
 * order within a difficulty.
 * @param {Puzzle[]} puzzles
 * @returns {Puzzle[]}
 */
export function inOrder(puzzles) {
  return puzzles.map((p, i) => [p, i]).sort((a, b) => a[0].difficulty - b[0].difficulty || a[1] - b[1]).map(([p]) => p);
}

/**
 * The player's progress; empty when none was kept or it does not read.
 * @param {Storage|null} storage
 * @returns {Progress}
 */
export function loadProgress(storage) {
  try {
    const raw = JSON.parse(storage ? storage.getItem(PROGRESS_ITEM) || '{}' : '{}');
    const results = {};
    for (const [id, result] of Object.entries(raw && typeof raw.results === 'object' && raw.results ? raw.results : {})) {
      if (ID.test(id) && (result === 'solved' || result === 'missed')) results[id] = result;
    }
    return { results };
  } catch {
    return { results: {} };
  }
}

/**
 * Keeps the player's progress; a full or refused storage only forgets it.
 * @param {Storage|null} storage
 * @param {Progress} progress
 */
export function saveProgress(storage, progress) {
  try {
    if (storage) storage.setItem(PROGRESS_ITEM, JSON.stringify(progress));
  } catch {
    // Nothing kept.
  }
}

/**
 * Records the first result of a puzzle; a later one does not change it.
 * @param {Progress} progress
 * @param {string} id
 * @param {'solved'|'missed'} result
 * @returns {Progress}
 */
export function record(progress, id, result) {
  if (progress.results[id]) return progress;
  return { results: { ...progress.results, [id]: result } };
}

/**
 * The next puzzle without a result, after the one with id `after` (from
 * the start when none), coming round to the start; null when every one
 * has a result.
 * @param {Puzzle[]} ordered
 * @param {Progress} progress
 * @param {string|null} after
 * @returns {Puzzle|null}
 */
export function nextPuzzle(ordered, progress, after = null) {
  const from = after === null ? -1 : ordered.findIndex((p) => p.id === after);
  for (let k = 1; k <= ordered.length; k++) {
    const p = ordered[(from + k + ordered.length) % ordered.length];
    if (!progress.results[p.id]) return p;
  }
  return null;
}

/**
 * How many puzzles are solved, missed and still to play.
 * @param {Puzzle[]} puzzles
 * @param {Progress} progress
 */
export function tally(puzzles, progress) {
  let solved = 0;
  let missed = 0;
  for (const p of puzzles) {
    if (progress.results[p.id] === 'solved') solved++;
    else if (progress.results[p.id] === 'missed') missed++;
  }
  return { solved, missed, left: puzzles.length - solved - missed };
}

/**
 * Judges a finished turn: right when it is the solution; short when it
 * stopped on the way to it.
 * @param {string} solution
 * @param {string} made the turn's notation
 * @returns {{right: boolean, short: boolean}}
 */
export function judgeTurn(solution, made) {
  return { right: made === solution, short: solution.startsWith(`${made}-`) };
}
