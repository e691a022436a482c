// Draws the board as SVG. The elements are created once; each render only
// changes attributes and classes, so the board stays cheap to redraw and
// focus stays where it is. Render reads the view; it never changes state.

import {
  SQUARES, WIDTH, HEIGHT, SPACING, RANKS, FILES, isStrong, segments, toSvg, squareName,
} from './geometry.js';
import { el, setAttrs, toggle, polyline } from './svg.js';
import { stoneAt } from './position.js';

const STONE_R = 31;
// Room around the outer points, so that stones, their marks and the focus
// ring stay inside the board's edge.
const PAD = 16;

/**
 * The drawn board: the SVG root and, per point, its elements.
 * @typedef {object} BoardDom
 * @property {SVGSVGElement} svg
 * @property {Map<string, object>} points
 * @property {string} bottom the orientation last drawn
 * @property {Array<'W'|'B'|null>|null} last the board last drawn
 */

/**
 * Creates the board's SVG inside a container.
 * @param {Element} container
 * @param {{interactive?: boolean, label?: string, coordinates?: boolean}} [options]
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
  el('rect', {
    class: 'board-bg', x: 3 - PAD, y: 3 - PAD, width: WIDTH + 2 * PAD - 6, height: HEIGHT + 2 * PAD - 6, rx: 30,
  }, svg);
  const lines = segments().map(([a, b]) => [toSvg(a), toSvg(b)]);
  el('path', { class: 'lines', d: lines.map((seg) => polyline(seg)).join('') }, svg);
  const coords = el('g', { class: 'coords', 'aria-hidden': 'true' }, svg);
  const nodes = el('g', { class: 'nodes' }, svg);
  const trail = el('g', { class: 'trail', 'aria-hidden': 'true' }, svg);
  const choice = el('g', { class: 'choice-lines', 'aria-hidden': 'true' }, svg);
  const layer = el('g', { class: 'points' }, svg);
  // A target's count is drawn over its point but outside it: the point's
  // label says it in words, and a control's visible text must be part of
  // its name.
  const badges = el('g', { class: 'badges', 'aria-hidden': 'true' }, svg);
  const drag = el('g', { class: 'drag', 'aria-hidden': 'true' }, svg);
  const dom = {
    svg, interactive, points: new Map(), bottom: null, last: null,
    coords, trail, choice, drag, dragStone: null, showCoords: options.coordinates !== false,
  };
  for (const sq of SQUARES) {
    const node = el('circle', { class: isStrong(sq) ? 'node strong' : 'node', r: isStrong(sq) ? 7 : 4.5 }, nodes);
    const g = el('g', { class: 'pt', 'data-sq': sq }, layer);
    if (interactive) setAttrs(g, { role: 'button', tabindex: -1 });
    const hit = el('rect', { class: 'hit', width: SPACING, height: SPACING }, g);
    const target = el('circle', { class: 'target', r: 15 }, g);
    const stone = el('g', { class: 'stone' }, g);
    const body = el('circle', { class: 'body', r: STONE_R }, stone);
    const ring = el('circle', { class: 'ring', r: STONE_R * 0.52 }, stone);
    const cross = el('path', { class: 'cross', d: 'M-15 -15L15 15M15 -15L-15 15' }, g);
    const badge = el('text', { class: 'badge', 'text-anchor': 'middle', dy: '0.35em' }, badges);
    const focus = el('circle', { class: 'focus', r: STONE_R + 9 }, g);
    dom.points.set(sq, { g, node, hit, target, stone, body, ring, cross, badge, focus, color: null });
  }
  dom.dragStone = el('g', { class: 'stone dragging', visibility: 'hidden' }, drag);
  el('circle', { class: 'body', r: STONE_R }, dom.dragStone);
  el('circle', { class: 'ring', r: STONE_R * 0.52 }, dom.dragStone);
  container.appendChild(svg);
  return dom;
}

function place(dom, bottom) {
  if (dom.bottom === bottom) return;
  dom.bottom = bottom;
  for (const [sq, p] of dom.points) {
    const { x, y } = toSvg(sq, bottom);
    setAttrs(p.g, { transform: `translate(${x} ${y})` });
    setAttrs(p.badge, { transform: `translate(${x} ${y})` });
    setAttrs(p.node, { cx: x, cy: y });
    setAttrs(p.hit, { x: -SPACING / 2, y: -SPACING / 2 });
  }
  dom.coords.replaceChildren();
  if (!dom.showCoords) return;
  for (let f = 0; f < FILES; f++) {
    const { x } = toSvg(squareName(f, 0), bottom);
    el('text', { x: x + 30, y: HEIGHT + 2, class: 'coord' }, dom.coords).textContent = 'abcdefghi'[f];
  }
  for (let r = 0; r < RANKS; r++) {
    const { y } = toSvg(squareName(0, r), bottom);
    el('text', { x: -2, y: y - 24, class: 'coord' }, dom.coords).textContent = String(r + 1);
  }
}

/**
 * Labels of a point for screen readers, built from the view.
 * @param {string} sq
 * @param {object} view from boardView
 * @param {(key: string, params?: object) => string} t
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
 * Brings the drawing up to date with a view.
 * @param {BoardDom} dom
 * @param {object} view from boardView
 * @param {(key: string, params?: object) => string} [t] needed for interactive boards
 */
