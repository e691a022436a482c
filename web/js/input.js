// Input: the page's named-state machine (locked, idle, selected, choosing
// a capture line), and the pointer and keyboard bindings that feed it.
// Every user event goes through `interpret`, which picks the transition
// (of the state-*.js files) the event makes in the current mode. `interpret` is pure; the bind functions touch
// the DOM and each returns the function that undoes it.

import { Mode } from './state-core.js';
import { mode } from './state-queries.js';
import { tapWhileIdle, tapWhileSelected, tapWhileChoosing, drop, cancel, endTurn, hover, grab, moveDrag, endDrag } from './state-board.js';
import { flip, browseBy, browseTo, askResign, keepPlaying, resign, setSound, takeBack, askHint, chooseLevel } from './state-actions.js';
import { fromSvg, screenNeighbour } from './geometry.js';

/** Events the machine understands. */
export const Input = Object.freeze({
  // The board.
  Tap: 'tap', Grab: 'grab', DragMove: 'drag-move', Drop: 'drop', DragCancel: 'drag-cancel',
  Hover: 'hover', Cancel: 'cancel', EndTurn: 'end-turn',
  // The panel.
  Browse: 'browse', BrowseTo: 'browse-to', Flip: 'flip', Sound: 'sound',
  AskResign: 'ask-resign', KeepPlaying: 'keep-playing', Resign: 'resign', Send: 'send',
  // Against the computer.
  Takeback: 'takeback', Hint: 'hint', Level: 'level',
});

const none = (state) => ({ state, intent: null });

/** What each event does whatever the mode; MACHINE overrides per mode. */
const ALWAYS = Object.freeze({
  [Input.Tap]: none,
  [Input.Grab]: (s, e) => none(hover(grab(s, e.square, e.x, e.y), e.over)),
  [Input.DragMove]: (s, e) => none(hover(moveDrag(s, e.x, e.y), e.over)),
  [Input.Drop]: (s, e) => drop(endDrag(s), e.from, e.to),
  [Input.DragCancel]: (s) => none(endDrag(s)),
  [Input.Hover]: (s, e) => none(hover(s, e.square)),
  [Input.Cancel]: (s) => none(cancel(s)),
  [Input.EndTurn]: (s) => endTurn(s),
  [Input.Browse]: (s, e) => none(e.by === 'first' ? browseTo(s, 0)
    : e.by === 'last' ? browseTo(s, null) : browseBy(s, e.by)),
  [Input.BrowseTo]: (s, e) => none(browseTo(s, e.ply)),
  [Input.Flip]: (s) => none(flip(s)),
  [Input.Sound]: (s, e) => none(setSound(s, e.on)),
  [Input.AskResign]: (s) => none(askResign(s)),
  [Input.KeepPlaying]: (s) => none(keepPlaying(s)),
  [Input.Resign]: (s) => resign(s),
  [Input.Send]: (s, e) => ({ state: s, intent: { type: e.intent } }),
  [Input.Takeback]: (s) => takeBack(s),
  [Input.Hint]: (s) => askHint(s),
  [Input.Level]: (s, e) => chooseLevel(s, e.level),
});

/**
 * The machine: for each mode, what each event does, as the one
 * transition it makes there (which does not look at the mode again),
 * returning {state, intent}, intent null or the message to send.
 */
const MACHINE = Object.freeze({
  [Mode.Locked]: {
    ...ALWAYS,
    // Nothing selected: Escape has nothing to back out of.
    [Input.Cancel]: (s) => none(s.selected || s.choosing ? cancel(s) : s),
  },
  [Mode.Idle]: {
    ...ALWAYS,
    [Input.Tap]: (s, e) => tapWhileIdle(s, e.square),
    [Input.Cancel]: none,
  },
  [Mode.Selected]: {
    ...ALWAYS,
    [Input.Tap]: (s, e) => tapWhileSelected(s, e.square),
  },
  [Mode.Choosing]: {
    ...ALWAYS,
    [Input.Tap]: (s, e) => tapWhileChoosing(s, e.square),
    // While a line is being chosen a drag starts over from the dragged stone.
    [Input.Grab]: (s, e) => ALWAYS[Input.Grab](cancel(s), e),
    [Input.Drop]: (s, e) => ALWAYS[Input.Drop](cancel(s), e),
    [Input.EndTurn]: none,
  },
});

