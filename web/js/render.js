// Draws the board as SVG, its elements created once: a render changes
// attributes and classes only (cheap, and focus stays). It reads the view
// and changes no state.

import {
  SQUARES, WIDTH, HEIGHT, SPACING, RANKS, FILES, isStrong, segments, toSvg, squareName, nearestFirst,
} from './geometry.js';
import { el, setAttrs, toggle, polyline, arrows } from './svg.js';
import { stoneAt } from './position.js';

/** @typedef {import('./types.js').Translate} Translate */

const STONE_R = 31;
// Room around the outer points, so that stones, their marks and the focus
// ring stay inside the board's edge.
const PAD = 16;
const BG = { x: 3 - PAD, y: 3 - PAD, width: WIDTH + 2 * PAD - 6, height: HEIGHT + 2 * PAD - 6, rx: 30 };

/** @typedef {import('./types.js').BoardDom} BoardDom */

/**
 * Creates the board's SVG inside a container; with `choices` (an element
 * near it), two buttons there name the lines a step can take. The
 * margins carry the coordinates unless told not to.
 * @param {Element} container
 * @param {{interactive?: boolean, label?: string, coordinates?: boolean, choices?: Element}} [options]
 * @returns {BoardDom}
 */
export function createBoard(container, options = {}) {
  const interactive = options.interactive !== false;
  const svg = el('svg', {
    viewBox: `${-PAD} ${-PAD} ${WIDTH + 2 * PAD} ${HEIGHT + 2 * PAD}`,
    class: `board${interactive ? ' interactive' : ''}`,
    role: interactive ? 'group' : 'img',
    'aria-label': options.label || null,
    preserveAspectRatio: 'xMidYMid meet',
  });
  el('rect', { class: 'board-bg', ...BG }, svg);
  // The last turn's points are tinted under the lines, as a square is.
  const spots = el('g', { class: 'spots', 'aria-hidden': 'true' }, svg);
  const lines = segments().map(([a, b]) => [toSvg(a), toSvg(b)]);
  el('path', { class: 'lines', d: lines.map((seg) => polyline(seg)).join('') }, svg);
  const coords = el('g', { class: 'coords', 'aria-hidden': 'true' }, svg);
  const nodes = el('g', { class: 'nodes' }, svg);
  const trail = el('g', { class: 'trail', 'aria-hidden': 'true' }, svg);
  const choice = el('g', { class: 'choice-lines', 'aria-hidden': 'true' }, svg);
  const layer = el('g', { class: 'points' }, svg);
  const drag = el('g', { class: 'drag', 'aria-hidden': 'true' }, svg);
  const dom = {
    svg, interactive, points: new Map(), bottom: null, last: null,
    coords, trail, choice, drag, dragStone: null, showCoords: options.coordinates !== false,
    trailLines: el('path', { class: 'arrow-lines' }, trail),
    trailHeads: el('path', { class: 'arrow-heads' }, trail),
    choices: options.choices || null,
  };
  for (const sq of SQUARES) {
    const node = el('circle', { class: isStrong(sq) ? 'node strong' : 'node', r: isStrong(sq) ? 7 : 4.5 }, nodes);
    const spot = el('circle', { class: 'spot', r: 42 }, spots);
    const g = el('g', { class: 'pt', 'data-sq': sq }, layer);
    if (interactive) setAttrs(g, { role: 'button', tabindex: -1 });
    const hit = el('rect', { class: 'hit', width: SPACING, height: SPACING }, g);
    const target = el('circle', { class: 'target', r: 15 }, g);
    const stone = drawStone(g, {});
    el('path', { class: 'cross', d: CROSS }, g);
    const focus = el('circle', { class: 'focus', r: STONE_R + 12 }, g);
    dom.points.set(sq, { g, node, spot, hit, target, stone, focus });
  }
  dom.dragStone = drawStone(drag, { class: 'stone dragging', visibility: 'hidden' });
  container.appendChild(svg);
  if (dom.choices) {
    dom.choiceButtons = [0, 1].map((i) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = `button quiet-button take take-${'ab'[i]}`;
      dom.choices.append(b);
      return b;
    });
  }
  return dom;
}

// A stone: its ring of marks (movable, selected), its body and its face.
function drawStone(parent, attrs) {
  const g = el('g', { class: 'stone', ...attrs }, parent);
  el('circle', { class: 'halo', r: STONE_R + 8 }, g);
  el('circle', { class: 'body', r: STONE_R }, g);
  el('circle', { class: 'ring', r: STONE_R * 0.52 }, g);
  return g;
}

// An X whose arms are 6 wide, for the stones a step would take: a shape,
// not a colour alone, edged so that it shows on both colours of stone.
const CROSS = 'M-16-12-12-16 0-4 12-16 16-12 4 0 16 12 12 16 0 4-12 16-16 12-4 0Z';

