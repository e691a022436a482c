// The rules page's "try it" boards. Each is the game page's board, drawn
// and played by the same code (render.js, input.js, state.js) on the
// position its HTML gives: the same marks, taps, drags, keys, line
// buttons and End turn. The rules answer every step (GET /api/steps), as
// the server answers a game's; when the turn is over, the line under the
// board says whether it was the turn asked for, and why not.

import {
  createState, receiveState, receiveError, boardView, dragView, bottomColor, movableStones, canAct,
} from './state.js';
import { createBoard, renderBoard, renderDrag, createScheduler } from './render.js';
import { interpret, bindPointer, bindKeyboard, Input } from './input.js';
import { stepsUrl, readError } from './protocol.js';
import {
  readTask, lessonGame, turnWith, endedTurn, finishedTurn, judge, sayLine,
} from './lesson.js';

/**
 * Makes every element marked data-try under a root a board to try a rule
 * on. The element holds the task (data-position, data-expect, data-wrong)
 * and, inside, .try-board, .try-choices, .try-says, .try-end and
 * .try-again.
 * @param {ParentNode} root
 * @param {(key: string, params?: object) => string} t
 */
export function bindTryIts(root, t) {
  for (const host of root.querySelectorAll('[data-try]')) {
    const task = readTask(host.dataset);
    if (task) bindTryIt(host, task, t);
  }
}

function bindTryIt(host, task, t) {
  const part = (name) => host.querySelector(`.try-${name}`);
  const says = part('says');
  const endButton = part('end');
  const board = createBoard(part('board'), {
    label: t('rules.try.board'), choices: part('choices'), coordinates: 'edge',
  });
  const prompt = part('task');
  if (prompt && prompt.id) board.svg.setAttribute('aria-describedby', prompt.id);

  let state = null;
  let verdict = null;
  let first = null;
  let asked = 0;

  const draw = createScheduler(() => {
    if (!state) return;
    renderBoard(board, boardView(state), t);
    renderDrag(board, dragView(state));
    endButton.hidden = !(canAct(state) && state.game.canEndTurn);
    const line = sayLine(state, verdict);
    const text = line.key ? t(line.key, line.params) : '';
    if (says.textContent !== text) says.textContent = text;
    says.dataset.tone = line.tone;
  });

  function update(next) {
    if (next === state) return;
    state = next;
    draw();
  }

  // A fresh board: the reader plays the side to move.
  function begin(game) {
    verdict = null;
    update(receiveState({ ...createState(), role: game.turn }, game));
  }

  function finish(game) {
    update(receiveState(state, game));
    const made = finishedTurn(state.game);
    if (made) {
      verdict = judge(task, made);
      draw();
    }
  }

  async function ask(turn) {
    const token = ++asked;
    host.setAttribute('aria-busy', 'true');
    let res;
    let body;
    try {
      res = await fetch(stepsUrl(task.position, turn));
      body = await res.json();
    } catch {
      body = null;
    }
    if (token !== asked) return;
    host.removeAttribute('aria-busy');
    if (!res || !res.ok || !body) {
      const error = readError(body);
      if (state) {
        update(receiveError(state, error));
      } else {
        says.textContent = t(`error.${error.code}`) === `error.${error.code}` ? t('error.unknown') : t(`error.${error.code}`);
        says.dataset.tone = 'wrong';
      }
      return;
    }
    const game = lessonGame(body, task.position);
    if (!turn) {
      first = game;
      begin(game);
    } else {
      finish(game);
    }
  }

  function dispatch(event) {
    if (!state) return;
    const before = state;
    const { state: next, intent } = interpret(state, event);
    update(next);
    if (!intent) return;
    if (intent.type === 'step') ask(turnWith(before.game, intent.step));
    else if (intent.type === 'end_turn') finish(endedTurn(before.game));
  }

  bindPointer(board.svg, {
    bottom: () => (state ? bottomColor(state) : 'white'),
    canDrag: (sq) => Boolean(state) && movableStones(state).includes(sq),
    onInput: dispatch,
  });
  bindKeyboard(board.svg, { bottom: () => (state ? bottomColor(state) : 'white'), onInput: dispatch });
  board.choices.addEventListener('click', (e) => {
    const b = e.target.closest('button[data-take]');
    if (b) dispatch({ type: Input.Tap, square: b.dataset.take });
  });
  endButton.addEventListener('click', () => dispatch({ type: Input.EndTurn }));
  part('again').addEventListener('click', () => {
    asked++;
    host.removeAttribute('aria-busy');
    if (first) begin(first);
    else ask('');
  });
  ask('');
}