export function renderBoard(dom, view, t) {
  place(dom, view.bottom);
  const before = dom.last;
  const moved = before && view.board ? findMove(before, view.board) : null;
  const captured = view.captured || [];
  const choiceStones = new Map();
  (view.choice || []).forEach((line, i) => line.forEach((sq) => choiceStones.set(sq, i)));
  for (const [sq, p] of dom.points) {
    const stone = view.board ? stoneAt(view.board, sq) : null;
    if (stone) {
      p.color = stone;
      toggle(p.stone, 'white', stone === 'W');
      toggle(p.stone, 'black', stone === 'B');
    }
    const gone = !stone;
    const instant = moved && moved.from === sq;
    p.stone.style.transitionDelay = gone && captured.includes(sq) ? `${captured.indexOf(sq) * 70}ms` : '';
    toggle(p.stone, 'instant', Boolean(instant));
    toggle(p.stone, 'gone', gone);
    toggle(p.g, 'movable', view.movable.includes(sq));
    toggle(p.g, 'selected', view.selected === sq);
    toggle(p.g, 'threatened', view.threatened.has(sq));
    toggle(p.g, 'preview', view.preview.has(sq));
    toggle(p.g, 'choice', choiceStones.has(sq));
    toggle(p.g, 'choice-b', choiceStones.get(sq) === 1);
    toggle(p.g, 'visited', view.chain && view.path.includes(sq) && view.selected !== sq);
    toggle(p.g, 'ghost', !stone && captured.includes(sq));
    toggle(p.g, 'hint-from', view.hintFrom === sq);
    toggle(p.g, 'hint-to', view.hintTo === sq);
    const target = view.targets.get(sq);
    toggle(p.g, 'is-target', Boolean(target));
    toggle(p.g, 'capture-target', Boolean(target && target.some((n) => n > 0)));
    const badge = target && target.some((n) => n > 0) ? target.join('/') : '';
    if (p.badge.textContent !== badge) p.badge.textContent = badge;
    if (dom.interactive && t) setAttrs(p.g, { 'aria-label': pointLabel(sq, view, t) });
  }
  const mover = view.board && view.path.length ? stoneAt(view.board, view.path[view.path.length - 1]) : null;
  for (const sq of captured) {
    const p = dom.points.get(sq);
    const color = p.color || (mover === 'W' ? 'B' : mover === 'B' ? 'W' : null);
    if (color && !stoneAt(view.board || [], sq)) {
      toggle(p.stone, 'white', color === 'W');
      toggle(p.stone, 'black', color === 'B');
    }
  }
  drawTrail(dom, view);
  drawChoice(dom, view);
  if (moved) slide(dom.points.get(moved.to).stone, moved, view.bottom);
  dom.last = view.board ? view.board.slice() : null;
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

function drawTrail(dom, view) {
  const pts = (view.path || []).map((sq) => toSvg(sq, view.bottom));
  let path = dom.trail.firstChild;
  if (!path) {
    path = el('path', { class: 'path' }, dom.trail);
    el('circle', { class: 'path-start', r: 11 }, dom.trail);
  }
  setAttrs(path, { d: pts.length > 1 ? polyline(pts) : null });
  toggle(path, 'live', Boolean(view.chain));
  const start = path.nextSibling;
  setAttrs(start, pts.length > 1 ? { cx: pts[0].x, cy: pts[0].y, visibility: null } : { visibility: 'hidden' });
}

function drawChoice(dom, view) {
  dom.choice.replaceChildren();
  if (!view.choice) return;
  view.choice.forEach((line, i) => {
    const pts = line.map((sq) => toSvg(sq, view.bottom));
    if (pts.length === 1) pts.push(pts[0]);
    el('path', { class: `choice-line${i ? ' b' : ''}`, d: polyline([pts[0], pts[pts.length - 1]]) }, dom.choice);
  });
  if (view.choiceTo && view.selected) {
    const { x, y } = toSvg(view.choiceTo, view.bottom);
    const color = stoneAt(view.board, view.selected) === 'B' ? 'black' : 'white';
    const g = el('g', { class: `stone ${color} landing`, transform: `translate(${x} ${y})` }, dom.choice);
    el('circle', { class: 'body', r: STONE_R }, g);
    el('circle', { class: 'ring', r: STONE_R * 0.52 }, g);
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
