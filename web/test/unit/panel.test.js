import { test } from 'node:test';
import { translatorFor } from '../catalogs.js';
import assert from 'node:assert/strict';
import { claimable } from '../../js/panel.js';
import { createState } from '../../js/state-core.js';
import { receiveState } from '../../js/state-server.js';
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

test('against the computer the result names it, and no win is claimed from it', async () => {
  const { resultTitle, computerName } = await import('../../js/panel.js');
  const t = translatorFor('en');
  const computer = { color: 'black', level: 3, name: 'Club', thinking: false };
  const over = (winner) => as('white', { computer, result: { winner, reason: 'no_stones' } });
  assert.equal(resultTitle(over('black'), t), 'The computer wins');
  assert.equal(resultTitle(over('white'), t), 'You win');
  assert.equal(resultTitle(as('spectator', { computer, result: { winner: 'black', reason: 'no_stones' } }), t),
    'The computer wins');
  assert.equal(computerName(computer, t), 'Computer · Club (level\u00a03)');
  assert.equal(computerName({ level: 6, name: 'Strongest' }, t), 'Computer · Strongest (level\u00a06)');
  const gone = { side_to_move: 'black', abandoned: true, legal_steps: [], computer };
  assert.equal(claimable(as('white', gone)), false);
});

test('the heading says what the game is to the person looking at it', async () => {
  const { pageHeading } = await import('../../js/panel.js');
  const t = translatorFor('en');
  assert.equal(pageHeading(createState(), t), 'A game of Fanorona', 'before the first state');
  assert.equal(pageHeading(as('white'), t), 'Playing a friend');
  assert.equal(pageHeading(as('black'), t), 'Playing a friend');
  assert.equal(pageHeading(as('spectator'), t), 'Watching a game');
  const computer = { color: 'black', level: 1, name: 'Beginner', thinking: false };
  assert.equal(pageHeading(as('white', { computer }), t), 'Playing the computer');
  assert.equal(pageHeading(as('spectator', { computer }), t), 'Watching a game');
});

test('the stone counts are words: one stone, 22 stones', async () => {
  const { stoneCount } = await import('../../js/panel.js');
  const t = translatorFor('en');
  const state = as('white');
  assert.equal(stoneCount(state.board, 'white', t), '22 stones');
  const last = as('white', { position: 'W......../........./........./........./BB....... w 0' });
  assert.equal(stoneCount(last.board, 'white', t), '1 stone');
  assert.equal(stoneCount(last.board, 'black', t), '2 stones');
  assert.equal(stoneCount(null, 'white', t), '', 'nothing before the board is known');
});

test('the tab says what needs a seated player, and nothing on the opponent\'s turn or to a spectator', async () => {
  const { tabTitle } = await import('../../js/panel.js');
  const t = translatorFor('en');
  const plain = { title: 'Fanorona game', dot: false };
  assert.deepEqual(tabTitle(as('white'), false, t), { title: 'Your turn · Fanorona game', dot: true });
  assert.deepEqual(tabTitle(as('black'), false, t), plain, 'the opponent\'s turn');
  assert.deepEqual(tabTitle(as('spectator'), false, t), plain);
  assert.deepEqual(tabTitle(createState(), false, t), plain, 'before the first state');
  assert.deepEqual(tabTitle(as('black'), true, t), { title: 'Your friend joined · Fanorona game', dot: true });
  assert.deepEqual(tabTitle(as('spectator'), true, t), plain);
  const offered = { side_to_move: 'black', draw_offer: 'white' };
  assert.deepEqual(tabTitle(as('black', offered), false, t), { title: 'Draw offered · Fanorona game', dot: true });
  assert.deepEqual(tabTitle(as('white', offered), false, t), plain, 'not to the one who offers');
  const waiting = { players: { white: { joined: true, connected: true }, black: { joined: false, connected: false } } };
  assert.deepEqual(tabTitle(as('white', waiting), false, t), plain, 'no turn before the friend joins');
  assert.deepEqual(tabTitle(as('white', { result: { winner: 'white', reason: 'resignation' } }), false, t), plain);
  assert.deepEqual(tabTitle(as('white'), false, translatorFor('fr')), { title: 'À vous de jouer · Partie de fanorona', dot: true });
});

test('the line under the players gives the match score and how many watch', async () => {
  const { seriesLine } = await import('../../js/panel.js');
  const t = translatorFor('en');
  const fr = translatorFor('fr');
  const match = { white: 2, black: 1, draws: 0 };
  assert.equal(seriesLine(as('white'), t), '', 'a first game, nobody watching');
  assert.equal(seriesLine(as('black', { match }), t), 'You 1 – 2 your friend');
  assert.equal(seriesLine(as('white', { match }), t), 'You 2 – 1 your friend');
  assert.equal(seriesLine(as('spectator', { match, watching: 1 }), t), 'White 2 – 1 Black · 1 watching');
  // A draw is half a point to each.
  const drawn = { white: 0, black: 1, draws: 1 };
  assert.equal(seriesLine(as('white', { match: drawn }), t), 'You ½ – 1½ your friend');
  assert.equal(seriesLine(as('white', { match: { white: 10, black: 3, draws: 2 } }), t), 'You 11 – 4 your friend');
  // Against the computer, in colours.
  const computer = { color: 'black', level: 1, name: 'Beginner', thinking: false };
  assert.equal(seriesLine(as('white', { match, computer }), t), 'White 2 – 1 Black');
  assert.equal(seriesLine(as('white', { watching: 3 }), t), '3 watching');
  assert.equal(seriesLine(as('white', { watching: 1 }), fr), '1 spectateur');
  assert.equal(seriesLine(as('white', { watching: 3 }), fr), '3 spectateurs');
  // What the server cannot have sent is read as nothing.
  assert.equal(seriesLine(as('white', { watching: 'x', match: 'x' }), t), '');
});
