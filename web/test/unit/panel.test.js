import { test } from 'node:test';
import assert from 'node:assert/strict';
import { claimable } from '../../js/panel.js';
import { createState, receiveState } from '../../js/state.js';
import { gameState } from './fixtures.js';

function as(role, over) {
  return receiveState({ ...createState(), role }, gameState(over));
}

test('a win can be claimed only when the server says the opponent to move has gone', () => {
  const gone = { side_to_move: 'black', abandoned: true, legal_steps: [] };
  assert.equal(claimable(as('white', gone)), true);
  assert.equal(claimable(as('black', gone)), false, 'not by the absent player');
  assert.equal(claimable(as('spectator', gone)), false);
  assert.equal(claimable(as('white', { ...gone, abandoned: false })), false, 'no client timer: only the flag');
  assert.equal(claimable(as('white', { ...gone, result: { winner: 'white', reason: 'resignation' } })), false);
});
