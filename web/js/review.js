// Entry of the review page (/review?start=TEXT&turns=T1+T2[&at=K][&nodes=N]):
// the game's positions replayed by the rules in the page (rules.js), then
// each scored by the engine in its worker (engine.js), a position at a
// time, as `fanorona analyse TEXT --nodes N` scores it; the score drawn as
// a graph for White, each turn's cost to the side that played it, and the
// costly turns marked with the engine's better turn drawn on the board.
// The turn shown is in the address (`at`, 1 for the first turn), so a
// review can be shared. Nothing is asked of the server but the files.

import { pageTranslator, keepPlace } from './i18n.js';
import { createBoard, renderBoard } from './render.js';
import { stillView } from './still.js';
import { parsePosition, turnPath } from './position.js';
import { el, setAttrs } from './svg.js';
import { Engine, signedStones } from './engine.js';
import { pageSteps, positionAfter } from './rules.js';
import {
  readReviewParams, whiteStones, turnCosts, graphPoints, THRESHOLDS, WIN_STONES,
} from './review-core.js';

const t = pageTranslator(document);
keepPlace(document, location);

const $ = (id) => document.getElementById(id);
const els = {
  error: $('review-error'), board: $('review-board'), where: $('review-where'),
  first: $('review-first'), back: $('review-back'), next: $('review-next'), last: $('review-last'),
  analyse: $('review-analyse'), status: $('review-status'), toggle: $('review-toggle'),
  graph: $('review-graph'), turns: $('review-turns'), host: $('review'),
};

const asked = readReviewParams(new URLSearchParams(location.search));
const engine = new Engine({ tables: 4 });
const dom = createBoard(els.board, { interactive: false, label: t('review.board') });

/** The game: its positions (text), the side to move and the result in each, the turns. */
const game = { positions: [], movers: [], winners: [], turns: [] };
/** Each position's score as the engine gave it: {white, best, pv}, in order. */
const scored = [];
let at = asked.at;
let running = false;
/** What each turn took, asked of the rules once: `${ply} ${turn}` to squares. */
const takes = new Map();

// ---- the graph ---------------------------------------------------------

// The plot inside a margin, so that the marks at its edges show whole.
const SIZE = { width: 584, height: 144, range: 5 };
const PAD = 8;
const svg = el('svg', {
  viewBox: `0 0 ${SIZE.width + 2 * PAD} ${SIZE.height + 2 * PAD}`, role: 'img', 'aria-label': t('review.graph'),
}, els.graph);
el('rect', { class: 'frame', x: 0, y: 0, width: SIZE.width + 2 * PAD, height: SIZE.height + 2 * PAD }, svg);
const plot = el('g', { transform: `translate(${PAD} ${PAD})` }, svg);
el('line', { class: 'zero', x1: 0, x2: SIZE.width, y1: SIZE.height / 2, y2: SIZE.height / 2 }, plot);
const line = el('polyline', { class: 'line', points: '' }, plot);
const now = el('line', { class: 'now', y1: 0, y2: SIZE.height }, plot);
const marks = el('g', {}, plot);

