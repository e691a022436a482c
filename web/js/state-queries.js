// Questions about a view state: whose turn, what may move and where,
// what the player may do now. Pure functions of the state.

import { Color } from './geometry.js';
import { parsePosition } from './position.js';
import { Mode, Link } from './state-core.js';

/**
 * @typedef {import('./types.js').ViewState} ViewState
 * @typedef {import('./types.js').GameState} GameState
 */

/** The colour at the bottom of the board. */
export function bottomColor(state) {
  const own = state.role === Color.Black ? Color.Black : Color.White;
  if (!state.flipped) return own;
  return own === Color.White ? Color.Black : Color.White;
}

/** Whether the browser holds a seat (is not a spectator). */
export function isPlayer(state) {
  return state.role === Color.White || state.role === Color.Black;
}

/** Whether the game is against the computer. */
export function againstComputer(state) {
  return Boolean(state.game && state.game.computer);
}

/** Whether the computer is searching or playing out its turn. */
export function computerThinking(state) {
  return Boolean(state.game && state.game.computer && state.game.computer.thinking && !state.game.result);
}

/**
 * Whether this player's opponent has not taken their seat yet: the game
 * cannot start, so nothing is anyone's turn. The computer is always there.
 */
export function waitingForFriend(state) {
  const g = state.game;
  if (!g || g.result || !isPlayer(state) || g.computer) return false;
  const friend = state.role === Color.White ? Color.Black : Color.White;
  return !g.players[friend].joined;
}

/** Whether it is this player's turn in the live game (never before the friend joins). */
export function isMyTurn(state) {
  const g = state.game;
  return Boolean(g && !g.result && isPlayer(state) && g.turn === state.role && !waitingForFriend(state));
}

/** Whether the board accepts moves now: not while the connection is down. */
export function canAct(state) {
  return isMyTurn(state) && state.browse === null && !state.pending && state.link === Link.Open;
}

/**
 * Whether the player may take back their last turn (and the computer's
 * reply), against the computer: once they completed one, unless they
 * resigned or the next game exists.
 */
export function canTakeBack(state) {
  const g = state.game;
  if (!g || !g.computer || !isPlayer(state) || state.link !== Link.Open) return false;
  if (g.nextGame || (g.result && g.result.reason === 'resignation')) return false;
  return hasCompletedTurn(state);
}

/**
 * Whether the player has completed a turn of the game: one to take back.
 * @param {ViewState} state
 */
export function hasCompletedTurn(state) {
  const g = state.game;
  return Boolean(g) && g.moves.some((_, i) => sideOfTurn(g, i) === state.role);
}

/**
 * What a hint depends on: the position and the turn in progress. Not
 * `seq`, which a hint itself moves on (hints are stored actions).
 * @param {GameState} game
 * @returns {string}
 */
export function positionKey(game) {
  return `${game.game} ${game.position} ${game.chain ? game.chain.visited.join('') : ''}`;
}

/** Whether the player may ask for a hint now: on their turn, one at a time. */
export function canAskHint(state) {
  return againstComputer(state) && canAct(state) && state.hintAsked === null;
}

/** The computer's level as the page shows it: the one chosen, until the server confirms it. */
export function shownLevel(state) {
  if (state.levelAsked !== null) return state.levelAsked;
  return state.game && state.game.computer ? state.game.computer.level : null;
}

/** Whether a capture is compulsory: every legal step of the turn captures. */
export function mustCapture(state) {
  const g = state.game;
  if (!g || g.chain || g.steps.length === 0) return false;
  return g.steps.every((s) => s.kind !== 'paika');
}

/**
 * The squares of the stones that can move now.
 * @returns {string[]}
 */
export function movableStones(state) {
  if (!canAct(state)) return [];
  return [...new Set(state.game.steps.map((s) => s.from))];
}

/**
 * Where a stone can go, and what each step would take.
 * @param {ViewState} state
 * @param {string} from
 * @returns {Map<string, Array<{kind: string, captures: string[]}>>}
 */
export function targetsFrom(state, from) {
  const out = new Map();
  if (!canAct(state)) return out;
  for (const s of state.game.steps) {
    if (s.from !== from) continue;
    if (!out.has(s.to)) out.set(s.to, []);
    out.get(s.to).push({ kind: s.kind, captures: s.captures });
  }
  return out;
}

/**
 * The step between two points the rules refuse here, with its reason's
 * code, when the server listed it (the rules page's GET /api/steps; a
 * game's state lists none).
 * @param {ViewState} state
 * @param {string} from
 * @param {string} to
 * @returns {{from: string, to: string, reason: string}|null}
 */
export function refusedStep(state, from, to) {
  const refused = (state.game && state.game.refused) || [];
  return refused.find((s) => s.from === from && s.to === to) || null;
}

/**
 * The colour that played turn `i` (0-based) of a game's move list.
 * @param {GameState} game
 * @param {number} i
 * @returns {'white'|'black'}
 */
export function sideOfTurn(game, i) {
  const start = parsePosition(game.startPosition);
  const first = start ? start.turn : Color.White;
  const other = first === Color.White ? Color.Black : Color.White;
  return i % 2 === 0 ? first : other;
}

/**
 * What changed about draw offers between two states, for this player:
 * 'offered' when the friend just offered one, 'declined' when their own
 * was refused (not when it lapsed as the friend played or the game ended).
 * @param {GameState|null} before
 * @param {GameState} after
 * @param {string|null} role
 * @returns {'offered'|'declined'|null}
 */
export function drawOfferNews(before, after, role) {
  if (!before || before.game !== after.game || after.result) return null;
  if (role !== Color.White && role !== Color.Black) return null;
  if (after.drawOffer && after.drawOffer !== role && before.drawOffer !== after.drawOffer) return 'offered';
  const lapsed = after.moves.length !== before.moves.length;
  if (before.drawOffer === role && !after.drawOffer && !lapsed) return 'declined';
  return null;
}

/** The input mode the board is in. */
export function mode(state) {
  if (!canAct(state)) return Mode.Locked;
  if (state.choosing) return Mode.Choosing;
  if (state.selected) return Mode.Selected;
  return Mode.Idle;
}

/** The messages to show: after seq `seen`, or the last alone for a first state (`seen` null); muted, the page's own. */
export function messagesToShow(game, seen, role, muted) {
  const shown = game.messages.filter((m) => !muted || m.by === role);
  return seen === null ? shown.slice(-1) : shown.filter((m) => m.seq > seen);
}
