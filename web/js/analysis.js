// Entry of the analysis board (/analysis?position=TEXT[&nodes=N][&tables=0]):
// a board to play on by the game's rules (playboard.js, the rules in the
// page's own WebAssembly, rules.js), the turns played listed and taken
// back at will, the stones edited by hand, and the engine searching each
// position in a Web Worker (engine.js), each completed depth listed as it
// comes, the deepest first, and its best turn's first step marked on the
// board. With `nodes` each search stops after exactly that many nodes, so
// its answer is the one `fanorona analyse TEXT --nodes N` prints; without,
// it goes on until stopped or until a generous budget is spent. The
// position shown is kept in the address. Nothing is asked of the server
// but the files.

import { pageTranslator, keepPlace } from './i18n.js';
import { createBoard, renderBoard } from './render.js';
import { stillView } from './still.js';
import {
  START_POSITION, parsePosition, positionText, turnPath,
} from './position.js';
import { squareIndex } from './geometry.js';
import { Input } from './input.js';
import { Engine, whiteScore, signedStones } from './engine.js';
import { PlayBoard } from './playboard.js';
import { pageSteps, positionAfter } from './rules.js';
import { sayLine } from './lesson.js';

const t = pageTranslator(document);
keepPlace(document, location);

const $ = (id) => document.getElementById(id);
const els = {
  board: $('analysis-board'), choices: $('analysis-choices'), says: $('analysis-says'),
  end: $('analysis-end'), back: $('analysis-back'), edit: $('analysis-edit'),
  editor: $('analysis-editor'), editDone: $('analysis-edit-done'), clear: $('analysis-clear'),
  startPos: $('analysis-start'), played: $('analysis-played'),
  status: $('analysis-status'), best: $('analysis-best'),
  toggle: $('analysis-toggle'), lines: $('analysis-lines'), form: $('analysis-form'),
  position: $('analysis-position'), error: $('analysis-error'),
};

/** Nodes searched when the address sets none: about half a minute. */
const OPEN_BUDGET = 30_000_000;

const params = new URLSearchParams(location.search);
const asked = Number(params.get('nodes'));
const nodes = Number.isInteger(asked) && asked > 0 && asked <= 0xffffffff ? asked : 0;
// The endgame tables the worker builds: of up to 4 stones, as the command
// line's by default, unless the address says `tables=0` (none).
const engine = new Engine({ tables: params.get('tables') === '0' ? 0 : 4 });
/** The page's figures for tests and measures: the last search's answer. */
window.analysis = null;
// A mouse or a keyboard clicks where a finger taps.
const touch = matchMedia('(pointer: coarse)').matches;

const dom = createBoard(els.board, { label: t('analysis.board'), choices: els.choices });

/** The position on the board (text), and the ones before it with the turn that left each. */
let current = '';
/** @type {{position: string, turn: string}[]} */
const history = [];
let running = false;
/** The stones being edited and the side to move, while editing. */
let editing = null;

const play = new PlayBoard({ board: dom, end: els.end }, {
  t,
  rules: pageSteps,
  onRender: (state) => {
    const line = sayLine(state, null, touch);
    say(line.key ? t(line.key, line.params) : '', line.tone);
  },
  onTurn: (made) => { advance(made.notation); },
  onFailed: (error) => {
    const key = `error.${error.code}`;
    fail(error.code === 'bad_position' ? current : (t(key) === key ? t('error.unknown') : t(key)));
  },
  onInput: (event) => {
    if (!editing) return false;
    if (event.type === Input.Tap && event.square) toggleStone(event.square);
    return true;
  },
});

function say(text, tone) {
  if (els.says.textContent !== text) els.says.textContent = text;
  els.says.dataset.tone = tone;
}

/** The turn finished on the board: the position after it becomes the board's. */
async function advance(turn) {
  const from = current;
  const next = await positionAfter(from, turn);
  if (!next || from !== current) return;
  history.push({ position: from, turn });
  show(next);
}

/** Takes back the last turn played on the board. */
function takeBack() {
  const last = history.pop();
  if (last) show(last.position);
}

/** Shows `text` on the board to play from, in the address, and searches it. */
function show(text) {
  current = text;
  els.position.value = text;
  els.error.hidden = true;
  const url = new URL(location.href);
  url.searchParams.set('position', text);
  if (history.length) {
    url.searchParams.set('from', history[0].position);
    url.searchParams.set('played', history.map((h) => h.turn).join(' '));
  } else {
    url.searchParams.delete('from');
    url.searchParams.delete('played');
  }
  window.history.replaceState(null, '', url.href);
  listPlayed();
  play.open(text);
  search();
}

function listPlayed() {
  els.played.replaceChildren(...history.map((h) => {
    const item = document.createElement('li');
    item.className = 'notation';
    item.textContent = h.turn;
    return item;
  }));
  els.played.hidden = history.length === 0;
  els.back.disabled = history.length === 0 || Boolean(editing);
}

/** A score for White, as a reader says it: +0.38, White wins in 3. */
function scoreText(score, whiteToMove) {
  const s = whiteScore(score, whiteToMove);
  if (s.stones !== null) return signedStones(s.stones);
  const color = t(`color.${s.winner}`);
  return s.turns === null ? t('analysis.wins', { color }) : t('analysis.winsIn', { color, count: s.turns });
}