/**
 * Runs one input event through the machine.
 * @param {import('./types.js').ViewState} state
 * @param {{type: string, square?: string|null, from?: string, to?: string|null}} event
 * @returns {{state: import('./types.js').ViewState, intent: object|null}}
 */
export function interpret(state, event) {
  const handler = MACHINE[mode(state)][event.type];
  return handler ? handler(state, event) : none(state);
}

/**
 * Converts a pointer position to the drawing's coordinates.
 * @param {SVGSVGElement} svg
 * @param {number} clientX
 * @param {number} clientY
 */
export function svgPoint(svg, clientX, clientY) {
  const m = svg.getScreenCTM();
  if (!m) return { x: -1, y: -1 };
  const p = new DOMPoint(clientX, clientY).matrixTransform(m.inverse());
  return { x: p.x, y: p.y };
}

const DRAG_START_PX = 6;

/**
 * Binds pointer input to the board: a press and release on one point is a
 * tap; pressing a draggable stone and moving it is a drag, ended by a drop.
 * @param {SVGSVGElement} svg
 * @param {object} h handlers
 * @param {() => string} h.bottom the colour drawn at the bottom
 * @param {(sq: string) => boolean} h.canDrag
 * @param {(event: object) => void} h.onInput receives machine events
 * @returns {() => void} unbind
 */
export function bindPointer(svg, h) {
  let press = null;
  const squareAt = (e) => {
    const p = svgPoint(svg, e.clientX, e.clientY);
    return { ...p, square: fromSvg(p.x, p.y, h.bottom()) };
  };
  const down = (e) => {
    if (e.button !== 0 && e.pointerType === 'mouse') return;
    const at = squareAt(e);
    if (!at.square) return;
    press = { square: at.square, x: e.clientX, y: e.clientY, dragging: false, id: e.pointerId };
    if (h.canDrag(at.square)) svg.setPointerCapture?.(e.pointerId);
    e.preventDefault();
  };
  const move = (e) => {
    if (!press) {
      if (e.pointerType === 'mouse') h.onInput({ type: Input.Hover, square: squareAt(e).square });
      return;
    }
    const at = squareAt(e);
    if (press.dragging) {
      h.onInput({ type: Input.DragMove, x: at.x, y: at.y, over: at.square });
      return;
    }
    const far = Math.hypot(e.clientX - press.x, e.clientY - press.y) > DRAG_START_PX;
    if (!far || !h.canDrag(press.square)) return;
    press.dragging = true;
    h.onInput({ type: Input.Grab, square: press.square, x: at.x, y: at.y, over: at.square });
  };
  const up = (e) => {
    if (!press) return;
    const at = squareAt(e);
    const p = press;
    press = null;
    if (p.dragging) {
      h.onInput({ type: Input.Drop, from: p.square, to: at.square });
    } else if (at.square === p.square) {
      h.onInput({ type: Input.Tap, square: p.square });
    }
  };
  const abort = () => {
    if (press && press.dragging) h.onInput({ type: Input.DragCancel });
    press = null;
  };
  const leave = () => h.onInput({ type: Input.Hover, square: null });
  // A finger that lands on a stone it may drag must not scroll the page:
  // browsers ignore touch-action on the shapes inside an SVG, and a scroll
  // would cancel the drag. Elsewhere on the board the page scrolls as usual.
  const touchstart = (e) => {
    const t = e.touches && e.touches[0];
    if (!t || e.touches.length > 1) return;
    const sq = squareAt(t).square;
    if (sq && h.canDrag(sq) && e.cancelable) e.preventDefault();
  };
  svg.addEventListener('touchstart', touchstart, { passive: false });
  svg.addEventListener('pointerdown', down);
  svg.addEventListener('pointermove', move);
  svg.addEventListener('pointerup', up);
  svg.addEventListener('pointercancel', abort);
  svg.addEventListener('pointerleave', leave);
  return () => {
    svg.removeEventListener('touchstart', touchstart, { passive: false });
    svg.removeEventListener('pointerdown', down);
    svg.removeEventListener('pointermove', move);
    svg.removeEventListener('pointerup', up);
    svg.removeEventListener('pointercancel', abort);
    svg.removeEventListener('pointerleave', leave);
  };
}

