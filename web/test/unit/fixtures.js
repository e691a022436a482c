// Server states used by several tests, written as the server sends them.

import { readState } from '../../js/protocol.js';

/** The five legal steps of the start position. */
export const OPENING_STEPS = [
  { from: 'd3', to: 'e3', kind: 'approach', captures: ['f3'] },
  { from: 'd3', to: 'e3', kind: 'withdrawal', captures: ['c3'] },
  { from: 'e2', to: 'e3', kind: 'approach', captures: ['e4', 'e5'] },
  { from: 'd2', to: 'e3', kind: 'approach', captures: ['f4', 'g5'] },
  { from: 'f2', to: 'e3', kind: 'approach', captures: ['d4', 'c5'] },
];

/** A raw "state" body; fields can be overridden. */
export function rawState(over = {}) {
  return {
    game: 'abc123',
    position: 'BBBBBBBBB/BBBBBBBBB/BWBW.BWBW/WWWWWWWWW/WWWWWWWWW w 0',
    turn: 'white',
    chain: null,
    steps: OPENING_STEPS,
    can_end_turn: false,
    moves: [],
    last_turn: null,
    turns_since_capture: 0,
    players: { white: { joined: true, connected: true }, black: { joined: true, connected: true } },
    draw_offer: null,
    rematch: null,
    result: null,
    version: 1,
    ...over,
  };
}

/** The same, read into the client's shape. */
export function gameState(over = {}) {
  return readState(rawState(over));
}
