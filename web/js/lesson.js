// The rules page's "try it" boards, without the DOM: what a board asks
// for, the game it is played in (the rules' answer for its position and
// the turn so far), how a finished turn is judged, and the line under the
// board. The rules themselves stay on the server (GET /api/steps): this
// file compares notation and picks sentences, nothing more.

import { readSteps } from './protocol.js';
import { turnPath } from './position.js';
import { Mode } from './state-core.js';
import { mode } from './state-queries.js';

/**
 * What a board asks for, from its element's data attributes: the
 * position (data-position), the turns that are right (data-expect, turn
 * notation separated by spaces) and, optionally, the message for any
 * other turn (data-wrong, a catalogue key).
 * @typedef {{position: string, expect: string[], wrong: string|null}} Task
 */

/**
 * Reads a board's task; null when it names no position or no right turn.
 * @param {{position?: string, expect?: string, wrong?: string}} data an element's dataset
 * @returns {Task|null}
 */
export function readTask(data) {
  const expect = String(data.expect || '').trim().split(/\s+/).filter((t) => turnPath(t));
  if (!data.position || !expect.length) return null;
  return { position: data.position, expect, wrong: data.wrong || null };
}

// Nobody waits for a friend on a rules board: the reader plays the side
// to move, and the other side is only there to be taken.
const BOTH_HERE = Object.freeze({
  white: { joined: true, connected: true }, black: { joined: true, connected: true },
});

/**
 * The game a board plays in, from an answer of GET /api/steps for its
 * start position: the game page's own state shape, with the refused steps.
 * @param {object} raw the answer's JSON
 * @param {string} start the board's position text
 * @returns {import('./types.js').GameState & {refused: object[]}}
 */
export function lessonGame(raw, start) {
  return { ...readSteps(raw), game: 'lesson', startPosition: start, players: BOTH_HERE };
}

const MARK = Object.freeze({ approach: 'A', withdrawal: 'W' });

/**
 * The turn so far in notation once `step` is played after it.
 * @param {{chain: {notation: string}|null}} game
 * @param {{from: string, to: string, kind: string}} step
 * @returns {string}
 */
export function turnWith(game, step) {
  const head = game.chain ? game.chain.notation : step.from;
  return `${head}-${step.to}${MARK[step.kind] || ''}`;
}

/**
 * The game once the player ends the turn in progress (End turn): the
 * turn becomes the last turn and the other side is to move.
 * @param {object} game
 * @returns {object}
 */
export function endedTurn(game) {
  const c = game.chain;
  if (!c) return game;
  return {
    ...game,
    turn: game.turn === 'white' ? 'black' : 'white',
    chain: null,
    steps: [],
    refused: [],
    canEndTurn: false,
    lastTurn: { notation: c.notation, path: c.visited, captured: c.captured },
  };
}

/**
 * The turn the reader finished, or null while it goes on (or before it).
 * @param {object|null} game
 * @returns {{notation: string, captured: string[]}|null}
 */
export function finishedTurn(game) {
  if (!game || game.chain || !game.lastTurn || !game.lastTurn.notation) return null;
  return { notation: game.lastTurn.notation, captured: game.lastTurn.captured };
}

/**
 * How a board judged a finished turn: right or not, and the message
 * (a catalogue key and its parameters) that says why.
 * @typedef {{right: boolean, key: string, params: {turn: string, count: number}}} Verdict
 */

const kindOf = (landing) => ({ A: 'approach', W: 'withdrawal' })[landing.slice(2)] || 'paika';
const startsWith = (long, short) => short.length < long.length && short.every((part, i) => part === long[i]);

/**
 * Judges a finished turn against what the board asks for. A wrong turn
 * gets the first reason that fits: it stopped on the way to a right turn;
 * it went on past one; its capture was of the other kind; else the
 * board's own message, or a general one.
 * @param {Task} task
 * @param {{notation: string, captured: string[]}} made
 * @returns {Verdict}
 */
export function judge(task, made) {
  const params = { turn: made.notation, count: made.captured.length };
  if (task.expect.includes(made.notation)) {
    return { right: true, key: params.count ? 'rules.try.right' : 'rules.try.rightPaika', params };
  }
  const mine = made.notation.split('-');
  for (const want of task.expect.map((t) => t.split('-'))) {
    // Counted in captures: the landings of the turn made, or of the one asked for.
    if (startsWith(want, mine)) {
      return { right: false, key: 'rules.try.stopped', params: { ...params, count: mine.length - 1 } };
    }
    if (startsWith(mine, want)) {
      return { right: false, key: 'rules.try.continued', params: { ...params, count: want.length - 1 } };
    }
  }
  const kind = kindOf(mine[1]);
  if (kind !== 'paika' && task.expect.every((t) => kindOf(t.split('-')[1]) !== kind)) {
    return { right: false, key: `rules.try.wrongKind.${kind}`, params };
  }
  return { right: false, key: task.wrong || 'rules.try.other', params };
}

// What the rules page says for a refusal, where it explains more than
// the game's short line does.
const EXPLAINED = Object.freeze({
  'game.hint.mustCapture': 'rules.try.mustCapture',
  'error.capture_required': 'rules.try.mustCapture',
  'error.repeats_direction': 'rules.try.repeats',
  'error.revisits_point': 'rules.try.revisits',
  'error.only_captures_continue': 'rules.try.onlyCaptures',
});

/**
 * The line under a board: the verdict once the turn is over, else what
 * was just refused and why, else what to do next.
 * @param {import('./types.js').ViewState} state
 * @param {Verdict|null} verdict
 * @param {boolean} [touch] whether the reader taps (a finger) rather than clicks
 * @returns {{key: string, params?: object, tone: 'right'|'wrong'|''}}
 */
export function sayLine(state, verdict, touch = true) {
  if (verdict) return { key: verdict.key, params: verdict.params, tone: verdict.right ? 'right' : 'wrong' };
  if (state.notice) {
    const key = state.notice.key === 'game.hint.chooseLine' && !touch ? 'game.hint.chooseLineClick' : state.notice.key;
    return { key: EXPLAINED[key] || key, tone: state.notice.error ? 'wrong' : '' };
  }
  if (!state.game) return { key: '', tone: '' };
  switch (mode(state)) {
    case Mode.Choosing: return { key: touch ? 'game.hint.chooseLine' : 'game.hint.chooseLineClick', tone: '' };
    case Mode.Selected: return { key: state.game.chain ? 'game.hint.chain' : 'game.hint.selected', tone: '' };
    case Mode.Idle: return { key: 'game.hint.move', tone: '' };
    default: return { key: '', tone: '' };
  }
}
