import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  parseGames, recordGame, forgetGame, findGame, loadGames, saveGames, updateGames, readEntry,
  GAMES_ITEM, MAX_GAMES,
} from '../../js/games.js';
import { memory } from './fixtures.js';

const INVITE = 'https://fanorona.example/g/abcDEF1234?invite=U1F5jtvo2nbP9FZiyArH8x';

test('a new game is recorded with its invitation, which goes once the friend joins', () => {
  let list = recordGame([], { id: 'abcDEF1234', color: 'white', joined: false, lastActive: 10, invite: INVITE });
  assert.deepEqual(list, [{ id: 'abcDEF1234', color: 'white', joined: false, lastActive: 10, invite: INVITE, computer: null }]);
  list = recordGame(list, { id: 'abcDEF1234', color: 'white', joined: false, lastActive: 20 });
  assert.equal(list[0].invite, INVITE, 'an update without a link keeps it');
  assert.equal(list[0].lastActive, 20);
  list = recordGame(list, { id: 'abcDEF1234', color: 'white', joined: true, lastActive: 30 });
  assert.deepEqual(list, [{ id: 'abcDEF1234', color: 'white', joined: true, lastActive: 30, invite: null, computer: null }]);
});

test('the list is newest first, each game once, and bounded', () => {
  let list = [];
  for (let i = 0; i < MAX_GAMES + 5; i++) {
    list = recordGame(list, { id: `game${String(i).padStart(6, '0')}`, color: 'black', joined: true, lastActive: i });
  }
  assert.equal(list.length, MAX_GAMES);
  assert.equal(list[0].id, `game${String(MAX_GAMES + 4).padStart(6, '0')}`);
  assert.ok(list.every((g, i) => i === 0 || list[i - 1].lastActive >= g.lastActive));
  list = recordGame(list, { id: list[10].id, color: 'black', joined: true, lastActive: 1000 });
  assert.equal(list.length, MAX_GAMES);
  assert.equal(new Set(list.map((g) => g.id)).size, MAX_GAMES);
  const gone = forgetGame(list, list[0].id);
  assert.equal(gone.length, MAX_GAMES - 1);
  assert.equal(findGame(gone, list[0].id), null);
  assert.deepEqual(findGame(list, list[1].id), list[1]);
});

test('garbage in storage gives an empty or cleaned list, never an exception', () => {
  const good = { id: 'abcDEF1234', color: 'black', joined: true, lastActive: 5, invite: null, computer: null };
  for (const text of [null, '', '{', 'null', '42', '"x"', '{}', '{"length": 3}', 'undefined', '[[[[', '\u0000']) {
    assert.deepEqual(parseGames(text), [], String(text));
  }
  const mixed = JSON.stringify([
    null, 7, 'x', [], {}, good,
    { ...good, id: '../../etc' }, { ...good, id: 'a'.repeat(65) }, { ...good, color: 'red' },
    { ...good, lastActive: -1 }, { ...good, lastActive: '5' }, { ...good, lastActive: 1e300 },
    { ...good, id: 'other00001', joined: false, invite: 'javascript:alert(1)' },
    { ...good, id: 'other00002', joined: false, invite: `${INVITE}&x=1` },
    { ...good, lastActive: 1 },
  ]);
  assert.deepEqual(parseGames(mixed), [
    good,
    { ...good, id: 'other00001', joined: false, invite: null },
    { ...good, id: 'other00002', joined: false, invite: null },
  ]);
  assert.equal(readEntry({ ...good, joined: 'yes' }).joined, false);
  assert.equal(readEntry({ ...good, id: 'abcDEF1234', joined: false, invite: INVITE }).invite, INVITE);
  assert.equal(readEntry({ ...good, id: 'zzzDEF1234', joined: false, invite: INVITE }).invite, null, 'another game\'s link');
});

test('storage that refuses or throws changes nothing and breaks nothing', () => {
  const throwing = { getItem() { throw new Error('denied'); }, setItem() { throw new Error('full'); } };
  assert.deepEqual(loadGames(throwing), []);
  assert.equal(saveGames(throwing, []), false);
  assert.deepEqual(loadGames(null), []);
  const list = updateGames(throwing, (l) => recordGame(l, { id: 'abcDEF1234', color: 'white', joined: true, lastActive: 1 }));
  assert.equal(list.length, 1);
  const store = memory({ [GAMES_ITEM]: 'not json' });
  updateGames(store, (l) => recordGame(l, { id: 'abcDEF1234', color: 'white', joined: true, lastActive: 1 }));
  assert.equal(JSON.parse(store.items.get(GAMES_ITEM)).length, 1, 'garbage is replaced by a good list');
});

test('a game against the computer is recorded with its level, which follows the game', () => {
  let list = recordGame([], { id: 'cpuGame123', color: 'black', joined: true, lastActive: 10, computer: 3 });
  assert.deepEqual(list, [{ id: 'cpuGame123', color: 'black', joined: true, lastActive: 10, invite: null, computer: 3 }]);
  list = recordGame(list, { id: 'cpuGame123', color: 'black', joined: true, lastActive: 20 });
  assert.equal(list[0].computer, 3, 'an update without a level keeps it');
  list = recordGame(list, { id: 'cpuGame123', color: 'black', joined: true, lastActive: 30, computer: 5 });
  assert.equal(list[0].computer, 5);
  for (const bad of [0, 7, 2.5, '3', true]) {
    assert.equal(readEntry({ id: 'cpuGame123', color: 'black', joined: true, lastActive: 1, computer: bad }).computer, null,
      String(bad));
  }
});
