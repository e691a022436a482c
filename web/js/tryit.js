// The rules page's "try it" boards. Each is the game page's board, drawn
// and played by the same code (render.js, input.js, the state-*.js files) on the
// position its HTML gives: the same marks, taps, drags, keys, line
// buttons and End turn. The rules answer every step (GET /api/steps), as
// the server answers a game's; when the turn is over, the line under the
// board says whether it was the turn asked for, and why not.

import { createState } from './state-core.js';
import { bottomColor, movableStones, canAct } from './state-queries.js';
import { receiveState, receiveError } from './state-server.js';
import { boardView, dragView } from './state-draw.js';
import { createBoard, renderBoard, renderDrag, createScheduler } from './render.js';
import { interpret, bindPointer, bindKeyboard, Input } from './input.js';
import { stepsUrl, readError } from './protocol.js';
import {
  readTask, lessonGame, turnWith, endedTurn, finishedTurn, judge, sayLine,
} from './lesson.js';

/**
 * Makes every element marked data-try under a root a board to try a rule
 * on. The element holds the task (data-position, data-expect, data-wrong)
 * and, inside, .try-task, .try-board, .try-choices, .try-says, .try-end
 * and .try-again.
 * @param {ParentNode} root
 * @param {(key: string, params?: object) => string} t
 */
export function bindTryIts(root, t) {
  // A mouse or a keyboard clicks where a finger taps.
  const touch = root.defaultView ? root.defaultView.matchMedia('(pointer: coarse)').matches : true;
  for (const host of root.querySelectorAll('[data-try]')) {
    const task = readTask(host.dataset);
    if (task) new TryIt(host, task, t, touch).ask('');
  }
}

// Asks the rules; {ok, body}, where body is null when nothing readable came.
async function fetchSteps(url) {
  try {
    const res = await fetch(url);
    return { ok: res.ok, body: await res.json() };
  } catch {
    return { ok: false, body: null };
  }
}

/** One board to try a rule on: its task, its view state and its verdict. */
class TryIt {
  constructor(host, task, t, touch) {
    this.host = host;
    this.task = task;
    this.t = t;
    this.touch = touch;
    this.els = Object.fromEntries(['task', 'board', 'choices', 'says', 'end', 'again']
      .map((name) => [name, host.querySelector(`.try-${name}`)]));
    this.board = createBoard(this.els.board, {
      label: t('rules.try.board'), choices: this.els.choices,
    });
    if (this.els.task && this.els.task.id) this.board.svg.setAttribute('aria-describedby', this.els.task.id);
    this.state = null;
    this.verdict = null;
    this.first = null;
    this.asked = 0;
    this.draw = createScheduler(() => this.render());
    this.bind();
  }

  render() {
    const { state, els, t } = this;
    if (!state) return;
    renderBoard(this.board, boardView(state), t);
    renderDrag(this.board, dragView(state));
    els.end.hidden = !(canAct(state) && state.game.canEndTurn);
    const line = sayLine(state, this.verdict, this.touch);
    this.say(line.key ? t(line.key, line.params) : '', line.tone);
  }

  say(text, tone) {
    if (this.els.says.textContent !== text) this.els.says.textContent = text;
    this.els.says.dataset.tone = tone;
  }

  update(next) {
    if (next === this.state) return;
    this.state = next;
    this.draw();
  }

  /** A fresh board: the reader plays the side to move. */
  begin(game) {
    this.verdict = null;
    this.update(receiveState({ ...createState(), role: game.turn }, game));
  }

  /** The rules' answer to a step, or the end of the turn: judged once the turn is over. */
  finish(game) {
    this.update(receiveState(this.state, game));
    const made = finishedTurn(this.state.game);
    if (made) {
      this.verdict = judge(this.task, made);
      this.draw();
    }
  }

  /** Asks the rules for the steps after the turn so far ('' at the start). */
  async ask(turn) {
    const token = ++this.asked;
    this.host.setAttribute('aria-busy', 'true');
    const { ok, body } = await fetchSteps(stepsUrl(this.task.position, turn));
    if (token !== this.asked) return;
    this.host.removeAttribute('aria-busy');
    if (ok && body) {
      const game = lessonGame(body, this.task.position);
      if (turn) {
        this.finish(game);
      } else {
        this.first = game;
        this.begin(game);
      }
    } else if (this.state) {
      this.update(receiveError(this.state, readError(body)));
    } else {
      const key = `error.${readError(body).code}`;
      this.say(this.t(key) === key ? this.t('error.unknown') : this.t(key), 'wrong');
    }
  }

  /** Starts the board over, dropping any answer still on its way. */
  again() {
    this.asked++;
    this.host.removeAttribute('aria-busy');
    if (this.first) this.begin(this.first);
    else this.ask('');
  }

  /** The one way in for the reader's events, as on the game page. */
  dispatch(event) {
    if (!this.state) return;
    const before = this.state;
    const { state, intent } = interpret(before, event);
    this.update(state);
    if (!intent) return;
    if (intent.type === 'step') this.ask(turnWith(before.game, intent.step));
    else if (intent.type === 'end_turn') this.finish(endedTurn(before.game));
  }

  bind() {
    const onInput = (event) => this.dispatch(event);
    const bottom = () => (this.state ? bottomColor(this.state) : 'white');
    bindPointer(this.board.svg, {
      bottom, onInput, canDrag: (sq) => Boolean(this.state) && movableStones(this.state).includes(sq),
    });
    bindKeyboard(this.board.svg, { bottom, onInput });
    this.board.choices.addEventListener('click', (e) => {
      const b = e.target.closest('button[data-take]');
      if (b) onInput({ type: Input.Tap, square: b.dataset.take });
    });
    this.els.end.addEventListener('click', () => onInput({ type: Input.EndTurn }));
    this.els.again.addEventListener('click', () => this.again());
  }
}
