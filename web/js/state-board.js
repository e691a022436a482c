// The player's hand on the board, as transitions of the view state:
// selecting, stepping (shown at once, before the server answers),
// choosing a line, dragging, ending the turn. input.js decides which of
// these an event calls.

import { applyStep, stoneAt, stoneOf } from './position.js';
import {
  canAct, isMyTurn, movableStones, mustCapture, targetsFrom, refusedStep,
} from './state-queries.js';

/**
 * @typedef {import('./types.js').ViewState} ViewState
 * @typedef {import('./types.js').Step} Step
 */

/**
 * Selects one of the player's movable stones, or clears the selection
 * when given null. A stone in the middle of a chain stays selected.
 * @param {ViewState} state
 * @param {string|null} sq
 * @returns {ViewState}
 */
export function select(state, sq) {
  if (state.game && state.game.chain && isMyTurn(state)) {
    return { ...state, selected: state.game.chain.stone, choosing: null };
  }
  if (sq !== null && !movableStones(state).includes(sq)) return state;
  return { ...state, selected: sq, choosing: null, notice: null };
}

/**
 * Plays a step on the shown board at once, before the server answers.
 * @param {ViewState} state
 * @param {Step} step one of the legal steps
 * @returns {ViewState}
 */
export function playOptimistic(state, step) {
  const board = applyStep(state.board, step);
  const capture = step.kind !== 'paika';
  return {
    ...state,
    board,
    pending: step,
    turnPath: state.turnPath.length ? [...state.turnPath, step.to] : [step.from, step.to],
    selected: capture ? step.to : null,
    choosing: null,
    notice: { key: 'game.hint.sending' },
    hint: null,
  };
}

/** @typedef {import('./types.js').Outcome} Outcome */

/**
 * A tap (or click, or Enter) on a point of the board with nothing selected:
 * selects a movable stone, or says why an own stone cannot move.
 * @param {ViewState} state in Mode.Idle
 * @param {string} sq
 * @returns {Outcome}
 */
export function tapWhileIdle(state, sq) {
  if (movableStones(state).includes(sq)) return { state: select(state, sq), intent: null };
  const own = stoneAt(state.board, sq) === stoneOf(state.role);
  if (own && mustCapture(state)) {
    return { state: { ...state, notice: { key: 'game.hint.mustCapture', error: true } }, intent: null };
  }
  return { state, intent: null };
}

/**
 * A tap with a stone selected: a step to a target (or the line question
 * when it may take two lines), the rules' reason for a refused step, else
 * another selection.
 * @param {ViewState} state in Mode.Selected
 * @param {string} sq
 * @returns {Outcome}
 */
export function tapWhileSelected(state, sq) {
  const targets = targetsFrom(state, state.selected);
  const options = targets.get(sq);
  if (options && options.length === 1) return commit(state, { from: state.selected, to: sq, ...options[0] });
  if (options && options.length > 1) {
    return {
      state: { ...state, choosing: { from: state.selected, to: sq, options }, notice: { key: 'game.hint.chooseLine' } },
      intent: null,
    };
  }
  const refused = refusedStep(state, state.selected, sq);
  if (refused) {
    return { state: { ...state, notice: { key: `error.${refused.reason}`, error: true } }, intent: null };
  }
  if (state.game.chain) return { state, intent: null };
  if (sq === state.selected) return { state: select(state, null), intent: null };
  if (movableStones(state).includes(sq)) return { state: select(state, sq), intent: null };
  return { state: select(state, null), intent: null };
}

/**
 * A tap while the player chooses a line: a stone of one plays the step,
 * the target backs out, anything else is a tap as if nothing were asked.
 * @param {ViewState} state in Mode.Choosing
 * @param {string} sq
 * @returns {Outcome}
 */
export function tapWhileChoosing(state, sq) {
  const { from, to, options } = state.choosing;
  const chosen = options.find((o) => o.captures.includes(sq));
  if (chosen) return commit(state, { from, to, ...chosen });
  const back = { ...state, choosing: null, notice: null };
  if (sq === to) return { state: back, intent: null };
  return tapWhileSelected(back, sq);
}

function commit(state, step) {
  return { state: playOptimistic(state, step), intent: { type: 'step', step } };
}

/**
 * A stone dragged from one point and dropped on another: a step when the
 * drop is a target, otherwise the stone stays selected.
 * @param {ViewState} state
 * @param {string} from
 * @param {string|null} to
 * @returns {Outcome}
 */
export function drop(state, from, to) {
  if (!canAct(state) || !movableStones(state).includes(from)) return { state, intent: null };
  const selected = state.selected === from ? state : select(state, from);
  if (!to || to === from) return { state: selected, intent: null };
  return tapWhileSelected({ ...selected, choosing: null }, to);
}

/**
 * Ends the turn during a capture chain.
 * @param {ViewState} state
 * @returns {Outcome}
 */
export function endTurn(state) {
  if (!canAct(state) || !state.game.canEndTurn) return { state, intent: null };
  return {
    state: { ...state, selected: null, choosing: null, pending: { kind: 'end_turn' }, notice: null, hint: null },
    intent: { type: 'end_turn' },
  };
}

/** Backs out of the current choice or selection (Escape). */
export function cancel(state) {
  if (state.choosing) return { ...state, choosing: null, notice: null };
  return select(state, null);
}

/**
 * The pointer or the keyboard focus is over point `sq` (null: none).
 * Gives back the same state when nothing changes, so nothing is redrawn.
 * @param {ViewState} state
 * @param {string|null} sq
 * @returns {ViewState}
 */
export function hover(state, sq) {
  return state.hover === sq ? state : { ...state, hover: sq };
}

/**
 * A stone is picked up to be dragged: it is selected (if it may move) and
 * follows the pointer from (x, y).
 * @param {ViewState} state
 * @param {string} sq
 * @param {number} x
 * @param {number} y
 * @returns {ViewState}
 */
export function grab(state, sq, x, y) {
  const selected = state.selected === sq ? state : select(state, sq);
  return { ...selected, drag: { square: sq, x, y } };
}

/**
 * The dragged stone follows the pointer to (x, y).
 * @param {ViewState} state
 * @param {number} x
 * @param {number} y
 * @returns {ViewState}
 */
export function moveDrag(state, x, y) {
  return state.drag ? { ...state, drag: { ...state.drag, x, y } } : state;
}

/** The drag ends without a drop (the pointer was lost). */
export function endDrag(state) {
  return state.drag ? { ...state, drag: null } : state;
}
