// What the player does off the board, as transitions of the view state:
// resign, take back, ask a hint, choose the computer's level; and what
// only this page keeps: sound, the invitation, the board turned round,
// the position looked at in the history.

import { isLevel } from './protocol.js';
import {
  againstComputer, canAskHint, canTakeBack, isPlayer, positionKey, shownLevel,
} from './state-queries.js';

/**
 * @typedef {import('./types.js').ViewState} ViewState
 * @typedef {import('./types.js').Outcome} Outcome
 */

/** Asks the player whether they really resign. */
export function askResign(state) {
  return { ...state, resignConfirm: true };
}

/** The player does not resign after all. */
export function keepPlaying(state) {
  return { ...state, resignConfirm: false };
}

/**
 * The player confirms: the question goes and the resignation is sent.
 * @param {ViewState} state
 * @returns {Outcome}
 */
export function resign(state) {
  return { state: keepPlaying(state), intent: { type: 'resign' } };
}

/**
 * Takes back the player's last turn and the computer's reply: the board
 * waits for the server's state, which shows the position before them.
 * @param {ViewState} state
 * @returns {Outcome}
 */
export function takeBack(state) {
  if (!canTakeBack(state)) return { state, intent: null };
  return {
    state: { ...state, selected: null, choosing: null, hint: null, hintAsked: null, notice: null, resignConfirm: false },
    intent: { type: 'takeback' },
  };
}

/**
 * Asks the server for a hint on the position shown.
 * @param {ViewState} state
 * @returns {Outcome}
 */
export function askHint(state) {
  if (!canAskHint(state)) return { state, intent: null };
  return {
    state: { ...state, hint: null, hintAsked: positionKey(state.game), notice: null },
    intent: { type: 'hint' },
  };
}

/**
 * The player picks the computer's level for its next turns.
 * @param {ViewState} state
 * @param {number} level
 * @returns {Outcome}
 */
export function chooseLevel(state, level) {
  if (!againstComputer(state) || !isPlayer(state) || !isLevel(level) || level === shownLevel(state)) {
    return { state, intent: null };
  }
  const confirmed = level === state.game.computer.level;
  return {
    state: { ...state, levelAsked: confirmed ? null : level },
    intent: { type: 'set_level', level },
  };
}

/**
 * Sound on or off.
 * @param {ViewState} state
 * @param {boolean} on
 * @returns {ViewState}
 */
export function setSound(state, on) {
  return state.soundOn === on ? state : { ...state, soundOn: on };
}

/**
 * The invitation link this browser keeps for the friend's free seat, or
 * null when it has none.
 * @param {ViewState} state
 * @param {string|null} link
 * @returns {ViewState}
 */
export function setInviteLink(state, link) {
  return state.inviteLink === link ? state : { ...state, inviteLink: link };
}

/** Turns the board round. */
export function flip(state) {
  return { ...state, flipped: !state.flipped };
}

/**
 * Looks at an earlier position of the game, or back at the live game.
 * @param {ViewState} state
 * @param {number|null} index ply index; null or the last index for live
 * @returns {ViewState}
 */
export function browseTo(state, index) {
  const last = state.plies.length - 1;
  if (index === null || last < 0) return { ...state, browse: null };
  const i = Math.max(0, Math.min(last, Math.trunc(index)));
  return { ...state, browse: i === last ? null : i, choosing: null };
}

/**
 * Steps through the history: -1 back, +1 forward.
 * @param {ViewState} state
 * @param {number} delta
 */
export function browseBy(state, delta) {
  const current = state.browse === null ? state.plies.length - 1 : state.browse;
  return browseTo(state, current + delta);
}