const ARROWS = { ArrowUp: 'up', ArrowDown: 'down', ArrowLeft: 'left', ArrowRight: 'right' };

/**
 * Binds the keyboard to the board's points: one point is in the tab
 * order at a time (roving tabindex); arrows move between points, Enter or
 * Space taps, Escape backs out.
 * @param {SVGSVGElement} svg
 * @param {object} h handlers
 * @param {() => string} h.bottom
 * @param {(event: object) => void} h.onInput receives machine events
 * @param {string} [start] the point first in the tab order
 * @returns {() => void} unbind
 */
export function bindKeyboard(svg, h, start = 'e3') {
  const pointOf = (node) => node && node.closest && node.closest('[data-sq]');
  let current = start;
  const rove = (sq, focus) => {
    const old = svg.querySelector(`[data-sq="${current}"]`);
    const next = svg.querySelector(`[data-sq="${sq}"]`);
    if (old) old.setAttribute('tabindex', '-1');
    if (!next) return;
    next.setAttribute('tabindex', '0');
    current = sq;
    if (focus) next.focus();
  };
  rove(start, false);
  const keydown = (e) => {
    const pt = pointOf(e.target);
    if (!pt) return;
    const sq = pt.getAttribute('data-sq');
    if (ARROWS[e.key]) {
      rove(screenNeighbour(sq, ARROWS[e.key], h.bottom()), true);
      e.preventDefault();
    } else if (e.key === 'Enter' || e.key === ' ') {
      h.onInput({ type: Input.Tap, square: sq });
      e.preventDefault();
    } else if (e.key === 'Escape') {
      h.onInput({ type: Input.Cancel });
    }
  };
  const focusin = (e) => {
    const pt = pointOf(e.target);
    if (!pt) return;
    const sq = pt.getAttribute('data-sq');
    if (sq !== current) rove(sq, false);
    h.onInput({ type: Input.Hover, square: sq });
  };
  const focusout = () => h.onInput({ type: Input.Hover, square: null });
  svg.addEventListener('keydown', keydown);
  svg.addEventListener('focusin', focusin);
  svg.addEventListener('focusout', focusout);
  return () => {
    svg.removeEventListener('keydown', keydown);
    svg.removeEventListener('focusin', focusin);
    svg.removeEventListener('focusout', focusout);
  };
}

/**
 * Binds the arrow keys outside the board to browsing the move list.
 * @param {Document|Element} root
 * @param {(event: object) => void} onInput receives Browse events
 * @returns {() => void} unbind
 */
export function bindHistoryKeys(root, onInput) {
  const keydown = (e) => {
    const target = e.target;
    if (target && target.closest && (target.closest('[data-sq]') || target.closest('input, textarea, select'))) return;
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const action = { ArrowLeft: -1, ArrowRight: 1, Home: 'first', End: 'last' }[e.key];
    if (action === undefined) return;
    onInput({ type: Input.Browse, by: action });
    e.preventDefault();
  };
  root.addEventListener('keydown', keydown);
  return () => root.removeEventListener('keydown', keydown);
}
