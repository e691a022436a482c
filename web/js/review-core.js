// The review of a game without the DOM: its address read and written, the
// engine's score of each position turned into White's score in stones and
// into what each turn cost the side that played it, the marks, and the
// graph's points.

import { whiteScore } from './engine.js';

/** Nodes searched in each position when the address sets none. */
export const REVIEW_NODES = 100_000;

/**
 * What a turn must cost, in stones against the engine's best, to be
 * marked, the worst first.
 */
export const THRESHOLDS = Object.freeze([
  { mark: 'blunder', stones: 2, symbol: '??' },
  { mark: 'mistake', stones: 1, symbol: '?' },
  { mark: 'inaccuracy', stones: 0.5, symbol: '?!' },
]);

/** A won or lost game counts as this many stones, in the graph and the costs. */
export const WIN_STONES = 10;

/**
 * The review's address: /review?start=TEXT&turns=T1+T2&at=K&nodes=N.
 * @param {string} start position text
 * @param {string[]} turns
 * @param {number} [at] the turn shown, 1 for the first (0 for none)
 * @returns {string}
 */
export function reviewUrl(start, turns, at = 0) {
  const query = new URLSearchParams({ start, turns: turns.join(' ') });
  if (at) query.set('at', String(at));
  return `/review?${query}`;
}

/**
 * Reads the review's address.
 * @param {URLSearchParams} params
 * @returns {{start: string, turns: string[], at: number, nodes: number}}
 */
export function readReviewParams(params) {
  const turns = (params.get('turns') || '').trim().split(/\s+/).filter(Boolean);
  const at = Number(params.get('at'));
  const nodes = Number(params.get('nodes'));
  return {
    start: (params.get('start') || '').trim(),
    turns,
    at: Number.isInteger(at) && at >= 0 && at <= turns.length ? at : 0,
    nodes: Number.isInteger(nodes) && nodes > 0 && nodes <= 0xffffffff ? nodes : REVIEW_NODES,
  };
}

/**
 * A position's score for White in stones: a value as it is, a win or a
 * loss as ±WIN_STONES; for a game over, its result.
 * @param {{score: object|null, whiteToMove: boolean, winner?: string|null}} scored
 * @returns {number}
 */
export function whiteStones(scored) {
  if (!scored.score) {
    if (scored.winner === 'white') return WIN_STONES;
    if (scored.winner === 'black') return -WIN_STONES;
    return 0;
  }
  const s = whiteScore(scored.score, scored.whiteToMove);
  if (s.stones !== null) return Math.max(-WIN_STONES, Math.min(WIN_STONES, s.stones));
  return s.winner === 'white' ? WIN_STONES : -WIN_STONES;
}

/**
 * What each turn cost the side that played it, in stones: the score for
 * that side before the turn less the score after it, never below 0; and
 * its mark, if any, unless it was the engine's own best turn.
 * @param {number[]} white White's score in stones, position by position (the start first)
 * @param {string[]} turns the turns played, one fewer than the positions scored or more
 * @param {(string|null)[]} best the engine's best turn in each position
 * @param {string[]} movers the side to move in each position
 * @returns {{cost: number, mark: string|null}[]} one for each turn whose two positions are scored
 */
export function turnCosts(white, turns, best, movers) {
  const out = [];
  for (let i = 0; i + 1 < white.length && i < turns.length; i++) {
    const sign = movers[i] === 'white' ? 1 : -1;
    const cost = Math.max(0, sign * (white[i] - white[i + 1]));
    const found = turns[i] === best[i] ? null : THRESHOLDS.find((th) => cost >= th.stones);
    out.push({ cost, mark: found ? found.mark : null });
  }
  return out;
}

/**
 * The graph's points: one per position, x from 0 to `width` over the
 * game, y from 0 (White +`range` stones) to `height` (Black +`range`).
 * @param {number[]} white
 * @param {number} plies the game's positions, all of them
 * @param {{width: number, height: number, range: number}} size
 * @returns {{x: number, y: number}[]}
 */
export function graphPoints(white, plies, { width, height, range }) {
  const step = plies > 1 ? width / (plies - 1) : 0;
  return white.map((stones, i) => {
    const v = Math.max(-range, Math.min(range, stones));
    return { x: i * step, y: ((range - v) / (2 * range)) * height };
  });
}
