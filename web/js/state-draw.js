// What to draw: the board as the drawing needs it, derived from the view
// state (render.js draws it), and the stone being dragged.

import { stoneAt } from './position.js';
import {
  bottomColor, canAct, isMyTurn, movableStones, targetsFrom,
} from './state-queries.js';

/**
 * @typedef {import('./types.js').ViewState} ViewState
 */

/**
 * The stone being dragged as the drawing needs it, or null.
 * @param {ViewState} state
 * @returns {{x: number, y: number, color: 'W'|'B'|null}|null}
 */
export function dragView(state) {
  const d = state.drag;
  return d ? { x: d.x, y: d.y, color: state.board ? stoneAt(state.board, d.square) : null } : null;
}

/**
 * Everything the board drawing needs, derived from the state.
 * @param {ViewState} state
 * @returns {object}
 */
export function boardView(state) {
  const { hover } = state;
  const bottom = bottomColor(state);
  if (state.browse !== null) {
    const ply = state.plies[state.browse];
    return emptyView(ply.board, bottom, ply.path, ply.captured);
  }
  if (!state.board) return emptyView(null, bottom, [], []);
  const g = state.game;
  const inTurn = state.turnPath.length > 0;
  const path = inTurn ? state.turnPath : g.lastTurn.path;
  // The opponent's turn in progress leaves its captures as ghosts, as a
  // completed turn does; the player's own keeps the board clear.
  const opponentsChain = inTurn && g.chain && !isMyTurn(state) ? g.chain.captured : [];
  const captured = inTurn ? opponentsChain : g.lastTurn.captured;
  const view = emptyView(state.board, bottom, path, captured);
  view.chain = inTurn;
  view.movable = movableStones(state);
  view.selected = state.selected;
  if (state.hint && !state.hint.endTurn && canAct(state)) {
    view.hintFrom = state.hint.from;
    view.hintTo = state.hint.to;
  }
  if (state.selected && canAct(state)) {
    const targets = targetsFrom(state, state.selected);
    for (const [to, options] of targets) {
      view.targets.set(to, options.map((o) => o.captures.length));
      for (const o of options) for (const c of o.captures) view.threatened.add(c);
    }
    if (hover && targets.has(hover) && !state.choosing) {
      for (const o of targets.get(hover)) for (const c of o.captures) view.preview.add(c);
    }
  }
  if (state.choosing) {
    view.choice = state.choosing.options.map((o) => o.captures);
    view.choiceKinds = state.choosing.options.map((o) => o.kind);
    view.choiceTo = state.choosing.to;
  }
  return view;
}

function emptyView(board, bottom, path, captured) {
  return {
    board, bottom, path, captured, chain: false,
    movable: [], selected: null, targets: new Map(),
    threatened: new Set(), preview: new Set(), choice: null, choiceTo: null, hintFrom: null, hintTo: null,
  };
}