function place(dom, bottom) {
  if (dom.bottom === bottom) return;
  dom.bottom = bottom;
  for (const [sq, p] of dom.points) {
    const { x, y } = toSvg(sq, bottom);
    setAttrs(p.g, { transform: `translate(${x} ${y})` });
    setAttrs(p.node, { cx: x, cy: y });
    setAttrs(p.spot, { cx: x, cy: y });
    setAttrs(p.hit, { x: -SPACING / 2, y: -SPACING / 2 });
  }
  dom.coords.replaceChildren();
  if (!dom.showCoords) return;
  // Under each column and left of each row, centred.
  const centred = { 'text-anchor': 'middle', 'dominant-baseline': 'central', class: 'coord' };
  for (let f = 0; f < FILES; f++) {
    const { x } = toSvg(squareName(f, 0), bottom);
    el('text', { x, y: HEIGHT - 3, ...centred }, dom.coords).textContent = 'abcdefghi'[f];
  }
  for (let r = 0; r < RANKS; r++) {
    const { y } = toSvg(squareName(0, r), bottom);
    el('text', { x: 0, y, ...centred }, dom.coords).textContent = String(r + 1);
  }
}

/**
 * Labels of a point for screen readers, built from the view.
 * @param {string} sq
 * @param {object} view from boardView
 * @param {Translate} t
 */
export function pointLabel(sq, view, t) {
  const stone = view.board ? stoneAt(view.board, sq) : null;
  const base = stone === 'W' ? 'point.white' : stone === 'B' ? 'point.black' : 'point.empty';
  const parts = [t(base, { square: sq })];
  if (view.selected === sq) parts.push(t('point.selected'));
  else if (view.movable.includes(sq)) parts.push(t('point.movable'));
  const target = view.targets.get(sq);
  if (target) {
    if (target.length > 1) parts.push(t('point.targetBoth'));
    else if (target[0] === 0) parts.push(t('point.targetQuiet'));
    else parts.push(t('point.target', { count: target[0] }));
  }
  if (view.threatened.has(sq)) parts.push(t('point.captured'));
  if (view.chain && view.path.includes(sq) && view.selected !== sq) parts.push(t('point.visited'));
  if (view.hintFrom === sq) parts.push(t('point.hintFrom'));
  if (view.hintTo === sq) parts.push(t('point.hintTo'));
  return parts.join(', ');
}

/**
 * The buttons that take one line or the other while the player chooses,
 * each named by its line's stone nearest the step: "Take f3 · approach".
 * @param {object} view from boardView
 * @param {Translate} t
 * @returns {Array<{square: string, text: string}>} none when nothing is asked
 */
export function choiceButtons(view, t) {
  if (!view.choice) return [];
  return view.choice.map((line, i) => {
    const square = nearestFirst(line, view.choiceTo)[0];
    return { square, text: t(`board.take.${view.choiceKinds[i]}`, { square }) };
  });
}

/**
 * Brings the drawing up to date with a view.
 * @param {BoardDom} dom
 * @param {object} view from boardView
 * @param {Translate} [t] needed for interactive boards
 */
export function renderBoard(dom, view, t) {
  place(dom, view.bottom);
  const before = dom.last;
  const board = view.board || [];
  const moved = before && view.board ? findMove(before, view.board) : null;
  const captured = view.captured || [];
  const path = view.path || [];
  const fading = before && view.board ? fadeOrder(before, board, path) : [];
  const choiceStones = new Map();
  (view.choice || []).forEach((line, i) => line.forEach((sq) => choiceStones.set(sq, i)));
  for (const [sq, p] of dom.points) {
    const stone = stoneAt(board, sq);
    if (stone) {
      toggle(p.stone, 'white', stone === 'W');
      toggle(p.stone, 'black', stone === 'B');
    }
    const n = fading.indexOf(sq);
    p.g.style.setProperty('--delay', n < 0 ? '' : `${100 + n * 50}ms`);
    toggle(p.stone, 'instant', moved?.from === sq);
    toggle(p.stone, 'gone', !stone);
    toggle(p.spot, 'from', path.length > 1 && path[0] === sq);
    toggle(p.spot, 'to', path.indexOf(sq) > 0);
    toggle(p.g, 'movable', view.movable.includes(sq));
    toggle(p.g, 'selected', view.selected === sq);
    toggle(p.g, 'threatened', view.threatened.has(sq));
    toggle(p.g, 'preview', view.preview.has(sq));
    toggle(p.g, 'choice', choiceStones.has(sq));
    toggle(p.g, 'choice-b', choiceStones.get(sq) === 1);
    toggle(p.g, 'taken', !stone && captured.includes(sq));
    toggle(p.g, 'hint-from', view.hintFrom === sq);
    toggle(p.g, 'hint-to', view.hintTo === sq);
    const target = view.targets.get(sq);
    toggle(p.g, 'is-target', Boolean(target));
    toggle(p.g, 'capture-target', Boolean(target && target.some((k) => k > 0)));
    if (dom.interactive && t) setAttrs(p.g, { 'aria-label': pointLabel(sq, view, t) });
  }
  toggle(dom.svg, 'choosing', Boolean(view.choice));
  drawTrail(dom, view);
  drawChoice(dom, view);
  if (dom.choices && t) {
    const buttons = choiceButtons(view, t);
    dom.choices.hidden = !buttons.length;
    buttons.forEach((b, i) => {
      const button = dom.choiceButtons[i];
      button.dataset.take = b.square;
      if (button.textContent !== b.text) button.textContent = b.text;
    });
  }
  if (moved) slide(dom.points.get(moved.to).stone, moved, view.bottom);
  dom.last = view.board ? view.board.slice() : null;
}

