// A board to play turns on outside a game: the game page's board, drawn
// and played by the same code (render.js, input.js, the state-*.js files)
// on a position given as text, with the same marks, taps, drags, keys,
// line buttons and End turn. The rules answer every step through
// `rules(position, turn)`: the server's (GET /api/steps) on the rules
// page, the page's own WebAssembly (rules.js) on the analysis board and
// the puzzles. What happens once a turn is over is the owner's.

import { createState } from './state-core.js';
import { bottomColor, movableStones, canAct } from './state-queries.js';
import { receiveState, receiveError } from './state-server.js';
import { boardView, dragView } from './state-draw.js';
import { renderBoard, renderDrag, createScheduler } from './render.js';
import { interpret, bindPointer, bindKeyboard, Input } from './input.js';
import { readError } from './protocol.js';
import { lessonGame, turnWith, endedTurn, finishedTurn } from './lesson.js';

/**
 * @typedef {(position: string, turn: string) => Promise<{ok: boolean, body: object|null}>} Rules
 * @typedef {{
 *   t: (key: string, params?: object) => string,
 *   rules: Rules,
 *   onRender?: (state: object) => void,
 *   onBegin?: (game: object) => void,
 *   onTurn?: (made: {notation: string, captured: string[]}, game: object) => void,
 *   onBusy?: (busy: boolean) => void,
 *   onFailed?: (error: {code: string, message: string}) => void,
 *   onInput?: (event: object) => boolean,
 * }} Options
 */

export class PlayBoard {
  /**
   * @param {{board: import('./render.js').BoardDom, end: HTMLElement}} parts
   *   the board made by createBoard (with its line choices) and the End turn button
   * @param {Options} options
   */
  constructor(parts, options) {
    this.board = parts.board;
    this.end = parts.end;
    this.options = options;
    this.position = null;
    this.state = null;
    this.first = null;
    this.asked = 0;
    /** While set, the board neither draws its game nor takes input (its owner draws). */
    this.paused = false;
    this.draw = createScheduler(() => this.render());
    this.bind();
  }

  render() {
    const { state } = this;
    if (!state || this.paused) return;
    renderBoard(this.board, boardView(state), this.options.t);
    renderDrag(this.board, dragView(state));
    this.end.hidden = !(canAct(state) && state.game.canEndTurn);
    if (this.options.onRender) this.options.onRender(state);
  }

  update(next) {
    if (next === this.state) return;
    this.state = next;
    this.draw();
  }

  /** Plays from `position` (position text), the side to move the player's. */
  open(position) {
    this.position = position;
    this.first = null;
    return this.ask('');
  }

  /** A fresh board: the player plays the side to move. */
  begin(game) {
    if (this.options.onBegin) this.options.onBegin(game);
    this.update(receiveState({ ...createState(), role: game.turn }, game));
  }

  /** The rules' answer to a step, or the end of the turn: told once the turn is over. */
  finish(game) {
    this.update(receiveState(this.state, game));
    const made = finishedTurn(this.state.game);
    if (made && this.options.onTurn) {
      this.options.onTurn(made, this.state.game);
      this.draw();
    }
  }

  /** Asks the rules for the steps after the turn so far ('' at the start). */
  async ask(turn) {
    const token = ++this.asked;
    const position = this.position;
    this.busy(true);
    const { ok, body } = await this.options.rules(position, turn);
    if (token !== this.asked) return;
    this.busy(false);
    if (ok && body) {
      const game = lessonGame(body, position);
      if (turn) {
        this.finish(game);
      } else {
        this.first = game;
        this.begin(game);
      }
    } else if (this.state && turn) {
      this.update(receiveError(this.state, readError(body)));
    } else if (this.options.onFailed) {
      this.options.onFailed(readError(body));
    }
  }

  busy(on) {
    if (this.options.onBusy) this.options.onBusy(on);
  }

  /** Starts the turn over, dropping any answer still on its way. */
  again() {
    this.asked++;
    this.busy(false);
    if (this.first) this.begin(this.first);
    else if (this.position) this.ask('');
  }

  /** The one way in for the player's events, as on the game page. */
  dispatch(event) {
    if (!this.state || this.paused) return;
    const before = this.state;
    const { state, intent } = interpret(before, event);
    this.update(state);
    if (!intent) return;
    if (intent.type === 'step') this.ask(turnWith(before.game, intent.step));
    else if (intent.type === 'end_turn') this.finish(endedTurn(before.game));
  }

  bind() {
    // The owner may take an event first (the analysis board's editing).
    const onInput = (event) => {
      if (this.options.onInput && this.options.onInput(event)) return;
      this.dispatch(event);
    };
    const bottom = () => (this.state ? bottomColor(this.state) : 'white');
    bindPointer(this.board.svg, {
      bottom,
      onInput,
      canDrag: (sq) => Boolean(this.state) && !this.paused && movableStones(this.state).includes(sq),
    });
    bindKeyboard(this.board.svg, { bottom, onInput });
    this.board.choices.addEventListener('click', (e) => {
      const b = e.target.closest('button[data-take]');
      if (b) onInput({ type: Input.Tap, square: b.dataset.take });
    });
    this.end.addEventListener('click', () => onInput({ type: Input.EndTurn }));
  }
}
