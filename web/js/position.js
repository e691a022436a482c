// Position text, turn notation, and replaying turns that the server has
// already accepted. This never decides what is legal: it only applies steps
// (moving a stone and removing the line it takes) so that the move list can
// be browsed and diagrams drawn. Pure functions; no DOM.

import {
  FILES, RANKS, SQUARES, Color, squareIndex, parseSquare, squareName,
  directionBetween, DIRECTIONS,
} from './geometry.js';

/** Stone values on a board array. */
export const Stone = Object.freeze({ White: 'W', Black: 'B' });

/** The three kinds of step. */
export const StepKind = Object.freeze({
  Paika: 'paika', Approach: 'approach', Withdrawal: 'withdrawal',
});

/** The position every game starts from. */
export const START_POSITION = 'BBBBBBBBB/BBBBBBBBB/BWBW.BWBW/WWWWWWWWW/WWWWWWWWW w 0';

/**
 * A board is an array of 45 entries indexed by squareIndex: 'W', 'B' or null.
 * @typedef {Array<'W'|'B'|null>} Board
 * @typedef {{board: Board, turn: 'white'|'black', quiet: number}} Position
 */

/**
 * Parses position text: five rows from rank 5 down to rank 1 joined by '/',
 * a space, the side to move, and optionally the turns since the last capture.
 * @param {string} text
 * @returns {Position | null} null when the text is malformed
 */
export function parsePosition(text) {
  if (typeof text !== 'string') return null;
  const parts = text.trim().split(/\s+/);
  if (parts.length < 2 || parts.length > 3) return null;
  const rows = parts[0].split('/');
  if (rows.length !== RANKS) return null;
  const board = new Array(FILES * RANKS).fill(null);
  for (let i = 0; i < RANKS; i++) {
    const row = rows[i];
    if (row.length !== FILES || !/^[WB.]+$/.test(row)) return null;
    const rank = RANKS - 1 - i;
    for (let file = 0; file < FILES; file++) {
      const ch = row[file];
      board[rank * FILES + file] = ch === '.' ? null : ch;
    }
  }
  const turn = { w: Color.White, b: Color.Black }[parts[1]];
  if (!turn) return null;
  let quiet = 0;
  if (parts.length === 3) {
    if (!/^\d{1,4}$/.test(parts[2])) return null;
    quiet = Number(parts[2]);
  }
  return { board, turn, quiet };
}

/**
 * Writes a position as text, the inverse of parsePosition.
 * @param {Position} pos
 * @returns {string}
 */
export function positionText(pos) {
  const rows = [];
  for (let rank = RANKS - 1; rank >= 0; rank--) {
    let row = '';
    for (let file = 0; file < FILES; file++) row += pos.board[rank * FILES + file] || '.';
    rows.push(row);
  }
  return `${rows.join('/')} ${pos.turn === Color.Black ? 'b' : 'w'} ${pos.quiet}`;
}

/**
 * The stone on a square of a board.
 * @param {Board} board
 * @param {string} sq
 * @returns {'W'|'B'|null}
 */
export function stoneAt(board, sq) {
  const i = squareIndex(sq);
  return i < 0 ? null : board[i];
}

/** The stone letter of a colour. */
export function stoneOf(color) {
  return color === Color.Black ? Stone.Black : Stone.White;
}

/**
 * Parses turn notation such as "e2-e3" or "d3-e3A-e4W".
 * @param {string} text
 * @returns {{origin: string, landings: Array<{to: string, kind: string}>} | null}
 */
export function parseTurn(text) {
  if (typeof text !== 'string') return null;
  const parts = text.trim().split('-');
  if (parts.length < 2 || !parseSquare(parts[0])) return null;
  const landings = [];
  for (const part of parts.slice(1)) {
    const m = /^([a-i][1-5])([AW]?)$/.exec(part);
    if (!m) return null;
    const kind = m[2] === 'A' ? StepKind.Approach
      : m[2] === 'W' ? StepKind.Withdrawal : StepKind.Paika;
    landings.push({ to: m[1], kind });
  }
  if (landings.length > 1 && landings.some((l) => l.kind === StepKind.Paika)) return null;
  return { origin: parts[0], landings };
}