function drawGraph(costs) {
  const points = graphPoints(scored.map((s) => s.white), game.positions.length, SIZE);
  setAttrs(line, { points: points.map((p) => `${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(' ') });
  marks.replaceChildren();
  costs.forEach((c, i) => {
    if (c.mark) el('circle', { class: `mark ${c.mark}`, cx: points[i + 1].x, cy: points[i + 1].y, r: 5 }, marks);
  });
  const x = game.positions.length > 1 ? (Math.max(at, 0) * SIZE.width) / (game.positions.length - 1) : 0;
  setAttrs(now, { x1: x, x2: x });
}

svg.addEventListener('click', (e) => {
  const box = svg.getBoundingClientRect();
  if (!box.width || game.positions.length < 2) return;
  const x = ((e.clientX - box.left) / box.width) * (SIZE.width + 2 * PAD) - PAD;
  go(Math.round((x / SIZE.width) * (game.positions.length - 1)));
});

// ---- the turns and the board -------------------------------------------

const SYMBOL = Object.fromEntries(THRESHOLDS.map((th) => [th.mark, th.symbol]));

function drawTurns(costs) {
  els.turns.replaceChildren(...game.turns.map((turn, i) => {
    const item = document.createElement('li');
    const button = document.createElement('button');
    button.type = 'button';
    button.dataset.at = String(i + 1);
    const cost = costs[i];
    if (cost && cost.mark) {
      item.className = cost.mark;
      button.dataset.mark = cost.mark;
    }
    button.append(turn);
    if (cost && cost.mark) {
      const symbol = document.createElement('span');
      symbol.className = 'symbol';
      symbol.textContent = SYMBOL[cost.mark];
      button.append(symbol);
      button.setAttribute('aria-label', `${turn}, ${t(`review.mark.${cost.mark}`)}`);
    }
    if (i + 1 === at) button.setAttribute('aria-current', 'step');
    item.append(button);
    return item;
  }));
}

function stonesText(stones) {
  if (Math.abs(stones) >= WIN_STONES) return t(stones > 0 ? 'review.whiteWins' : 'review.blackWins');
  return signedStones(stones);
}

/** What the rules say `turn` takes from position `ply`. */
async function taken(ply, turn) {
  const key = `${ply} ${turn}`;
  if (!takes.has(key)) {
    const { ok, body } = await pageSteps(game.positions[ply], turn);
    const done = ok && body ? body.last_turn || body.turn : null;
    takes.set(key, done ? done.captured : []);
  }
  return takes.get(key);
}

/** Shows turn `at` (the position before it, with the turn drawn), or the start for 0. */
async function drawAt() {
  const costs = turnCosts(scored.map((s) => s.white), game.turns, scored.map((s) => s.best), game.movers);
  drawGraph(costs);
  drawTurns(costs);
  const ply = Math.max(0, at - 1);
  const pos = parsePosition(game.positions[ply]);
  els.analyse.href = `/analysis?position=${encodeURIComponent(game.positions[ply])}`;
  els.host.dataset.position = game.positions[ply];
  els.first.disabled = els.back.disabled = at === 0;
  els.next.disabled = els.last.disabled = at >= game.turns.length;
  if (at === 0) {
    renderBoard(dom, stillView(pos.board), t);
    els.where.textContent = t('review.start', { count: game.turns.length });
    return;
  }
  const turn = game.turns[at - 1];
  const cost = costs[at - 1];
  const better = cost && cost.mark ? scored[ply].best : null;
  const drawn = better || turn;
  const shownAt = at;
  const captured = await taken(ply, drawn);
  if (shownAt !== at) return;
  const view = stillView(pos.board, turnPath(drawn) || []);
  view.threatened = new Set(captured);
  renderBoard(dom, view, t);
  const color = t(`color.${game.movers[ply]}`);
  const parts = [t('review.played', { number: at, color, turn })];
  if (cost) {
    parts.push(cost.mark
      ? t(`review.cost.${cost.mark}`, { stones: cost.cost.toFixed(2) })
      : t('review.fine', { score: stonesText(scored[at].white) }));
  }
  if (better) {
    const pv = scored[ply].pv.slice(1).join(' ');
    parts.push(pv ? t('review.betterLine', { turn: better, line: pv }) : t('review.better', { turn: better }));
  }
  els.where.textContent = parts.join(' ');
  els.host.dataset.shown = drawn;
}

/** Goes to turn `k` (0 for the start), keeping it in the address. */
function go(k) {
  at = Math.max(0, Math.min(game.turns.length, k));
  const url = new URL(location.href);
  if (at) url.searchParams.set('at', String(at));
  else url.searchParams.delete('at');
  window.history.replaceState(null, '', url.href);
  drawAt();
}

els.first.addEventListener('click', () => go(0));
els.back.addEventListener('click', () => go(at - 1));
els.next.addEventListener('click', () => go(at + 1));
els.last.addEventListener('click', () => go(game.turns.length));
els.turns.addEventListener('click', (e) => {
  const b = e.target.closest('button[data-at]');
  if (b) go(Number(b.dataset.at));
});
document.addEventListener('keydown', (e) => {
  if (e.target.closest && e.target.closest('input, textarea, select')) return;
  const moves = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: game.turns.length };
  if (!(e.key in moves) || e.altKey || e.ctrlKey || e.metaKey) return;
  e.preventDefault();
  go(moves[e.key]);
});

// ---- the scoring -------------------------------------------------------

function setRunning(on) {
  running = on;
  els.toggle.textContent = t(on ? 'review.stop' : 'review.resume');
  els.toggle.hidden = scored.length === game.positions.length;
  els.status.dataset.state = on ? 'scoring' : scored.length === game.positions.length ? 'done' : 'stopped';
}

/** Scores the positions not yet scored, in order, until done or stopped. */
async function score() {
  setRunning(true);
  while (running && scored.length < game.positions.length) {
    const i = scored.length;
    els.status.textContent = t('review.scoring', { done: i, total: game.positions.length });
    const whiteToMove = game.movers[i] === 'white';
    if (game.winners[i] !== undefined) {
      scored.push({ white: whiteStones({ score: null, winner: game.winners[i] }), best: null, pv: [] });
    } else {
      let answer;
      try {
        answer = await engine.analyse(game.positions[i], { nodes: asked.nodes });
      } catch (error) {
        fail(String(error && error.message || error));
        setRunning(false);
        return;
      }
      if (answer.stopped) break;
      const last = answer.lines[answer.lines.length - 1];
      scored.push({
        white: whiteStones({ score: last ? last.score : { kind: 'cp', value: 0 }, whiteToMove }),
        best: answer.best,
        pv: last ? last.pv : [],
      });
    }
    drawAt();
  }
  const done = scored.length === game.positions.length;
  els.status.textContent = done
    ? t('review.done', { total: game.positions.length, nodes: asked.nodes })
    : t('review.stopped', { done: scored.length, total: game.positions.length });
  setRunning(false);
  window.review = {
    done, white: scored.map((s) => s.white), best: scored.map((s) => s.best),
  };
}

els.toggle.addEventListener('click', () => {
  if (running) {
    running = false;
    engine.stop();
  } else {
    score();
  }
});

function fail(detail) {
  els.error.textContent = t('review.bad', { detail });
  els.error.hidden = false;
}

/** Replays the turns of the address by the rules: the positions, each side to move and any result. */
async function open() {
  if (!parsePosition(asked.start) || !asked.turns.length) {
    fail(asked.start || '—');
    els.host.hidden = true;
    return;
  }
  let text = asked.start;
  for (let i = 0; i <= asked.turns.length; i++) {
    const { ok, body } = await pageSteps(text, '');
    if (!ok || !body) {
      fail(body && body.message ? body.message : text);
      els.host.hidden = true;
      return;
    }
    game.positions.push(text);
    game.movers.push(body.side_to_move);
    if (body.result) game.winners[i] = body.result.winner;
    if (i === asked.turns.length || body.result) break;
    const next = await positionAfter(text, asked.turns[i]);
    if (!next) {
      fail(t('review.illegal', { number: i + 1, turn: asked.turns[i] }));
      break;
    }
    game.turns.push(asked.turns[i]);
    text = next;
  }
  if (!game.turns.length) {
    els.host.hidden = true;
    return;
  }
  at = Math.min(at, game.turns.length);
  drawAt();
  score();
}

open();
