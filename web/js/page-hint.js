// The hint in a game against the computer, searched by the engine in a
// worker on the player's machine (engine.js), so that it costs the server
// nothing: with the server's budget for a hint (level 5's nodes), and
// answered as the server answers one (a `hint` frame), which the page
// then shows as it would the server's. Loaded at the first Hint; when the
// worker cannot run here, the page asks the server instead (main.js).

import { Engine } from './engine.js';
import { Color, squareIndex } from './geometry.js';
import { Stone, countStones, parsePosition, positionText, stoneAt } from './position.js';

/** The nodes a hint searches: the server's, level 5's (crates/fanorona-engine/src/level). */
export const HINT_NODES = 150_000;

/**
 * With this many stones or fewer, the search uses the endgame tables of
 * four stones, which the worker takes a second to build: before that, a
 * hint's search does not reach four stones.
 */
const ENDING = 12;

/** @type {Engine | null} */
let engine = null;

/**
 * What the worker is asked to search for `game`'s position: its text, or
 * in a turn in progress the position the turn began in (the moving stone
 * back where it set out, the stones it took back on the board), then the
 * turn so far on a second line.
 * @param {{position: string, chain: {stone: string, visited: string[], captured: string[], notation: string} | null}} game
 * @returns {string | null} null when the position cannot be read
 */
export function searchText(game) {
  const pos = parsePosition(game.position);
  if (!pos) return null;
  const chain = game.chain;
  if (!chain) return game.position;
  const mover = pos.turn === Color.White ? Stone.White : Stone.Black;
  const board = pos.board.slice();
  if (stoneAt(board, chain.stone) !== mover) return null;
  board[squareIndex(chain.stone)] = null;
  board[squareIndex(chain.visited[0])] = mover;
  for (const sq of chain.captured) board[squareIndex(sq)] = mover === Stone.White ? Stone.Black : Stone.White;
  return `${positionText({ ...pos, board })}\n${chain.notation}`;
}

/**
 * The server's hint frame for the engine's best turn `best`: its first
 * step, or in a turn in progress (`inTurn`) the end of the turn when the
 * best is to stop there (the stone's point alone).
 * @param {string | null} best
 * @param {boolean} inTurn
 * @returns {string}
 */
export function hintFrame(best, inTurn) {
  const [from, landing] = (best || '').split('-');
  if (!landing) {
    if (!best || !inTurn) throw new Error(`no step to hint: ${best}`);
    return JSON.stringify({ type: 'hint', from: null, to: null, kind: null, end_turn: true, turn: null });
  }
  const kind = { A: 'approach', W: 'withdrawal' }[landing[2]] || 'paika';
  return JSON.stringify({ type: 'hint', from, to: landing.slice(0, 2), kind, end_turn: false, turn: best });
}

/**
 * Searches the hint for `game`'s position in the worker.
 * @param {import('./types.js').GameState} game
 * @returns {Promise<string>} the hint frame; rejected when the worker or its engine cannot run
 */
export async function pageHint(game) {
  const text = searchText(game);
  if (!text) throw new Error('the position cannot be read');
  const { white, black } = countStones(parsePosition(game.position).board);
  const tables = white + black <= ENDING ? 4 : 0;
  if (!engine || engine.tables !== tables) {
    if (engine) engine.stop();
    engine = new Engine({ tables });
  }
  const { best } = await engine.analyse(text, { nodes: HINT_NODES });
  return hintFrame(best, Boolean(game.chain));
}
