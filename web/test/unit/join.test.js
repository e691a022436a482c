import { test } from 'node:test';
import assert from 'node:assert/strict';
import { webcrypto } from 'node:crypto';
import { newJoinKey, isJoinKey, joinKeyFor } from '../../js/join.js';

const random = (bytes) => webcrypto.getRandomValues(bytes);

test('a join key is 128 random bits in 22 base64url characters', () => {
  assert.equal(newJoinKey((b) => b.fill(0)), 'A'.repeat(22));
  assert.equal(newJoinKey((b) => b.fill(255)), `${'_'.repeat(21)}w`);
  const keys = new Set(Array.from({ length: 50 }, () => newJoinKey(random)));
  assert.equal(keys.size, 50);
  for (const key of keys) assert.ok(isJoinKey(key) && key.length === 22, key);
  for (const bad of ['', 'short', 'a'.repeat(65), `${'a'.repeat(22)}=`, `${'a'.repeat(22)}+`, null, 42]) {
    assert.equal(isJoinKey(bad), false, String(bad));
  }
});

test('a tab keeps one key per game, and replaces a bad one', () => {
  const items = new Map();
  const storage = { getItem: (k) => items.get(k) ?? null, setItem: (k, v) => items.set(k, v) };
  const first = joinKeyFor(storage, 'abcDEF1234', random);
  assert.equal(joinKeyFor(storage, 'abcDEF1234', random), first, 'the same key for a retry');
  assert.notEqual(joinKeyFor(storage, 'zzzDEF1234', random), first, 'another game, another key');
  items.set('fanorona.join.abcDEF1234', 'not a key!');
  const replaced = joinKeyFor(storage, 'abcDEF1234', random);
  assert.ok(isJoinKey(replaced));
  assert.equal(items.get('fanorona.join.abcDEF1234'), replaced);
  const throwing = { getItem() { throw new Error('denied'); }, setItem() { throw new Error('denied'); } };
  assert.ok(isJoinKey(joinKeyFor(throwing, 'abcDEF1234', random)));
  assert.ok(isJoinKey(joinKeyFor(null, 'abcDEF1234', random)));
});
