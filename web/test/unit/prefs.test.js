import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  loadOpponent, saveOpponent, loadLevel, saveLevel, PREFS, DEFAULT_LEVEL,
} from '../../js/prefs.js';

function memory() {
  const items = new Map();
  return { getItem: (k) => (items.has(k) ? items.get(k) : null), setItem: (k, v) => items.set(k, String(v)), items };
}

test('the level and the opponent chosen last are offered again', () => {
  const store = memory();
  assert.equal(loadLevel(store), DEFAULT_LEVEL);
  assert.equal(loadOpponent(store), 'friend');
  saveLevel(store, 4);
  saveOpponent(store, 'computer');
  assert.equal(loadLevel(store), 4);
  assert.equal(loadOpponent(store), 'computer');
  assert.equal(store.items.get(PREFS.Level), '4');
});

test('unknown values are neither kept nor read, and a broken storage changes nothing', () => {
  const store = memory();
  saveLevel(store, 9);
  saveOpponent(store, 'cat');
  assert.equal(store.items.size, 0);
  for (const text of ['0', '7', '3.5', ' 3', 'x', '']) {
    store.items.set(PREFS.Level, text);
    assert.equal(loadLevel(store), DEFAULT_LEVEL, text);
  }
  const throwing = { getItem() { throw new Error('denied'); }, setItem() { throw new Error('full'); } };
  assert.equal(loadLevel(throwing), DEFAULT_LEVEL);
  assert.equal(loadOpponent(null), 'friend');
  saveLevel(throwing, 2);
  saveOpponent(null, 'computer');
});
