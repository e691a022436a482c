// Entry of the page that opens a game record: the record, pasted or read
// from a file, is sent to the server, which replays it by the rules
// (POST /api/records, docs/API.md); the page then steps through its turns
// on the board. The page holds no rules of its own.

import { pageTranslator, keepPlace } from './i18n.js';
import { createBoard, renderBoard } from './render.js';
import { stillView } from './still.js';
import { parsePosition } from './position.js';

const t = pageTranslator(document);
keepPlace(document, location);

const $ = (id) => document.getElementById(id);
const els = {
  form: $('open-record'), text: $('record-text'), file: $('record-file'), error: $('record-error'),
  replay: $('replay'), players: $('replay-players'), board: $('replay-board'), where: $('replay-where'),
  first: $('replay-first'), back: $('replay-back'), next: $('replay-next'), last: $('replay-last'),
  moves: $('replay-moves'), review: $('replay-review'),
};

/** The record being shown: the server's answer, and the turn shown (0: the start). */
let shown = null;
let at = 0;
let dom = null;

function fail(message) {
  els.error.textContent = message;
  els.error.hidden = false;
}

async function open(text) {
  els.error.hidden = true;
  if (!text.trim()) {
    fail(t('replay.empty'));
    return;
  }
  let res;
  try {
    res = await fetch('/api/records', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ record: text }),
    });
  } catch {
    fail(t('replay.offline'));
    return;
  }
  const answer = await res.json().catch(() => null);
  if (!res.ok || !answer || !Array.isArray(answer.turns)) {
    const code = answer && typeof answer.code === 'string' ? answer.code : '';
    const known = code === 'bad_record' || code === 'too_large';
    fail(known ? t(`replay.${code}`, { detail: answer.message || '' }) : t('replay.failed'));
    return;
  }
  shown = answer;
  showGame();
  go(shown.turns.length);
  els.replay.hidden = false;
  els.replay.scrollIntoView({ block: 'start' });
}

function tag(name) {
  const found = shown.tags.find(([n]) => n === name);
  return found ? found[1] : null;
}

function showGame() {
  const parts = [];
  for (const [name, key] of [['White', 'color.white'], ['Black', 'color.black']]) {
    const who = tag(name);
    if (who) parts.push(`${t(key)}: ${who}`);
  }
  const score = {
    '1-0': () => t('result.win', { color: t('color.white') }),
    '0-1': () => t('result.win', { color: t('color.black') }),
    '1/2-1/2': () => t('result.draw'),
    '*': () => t('replay.unfinished'),
  }[shown.result];
  if (score) parts.push(score());
  els.players.textContent = parts.join(' · ');
  els.moves.replaceChildren(...shown.turns.map((turn, i) => {
    const li = document.createElement('li');
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'move';
    button.textContent = turn.notation;
    button.addEventListener('click', () => go(i + 1));
    li.append(button);
    return li;
  }));
  if (!dom) dom = createBoard(els.board, { interactive: false });
}

/** Shows the position after turn `n` (0: the start). */
function go(n) {
  const total = shown.turns.length;
  at = Math.max(0, Math.min(total, n));
  const turn = at > 0 ? shown.turns[at - 1] : null;
  const pos = parsePosition(turn ? turn.position : shown.start_position);
  dom.svg.setAttribute('aria-label', t('replay.board', { turn: at, total }));
  renderBoard(dom, stillView(pos ? pos.board : null, turn ? turn.path : [], turn ? turn.captured : []), t);
  els.where.textContent = turn
    ? t('replay.after', { turn: at, total, notation: turn.notation })
    : t('replay.start', { count: total });
  els.first.disabled = els.back.disabled = at === 0;
  els.next.disabled = els.last.disabled = at === total;
  // The review of the game, at the turn shown.
  const query = new URLSearchParams({ start: shown.start_position, turns: shown.turns.map((x) => x.notation).join(' '), at });
  els.review.href = `/review?${query}`;
  els.review.hidden = total === 0;
  els.moves.querySelectorAll('button.move').forEach((b, i) => {
    const current = i + 1 === at;
    b.classList.toggle('current', current);
    if (current) b.setAttribute('aria-current', 'step');
    else b.removeAttribute('aria-current');
  });
}

els.form.addEventListener('submit', (e) => {
  e.preventDefault();
  open(els.text.value);
});

els.file.addEventListener('change', async () => {
  const file = els.file.files && els.file.files[0];
  if (!file) return;
  const text = await file.text().catch(() => '');
  els.text.value = text;
  open(text);
});

els.first.addEventListener('click', () => go(0));
els.back.addEventListener('click', () => go(at - 1));
els.next.addEventListener('click', () => go(at + 1));
els.last.addEventListener('click', () => go(Infinity));

// The arrows step through the game, Home and End go to its ends, unless
// the reader is typing a record.
document.addEventListener('keydown', (e) => {
  if (!shown || els.replay.hidden || e.altKey || e.ctrlKey || e.metaKey) return;
  if (e.target instanceof HTMLTextAreaElement || e.target instanceof HTMLInputElement) return;
  const moves = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: Infinity };
  if (!(e.key in moves)) return;
  e.preventDefault();
  go(moves[e.key]);
});
