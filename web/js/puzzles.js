// Entry of the puzzles page (/puzzles[?id=ID]): one puzzle after another,
// the easiest first, each a PlayBoard (playboard.js) on the puzzle's
// position with the rules in the page (rules.js). When the player's turn
// is over it is judged against the solution: right, or wrong and the
// solution drawn on the board. The first result of each puzzle is kept in
// localStorage (puzzle-set.js); the puzzle shown is in the address, so
// that it can be shared. Nothing is asked of the server but the files.

import { pageTranslator, keepPlace } from './i18n.js';
import { createBoard, renderBoard } from './render.js';
import { stillView } from './still.js';
import { parsePosition, turnPath } from './position.js';
import { PlayBoard } from './playboard.js';
import { pageSteps } from './rules.js';
import { sayLine } from './lesson.js';
import {
  PUZZLES_FILE, readPuzzles, inOrder, loadProgress, saveProgress, record, nextPuzzle, tally, judgeTurn,
} from './puzzle-set.js';

const t = pageTranslator(document);
keepPlace(document, location);

const $ = (id) => document.getElementById(id);
const els = {
  host: $('puzzle'), task: $('puzzle-task'), board: $('puzzle-board'), choices: $('puzzle-choices'),
  says: $('puzzle-says'), end: $('puzzle-end'), next: $('puzzle-next'), retry: $('puzzle-retry'),
  skip: $('puzzle-skip'), number: $('puzzle-number'), difficulty: $('puzzle-difficulty'),
  themes: $('puzzle-themes'), progress: $('puzzle-progress'), reset: $('puzzle-reset'),
};

const storage = (() => {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
})();
// A mouse or a keyboard clicks where a finger taps.
const touch = matchMedia('(pointer: coarse)').matches;

/** @type {import('./puzzle-set.js').Puzzle[]} */
let ordered = [];
let progress = loadProgress(storage);
/** @type {import('./puzzle-set.js').Puzzle|null} */
let current = null;
/** What the line under the board says once the turn is judged. */
let verdict = null;

const dom = createBoard(els.board, { label: t('puzzles.board'), choices: els.choices });
if (els.task.id) dom.svg.setAttribute('aria-describedby', els.task.id);

const play = new PlayBoard({ board: dom, end: els.end }, {
  t,
  rules: pageSteps,
  onBegin: () => { verdict = null; },
  onRender: (state) => {
    if (verdict) {
      say(verdict.text, verdict.tone);
      return;
    }
    const line = sayLine(state, null, touch);
    say(line.key ? t(line.key, line.params) : '', line.tone);
  },
  onTurn: (made) => { judge(made); },
  onBusy: (busy) => {
    if (busy) els.host.setAttribute('aria-busy', 'true');
    else els.host.removeAttribute('aria-busy');
  },
  onFailed: () => { say(t('puzzles.failed'), 'wrong'); },
});

function say(text, tone) {
  if (els.says.textContent !== text) els.says.textContent = text;
  els.says.dataset.tone = tone;
}

function buttons({ next = false, retry = false, skip = false }) {
  els.next.hidden = !next;
  els.retry.hidden = !retry;
  els.skip.hidden = !skip;
}

function showProgress() {
  els.progress.textContent = t('puzzles.progress', tally(ordered, progress));
}

/** Puts `puzzle` on the board, to be played. */
function show(puzzle) {
  current = puzzle;
  const url = new URL(location.href);
  url.searchParams.set('id', puzzle.id);
  window.history.replaceState(null, '', url.href);
  const pos = parsePosition(puzzle.position);
  els.task.textContent = t(pos && pos.turn === 'black' ? 'puzzles.toMove.black' : 'puzzles.toMove.white');
  els.number.textContent = t('puzzles.number', { number: ordered.indexOf(puzzle) + 1, total: ordered.length });
  els.difficulty.textContent = t('puzzles.difficulty', { level: puzzle.difficulty });
  els.themes.textContent = t('puzzles.themes', { themes: puzzle.themes.map((name) => t(`puzzles.theme.${name}`)).join(', ') });
  els.host.dataset.puzzle = puzzle.id;
  showProgress();
  unjudged();
  play.open(puzzle.position);
}

/** The board to be played again: no verdict, Skip offered. */
function unjudged() {
  verdict = null;
  delete els.host.dataset.result;
  delete els.host.dataset.shown;
  buttons({ skip: true });
  play.paused = false;
}

/** The player's turn is over: right, or wrong and the solution drawn. */
async function judge(made) {
  const puzzle = current;
  const { right, short } = judgeTurn(puzzle.solution, made.notation);
  progress = record(progress, puzzle.id, right ? 'solved' : 'missed');
  saveProgress(storage, progress);
  showProgress();
  els.host.dataset.result = right ? 'right' : 'wrong';
  if (right) {
    verdict = { text: t('puzzles.right', { turn: made.notation, count: made.captured.length }), tone: 'right' };
    buttons({ next: true });
    play.draw();
    return;
  }
  const key = short ? 'puzzles.short' : 'puzzles.wrong';
  verdict = { text: t(key, { turn: made.notation, solution: puzzle.solution }), tone: 'wrong' };
  buttons({ next: true, retry: true });
  // The solution played: the position after it, its path and what it took.
  const { ok, body } = await pageSteps(puzzle.position, puzzle.solution);
  if (puzzle !== current || !verdict || !ok || !body) return;
  const done = body.last_turn || body.turn;
  const after = parsePosition(body.position);
  play.paused = true;
  els.end.hidden = true;
  renderBoard(dom, stillView(after ? after.board : null, turnPath(puzzle.solution) || [], done ? done.captured : []), t);
  els.host.dataset.shown = 'solution';
  say(verdict.text, verdict.tone);
}

/** The next puzzle to play, or the end of them all. */
function advance() {
  const next = nextPuzzle(ordered, progress, current ? current.id : null);
  if (next) {
    show(next);
    return;
  }
  current = null;
  play.paused = true;
  buttons({});
  els.task.textContent = '';
  say(t('puzzles.done'), '');
  showProgress();
}

els.next.addEventListener('click', advance);
els.skip.addEventListener('click', advance);
els.retry.addEventListener('click', () => {
  unjudged();
  play.again();
});
els.reset.addEventListener('click', () => {
  progress = { results: {} };
  saveProgress(storage, progress);
  current = null;
  advance();
});

async function start() {
  let text = null;
  try {
    const res = await fetch(PUZZLES_FILE);
    if (res.ok) text = await res.text();
  } catch {
    text = null;
  }
  ordered = text ? inOrder(readPuzzles(text)) : [];
  els.host.removeAttribute('aria-busy');
  if (!ordered.length) {
    say(t('puzzles.failed'), 'wrong');
    return;
  }
  const asked = new URLSearchParams(location.search).get('id');
  const chosen = ordered.find((p) => p.id === asked);
  if (chosen) show(chosen);
  else advance();
}

start();