/**
 * The stones that went between two boards, in the order they fade out:
 * nearest to the stone that took them first.
 * @param {import('./types.js').Board} before
 * @param {import('./types.js').Board} after
 * @param {string[]} path the turn's points; its last is where the capturing stone stands
 * @returns {string[]}
 */
export function fadeOrder(before, after, path) {
  const moved = findMove(before, after);
  const end = moved ? moved.to : path[path.length - 1];
  return end ? nearestFirst(SQUARES.filter((sq, i) => before[i] && !after[i] && sq !== moved?.from), end) : [];
}

// Which single stone moved between two boards, if exactly one did.
function findMove(before, after) {
  const gained = SQUARES.filter((_, i) => !before[i] && after[i]);
  if (gained.length !== 1) return null;
  const to = gained[0];
  const color = after[SQUARES.indexOf(to)];
  const lost = SQUARES.filter((_, i) => before[i] === color && !after[i]);
  return lost.length === 1 ? { from: lost[0], to } : null;
}

function slide(stoneEl, moved, bottom) {
  const a = toSvg(moved.from, bottom);
  const b = toSvg(moved.to, bottom);
  stoneEl.style.transition = 'none';
  stoneEl.style.transform = `translate(${a.x - b.x}px, ${a.y - b.y}px)`;
  stoneEl.getBoundingClientRect();
  stoneEl.style.transition = '';
  stoneEl.style.transform = '';
}

// The turn's path: an arrow a step, its head short of where it lands;
// bolder while the player's own turn goes on.
function drawTrail(dom, view) {
  const { lines, heads } = arrows((view.path || []).map((sq) => toSvg(sq, view.bottom)), STONE_R + 4);
  setAttrs(dom.trailLines, { d: lines || null });
  setAttrs(dom.trailHeads, { d: heads || null });
  toggle(dom.trail, 'live', Boolean(view.chain));
}

function drawChoice(dom, view) {
  dom.choice.replaceChildren();
  if (!view.choice) return;
  // Everything under the two lines steps back.
  el('rect', { class: 'dim', ...BG }, dom.choice);
  view.choice.forEach((line, i) => {
    const pts = line.map((sq) => toSvg(sq, view.bottom));
    if (pts.length === 1) pts.push(pts[0]);
    el('path', { class: `choice-line${i ? ' b' : ''}`, d: polyline([pts[0], pts[pts.length - 1]]) }, dom.choice);
  });
  if (view.choiceTo && view.selected) {
    const { x, y } = toSvg(view.choiceTo, view.bottom);
    const color = stoneAt(view.board, view.selected) === 'B' ? 'black' : 'white';
    drawStone(dom.choice, { class: `stone ${color} landing`, transform: `translate(${x} ${y})` });
  }
}

/**
 * Shows the stone being dragged at a point of the drawing, or hides it.
 * @param {BoardDom} dom
 * @param {{x: number, y: number, color: 'W'|'B'} | null} drag
 */
export function renderDrag(dom, drag) {
  const s = dom.dragStone;
  if (!drag) {
    setAttrs(s, { visibility: 'hidden' });
    return;
  }
  toggle(s, 'white', drag.color === 'W');
  toggle(s, 'black', drag.color === 'B');
  setAttrs(s, { visibility: null, transform: `translate(${drag.x} ${drag.y})` });
}

/**
 * Makes a redraw function that runs at most once per animation frame,
 * however often it is asked for.
 * @param {() => void} draw
 * @param {(cb: FrameRequestCallback) => number} [raf]
 * @returns {() => void} request a redraw
 */
export function createScheduler(draw, raf = (cb) => requestAnimationFrame(cb)) {
  let queued = false;
  return function request() {
    if (queued) return;
    queued = true;
    raf(() => {
      queued = false;
      draw();
    });
  };
}
