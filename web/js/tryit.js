// The rules page's "try it" boards: each a PlayBoard (playboard.js) on the
// position its HTML gives, the rules asked of the server (GET
// /api/steps) as a game's steps are; when the turn is over, the line
// under the board says whether it was the turn asked for, and why not.

import { createBoard } from './render.js';
import { stepsUrl } from './protocol.js';
import { readTask, judge, sayLine } from './lesson.js';
import { PlayBoard } from './playboard.js';

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
    if (task) new TryIt(host, task, t, touch);
  }
}

/**
 * The server's rules: {ok, body}, where body is null when nothing
 * readable came.
 * @type {import('./playboard.js').Rules}
 */
export async function serverSteps(position, turn) {
  try {
    const res = await fetch(stepsUrl(position, turn));
    return { ok: res.ok, body: await res.json() };
  } catch {
    return { ok: false, body: null };
  }
}

/** One board to try a rule on: its task, its board and its verdict. */
class TryIt {
  constructor(host, task, t, touch) {
    const els = Object.fromEntries(['task', 'board', 'choices', 'says', 'end', 'again']
      .map((name) => [name, host.querySelector(`.try-${name}`)]));
    this.els = els;
    this.verdict = null;
    const board = createBoard(els.board, { label: t('rules.try.board'), choices: els.choices });
    if (els.task && els.task.id) board.svg.setAttribute('aria-describedby', els.task.id);
    this.play = new PlayBoard({ board, end: els.end }, {
      t,
      rules: serverSteps,
      onBegin: () => { this.verdict = null; },
      onTurn: (made) => { this.verdict = judge(task, made); },
      onRender: (state) => {
        const line = sayLine(state, this.verdict, touch);
        this.say(line.key ? t(line.key, line.params) : '', line.tone);
      },
      onBusy: (busy) => {
        if (busy) host.setAttribute('aria-busy', 'true');
        else host.removeAttribute('aria-busy');
      },
      onFailed: (error) => {
        const key = `error.${error.code}`;
        this.say(t(key) === key ? t('error.unknown') : t(key), 'wrong');
      },
    });
    els.again.addEventListener('click', () => this.play.again());
    this.play.open(task.position);
  }

  say(text, tone) {
    if (this.els.says.textContent !== text) this.els.says.textContent = text;
    this.els.says.dataset.tone = tone;
  }
}
