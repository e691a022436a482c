// Entry of the analysis board (/analysis?position=TEXT[&nodes=N][&tables=0]): the
// position drawn, and the engine searching it in a Web Worker
// (engine.js), each completed depth listed as it comes, the deepest
// first, and the best turn drawn on the board. With `nodes` the search
// stops after exactly that many nodes, so its answer is the one
// `fanorona analyse TEXT --nodes N` prints; without, it goes on until
// stopped or until a generous budget is spent. Nothing is asked of the
// server but the files.

import { pageTranslator, keepPlace } from './i18n.js';
import { createBoard, renderBoard } from './render.js';
import { stillView } from './still.js';
import { START_POSITION, parsePosition, turnPath } from './position.js';
import { Engine, whiteScore } from './engine.js';

const t = pageTranslator(document);
keepPlace(document, location);

const $ = (id) => document.getElementById(id);
const els = {
  board: $('analysis-board'), status: $('analysis-status'), best: $('analysis-best'),
  toggle: $('analysis-toggle'), lines: $('analysis-lines'), form: $('analysis-form'),
  position: $('analysis-position'), error: $('analysis-error'),
};

/** Nodes searched when the address sets none: about half a minute. */
const OPEN_BUDGET = 30_000_000;

const params = new URLSearchParams(location.search);
const text = (params.get('position') || '').trim() || START_POSITION;
const asked = Number(params.get('nodes'));
const nodes = Number.isInteger(asked) && asked > 0 && asked <= 0xffffffff ? asked : 0;
const pos = parsePosition(text);
// The endgame tables the worker builds: of up to 4 stones, as the command
// line's by default, unless the address says `tables=0` (none).
const engine = new Engine({ tables: params.get('tables') === '0' ? 0 : 4 });
/** The page's figures for tests and measures: the last search's answer. */
window.analysis = null;
const dom = createBoard(els.board, { interactive: false, label: t('analysis.board') });
let running = false;

els.position.value = text;

function draw(path) {
  renderBoard(dom, stillView(pos ? pos.board : null, path || []), t);
}

/** A score for White, as a reader says it: +0.38, White wins in 3. */
function scoreText(score) {
  const s = whiteScore(score, pos.turn === 'white');
  if (s.stones !== null) {
    const sign = s.stones > 0 ? '+' : s.stones < 0 ? '−' : '';
    return `${sign}${Math.abs(s.stones).toFixed(2)}`;
  }
  const color = t(`color.${s.winner}`);
  return s.turns === null ? t('analysis.wins', { color }) : t('analysis.winsIn', { color, count: s.turns });
}

function seconds(ms) {
  return (ms / 1000).toFixed(1);
}

function showLine(line) {
  const row = document.createElement('tr');
  for (const value of [String(line.depth), scoreText(line.score), line.pv.join(' ')]) {
    const cell = document.createElement('td');
    cell.textContent = value;
    row.append(cell);
  }
  els.lines.prepend(row);
  if (line.pv.length) showBest(line.pv[0]);
  els.status.textContent = t('analysis.searching', {
    depth: line.depth, nodes: line.nodes, seconds: seconds(line.ms),
  });
}

function showBest(turn) {
  els.best.textContent = turn || '';
  draw(turn ? turnPath(turn) : []);
}

function setRunning(on) {
  running = on;
  els.toggle.textContent = t(on ? 'analysis.stop' : 'analysis.again');
  els.status.dataset.state = on ? 'searching' : 'done';
}

async function search() {
  els.lines.replaceChildren();
  setRunning(true);
  els.status.textContent = t('analysis.loading');
  try {
    const answer = await engine.analyse(text, { nodes: nodes || OPEN_BUDGET }, showLine);
    if (answer.stopped) {
      els.status.textContent = t('analysis.stopped');
    } else if (answer.result) {
      els.status.textContent = t('analysis.over');
    } else {
      const last = answer.lines[answer.lines.length - 1];
      if (answer.best) showBest(answer.best);
      els.status.textContent = t('analysis.done', {
        depth: last ? last.depth : 0, nodes: answer.nodes, seconds: seconds(answer.ms),
      });
    }
    window.analysis = { nodes: answer.nodes, ms: answer.ms, best: answer.best, loaded: engine.loaded };
    els.best.dataset.done = 'true';
  } catch (error) {
    els.status.textContent = t('analysis.failed');
    fail(String(error && error.message || error));
  }
  setRunning(false);
}

function fail(detail) {
  els.error.textContent = t('analysis.bad', { detail });
  els.error.hidden = false;
}

els.toggle.addEventListener('click', () => {
  if (!running) {
    search();
    return;
  }
  engine.stop();
});

els.form.addEventListener('submit', (event) => {
  event.preventDefault();
  const next = els.position.value.trim();
  if (!parsePosition(next)) {
    fail(next);
    return;
  }
  const url = new URL(location.href);
  url.search = '';
  url.searchParams.set('position', next);
  const lang = params.get('lang');
  if (lang) url.searchParams.set('lang', lang);
  location.assign(url.href);
});

draw([]);
if (pos) {
  search();
} else {
  setRunning(false);
  els.toggle.disabled = true;
  fail(text);
}