function seconds(ms) {
  return (ms / 1000).toFixed(1);
}

function showBest(turn) {
  els.best.textContent = turn || '';
  const path = turn ? turnPath(turn) : null;
  if (play.state) play.update({ ...play.state, hint: path ? { from: path[0], to: path[1] } : null });
}

function setRunning(on) {
  running = on;
  els.toggle.textContent = t(on ? 'analysis.stop' : 'analysis.again');
  els.status.dataset.state = on ? 'searching' : 'done';
}

async function search() {
  const text = current;
  const pos = parsePosition(text);
  const whiteToMove = Boolean(pos) && pos.turn === 'white';
  els.lines.replaceChildren();
  els.best.textContent = '';
  els.best.dataset.done = 'false';
  setRunning(true);
  els.status.textContent = t('analysis.loading');
  const showLine = (line) => {
    const row = document.createElement('tr');
    for (const value of [String(line.depth), scoreText(line.score, whiteToMove), line.pv.join(' ')]) {
      const cell = document.createElement('td');
      cell.textContent = value;
      row.append(cell);
    }
    els.lines.prepend(row);
    if (line.pv.length) showBest(line.pv[0]);
    els.status.textContent = t('analysis.searching', {
      depth: line.depth, nodes: line.nodes, seconds: seconds(line.ms),
    });
  };
  try {
    const answer = await engine.analyse(text, { nodes: nodes || OPEN_BUDGET }, showLine);
    // A search for a position since left ends as stopped; the new one reports.
    if (text !== current) return;
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
    window.analysis = { nodes: answer.nodes, ms: answer.ms, best: answer.best, loaded: engine.loaded, position: text };
    els.best.dataset.done = 'true';
  } catch (error) {
    if (text !== current) return;
    els.status.textContent = t('analysis.failed');
    fail(String(error && error.message || error));
  }
  setRunning(false);
}

function fail(detail) {
  els.error.textContent = t('analysis.bad', { detail });
  els.error.hidden = false;
}

// Editing: a tap on a point turns it from empty to White, to Black, to
// empty again; the side to move is chosen beside the board. Done plays on
// from the position made, once the rules accept it.

function startEditing() {
  const pos = parsePosition(current) || parsePosition(START_POSITION);
  editing = { board: [...pos.board], turn: pos.turn };
  engine.stop();
  els.lines.replaceChildren();
  els.best.textContent = '';
  els.status.textContent = '';
  play.paused = true;
  els.end.hidden = true;
  els.editor.hidden = false;
  els.edit.setAttribute('aria-pressed', 'true');
  document.querySelector(`input[name="analysis-turn"][value="${editing.turn}"]`).checked = true;
  listPlayed();
  drawEditing();
  say(t('analysis.editHow'), '');
}

/** Back to playing: the board plays again from what `show` gives it. */
function stopEditing() {
  editing = null;
  play.paused = false;
  els.editor.hidden = true;
  els.edit.setAttribute('aria-pressed', 'false');
}

function drawEditing() {
  renderBoard(dom, stillView(editing.board), t);
}

function toggleStone(square) {
  const i = squareIndex(square);
  if (i < 0) return;
  const cycle = { null: 'W', W: 'B', B: null };
  editing.board[i] = cycle[editing.board[i]];
  drawEditing();
}

async function finishEditing() {
  const turn = document.querySelector('input[name="analysis-turn"]:checked').value;
  const text = positionText({ board: editing.board, turn, quiet: 0 });
  const { ok, body } = await pageSteps(text, '');
  if (!ok) {
    say(t('analysis.bad', { detail: body && body.message ? body.message : text }), 'wrong');
    return;
  }
  stopEditing();
  if (text !== current) history.length = 0;
  show(text);
}

els.edit.addEventListener('click', () => (editing ? finishEditing() : startEditing()));
els.editDone.addEventListener('click', () => finishEditing());
els.clear.addEventListener('click', () => {
  editing.board.fill(null);
  drawEditing();
});
els.startPos.addEventListener('click', () => {
  editing.board = [...parsePosition(START_POSITION).board];
  drawEditing();
});
els.back.addEventListener('click', takeBack);

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
  history.length = 0;
  if (editing) stopEditing();
  show(next);
});

/** The turns the address says were played to reach the position, replayed from `start`. */
async function replayPlayed(start, turns) {
  let at = start;
  for (const turn of turns) {
    const next = await positionAfter(at, turn);
    if (!next) break;
    history.push({ position: at, turn });
    at = next;
  }
  return at;
}

async function open() {
  const text = (params.get('position') || '').trim() || START_POSITION;
  if (!parsePosition(text)) {
    current = text;
    els.position.value = text;
    renderBoard(dom, stillView(null), t);
    setRunning(false);
    els.toggle.disabled = true;
    els.edit.disabled = true;
    fail(text);
    return;
  }
  // An address written by the board itself: the position and the turns
  // played to it, so that a reload keeps what can be taken back.
  const played = (params.get('played') || '').split(/\s+/).filter(Boolean);
  if (played.length) {
    const first = params.get('from');
    if (first && parsePosition(first)) {
      const at = await replayPlayed(first, played);
      if (at === text) {
        show(text);
        return;
      }
      history.length = 0;
    }
  }
  show(text);
}

open();