/**
 * Writes a turn given as its origin and landings in notation.
 * @param {string} origin
 * @param {Array<{to: string, kind: string}>} landings
 */
export function turnText(origin, landings) {
  const suffix = { approach: 'A', withdrawal: 'W', paika: '' };
  return [origin, ...landings.map((l) => l.to + suffix[l.kind])].join('-');
}

/**
 * The enemy stones a step would take, nearest first. Only geometry: the
 * caller knows the step is legal.
 * @param {Board} board
 * @param {string} from
 * @param {string} to
 * @param {string} kind one of StepKind
 * @returns {string[]}
 */
export function capturedBy(board, from, to, kind) {
  const dir = directionBetween(from, to);
  const mover = stoneAt(board, from);
  if (!dir || !mover || kind === StepKind.Paika) return [];
  const enemy = mover === Stone.White ? Stone.Black : Stone.White;
  let [df, dr] = DIRECTIONS[dir];
  let start;
  if (kind === StepKind.Approach) {
    start = parseSquare(to);
  } else {
    start = parseSquare(from);
    df = -df;
    dr = -dr;
  }
  const out = [];
  let f = start.file + df;
  let r = start.rank + dr;
  let sq = squareName(f, r);
  while (sq && stoneAt(board, sq) === enemy) {
    out.push(sq);
    f += df;
    r += dr;
    sq = squareName(f, r);
  }
  return out;
}

/**
 * Plays one step on a copy of a board: the stone moves and the given
 * captured stones are removed.
 * @param {Board} board
 * @param {{from: string, to: string, captures?: string[]}} step
 * @returns {Board}
 */
export function applyStep(board, step) {
  const next = board.slice();
  const i = squareIndex(step.from);
  next[squareIndex(step.to)] = next[i];
  next[i] = null;
  for (const sq of step.captures || []) next[squareIndex(sq)] = null;
  return next;
}

/**
 * One position of a replayed game.
 * @typedef {Position & {path: string[], captured: string[], notation: string|null}} Ply
 */

/**
 * Replays accepted turns from a start position. Entry 0 is the start; entry
 * i is the position after turn i, with that turn's path and the stones it
 * took. Stops at the first turn that cannot be read or applied.
 * @param {string} startText position text
 * @param {string[]} moves turn notation
 * @returns {Ply[]}
 */
export function replay(startText, moves) {
  const start = parsePosition(startText);
  if (!start) return [];
  const plies = [{ ...start, path: [], captured: [], notation: null }];
  let pos = start;
  for (const text of moves) {
    const turn = parseTurn(text);
    if (!turn || stoneAt(pos.board, turn.origin) !== stoneOf(pos.turn)) break;
    let board = pos.board;
    let from = turn.origin;
    const captured = [];
    let ok = true;
    for (const { to, kind } of turn.landings) {
      if (!directionBetween(from, to) || stoneAt(board, to) !== null) { ok = false; break; }
      const taken = capturedBy(board, from, to, kind);
      if (kind !== StepKind.Paika && taken.length === 0) { ok = false; break; }
      board = applyStep(board, { from, to, captures: taken });
      captured.push(...taken);
      from = to;
    }
    if (!ok) break;
    pos = {
      board,
      turn: pos.turn === Color.White ? Color.Black : Color.White,
      quiet: captured.length ? 0 : pos.quiet + 1,
    };
    plies.push({
      ...pos,
      path: [turn.origin, ...turn.landings.map((l) => l.to)],
      captured,
      notation: text,
    });
  }
  return plies;
}

/**
 * Counts the stones of each colour.
 * @param {Board} board
 */
export function countStones(board) {
  let white = 0;
  let black = 0;
  for (const s of board) {
    if (s === Stone.White) white++;
    else if (s === Stone.Black) black++;
  }
  return { white, black };
}

export { SQUARES };
