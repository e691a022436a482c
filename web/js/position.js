// Position text, turn notation, and replaying turns that the server has
// already accepted. This holds no rules: it moves stones and removes the
// points the server says were taken, so that the move list can be browsed
// and diagrams drawn. Pure functions; no DOM.

import {
  FILES, RANKS, SQUARES, Color, squareIndex, parseSquare,
} from './geometry.js';

/** Stone values on a board array. */
export const Stone = Object.freeze({ White: 'W', Black: 'B' });

/** The position every game starts from. */
export const START_POSITION = 'BBBBBBBBB/BBBBBBBBB/BWBW.BWBW/WWWWWWWWW/WWWWWWWWW w 0';

/** @typedef {import('./types.js').Board} Board */
/** @typedef {import('./types.js').Position} Position */

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
 * The points a turn's stone stood on, its start first, read from turn
 * notation such as "e2-e3" or "d3-e3A-e4W".
 * @param {string} text
 * @returns {string[] | null} null when the text is not turn notation
 */
export function turnPath(text) {
  if (typeof text !== 'string') return null;
  const parts = text.trim().split('-');
  if (parts.length < 2 || !parseSquare(parts[0])) return null;
  const path = [parts[0]];
  for (const part of parts.slice(1)) {
    const m = /^([a-i][1-5])[AW]?$/.exec(part);
    if (!m) return null;
    path.push(m[1]);
  }
  return path;
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

/** @typedef {import('./types.js').Ply} Ply */

/**
 * Replays the turns the server accepted: each moves its stone along its
 * notation's path and removes what the server says it took; nothing is
 * judged. Entry 0 is the start, entry i the position after turn i, with
 * its path and captures. Stops at the first turn it cannot read (bad
 * notation, no stone of the side to move there, no captures said).
 * @param {string} startText position text
 * @param {string[]} moves turn notation
 * @param {string[][]} captures the points each turn took, one list per turn
 * @returns {Ply[]}
 */
export function replay(startText, moves, captures) {
  const start = parsePosition(startText);
  if (!start) return [];
  const plies = [{ ...start, path: [], captured: [], notation: null }];
  let pos = start;
  for (let i = 0; i < moves.length; i++) {
    const path = turnPath(moves[i]);
    const captured = captures[i];
    if (!path || !Array.isArray(captured)) break;
    if (stoneAt(pos.board, path[0]) !== stoneOf(pos.turn)) break;
    const board = applyStep(pos.board, { from: path[0], to: path[path.length - 1], captures: captured });
    pos = {
      board,
      turn: pos.turn === Color.White ? Color.Black : Color.White,
      quiet: captured.length ? 0 : pos.quiet + 1,
    };
    plies.push({ ...pos, path, captured, notation: moves[i] });
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
