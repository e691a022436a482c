// Server states used by several tests, written as the server sends them,
// and a localStorage of a Map.

import { readState } from '../../js/protocol.js';

/** The five legal steps of the start position. */
export const OPENING_STEPS = [
  { from: 'd3', to: 'e3', kind: 'approach', captures: ['f3'] },
  { from: 'd3', to: 'e3', kind: 'withdrawal', captures: ['c3'] },
  { from: 'e2', to: 'e3', kind: 'approach', captures: ['e4', 'e5'] },
  { from: 'd2', to: 'e3', kind: 'approach', captures: ['f4', 'g5'] },
  { from: 'f2', to: 'e3', kind: 'approach', captures: ['d4', 'c5'] },
];

/** A raw "state" message as the server sends it; fields can be overridden. */
export function rawState(over = {}) {
  return {
    type: 'state',
    game_id: 'abc123DEF0',
    version: 1,
    seq: 0,
    position: 'BBBBBBBBB/BBBBBBBBB/BWBW.BWBW/WWWWWWWWW/WWWWWWWWW w 0',
    start_position: 'BBBBBBBBB/BBBBBBBBB/BWBW.BWBW/WWWWWWWWW/WWWWWWWWW w 0',
    side_to_move: 'white',
    turn: null,
    legal_steps: OPENING_STEPS,
    can_end_turn: false,
    moves: [],
    captures: [],
    last_turn: null,
    turns_since_capture: 0,
    players: { white: { joined: true, connected: true }, black: { joined: true, connected: true } },
    draw_offer: null,
    abandoned: false,
    rematch: { white: false, black: false },
    next_game: null,
    result: null,
    ...over,
  };
}

/** The same, read into the client's shape. */
export function gameState(over = {}) {
  return readState(rawState(over));
}

/** A localStorage of a Map, with `items` to look into. */
export function memory(initial = {}) {
  const items = new Map(Object.entries(initial));
  return {
    getItem: (k) => (items.has(k) ? items.get(k) : null),
    setItem: (k, v) => { items.set(k, String(v)); },
    items,
  };
}
