import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  readPuzzles, inOrder, loadProgress, saveProgress, record, nextPuzzle, tally, judgeTurn, PROGRESS_ITEM,
} from '../../js/puzzle-set.js';
import { memory } from './fixtures.js';

const FILE = readFileSync(new URL('../../puzzles/puzzles.txt', import.meta.url), 'utf8');


test('the puzzles file reads whole: at least 300 puzzles, each id once, each position once', () => {
  const lines = FILE.split('\n').filter((l) => l && !l.startsWith('#'));
  const puzzles = readPuzzles(FILE);
  assert.equal(puzzles.length, lines.length, 'every line reads');
  assert.ok(puzzles.length >= 300, `${puzzles.length} puzzles`);
  assert.equal(new Set(puzzles.map((p) => p.id)).size, puzzles.length);
  assert.equal(new Set(puzzles.map((p) => p.position)).size, puzzles.length);
  assert.match(FILE.split('\n')[1], /^# Made by: fanorona puzzles /);
  // Every difficulty and most themes are there.
  assert.deepEqual([...new Set(puzzles.map((p) => p.difficulty))].sort(), [1, 2, 3, 4, 5]);
});

test('lines that do not read are skipped', () => {
  const good = 'abcdef01\t....B..../....B..../..B....../....W..../......... w 0\te2-e3A\t2\tcapture\t300\t0';
  assert.equal(readPuzzles(good).length, 1);
  for (const bad of [
    good.replace('abcdef01', 'xyz'),
    good.replace('e2-e3A', 'e2-e3X'),
    good.replace('\t2\t', '\t6\t'),
    good.replace('capture', 'fork'),
    'abcdef01\tonly two',
  ]) assert.equal(readPuzzles(bad).length, 0, bad);
});

test('the easiest come first, in the file order within a difficulty', () => {
  const puzzles = [3, 1, 2, 1].map((difficulty, i) => ({ id: `0000000${i}`, difficulty }));
  assert.deepEqual(inOrder(puzzles).map((p) => p.id), ['00000001', '00000003', '00000002', '00000000']);
});

test('progress keeps the first result of each puzzle and survives a reload', () => {
  const storage = memory();
  let progress = loadProgress(storage);
  assert.deepEqual(progress, { results: {} });
  progress = record(progress, '0000000a', 'missed');
  progress = record(progress, '0000000a', 'solved');
  progress = record(progress, '0000000b', 'solved');
  saveProgress(storage, progress);
  assert.deepEqual(loadProgress(storage).results, { '0000000a': 'missed', '0000000b': 'solved' });
  // What does not read is forgotten, not thrown.
  for (const text of ['not json', '{"results": 3}', '{"results": {"bad id": "solved", "0000000c": "won"}}']) {
    assert.deepEqual(loadProgress(memory({ [PROGRESS_ITEM]: text })), { results: {} }, text);
  }
  const refusing = { getItem: () => { throw new Error('denied'); }, setItem: () => { throw new Error('full'); } };
  assert.deepEqual(loadProgress(refusing), { results: {} });
  saveProgress(refusing, progress);
});

test('the next puzzle is the first without a result after the one shown, coming round', () => {
  const ordered = ['a', 'b', 'c'].map((x) => ({ id: `0000000${x}` }));
  const progress = { results: { '0000000b': 'solved' } };
  assert.equal(nextPuzzle(ordered, progress).id, '0000000a');
  assert.equal(nextPuzzle(ordered, progress, '0000000a').id, '0000000c');
  assert.equal(nextPuzzle(ordered, progress, '0000000c').id, '0000000a');
  const all = { results: { '0000000a': 'missed', '0000000b': 'solved', '0000000c': 'solved' } };
  assert.equal(nextPuzzle(ordered, all, '0000000a'), null);
  assert.deepEqual(tally(ordered, all), { solved: 2, missed: 1, left: 0 });
});

test('a turn is right when it is the solution, short when it stopped on the way', () => {
  assert.deepEqual(judgeTurn('e2-e3A-d3A', 'e2-e3A-d3A'), { right: true, short: false });
  assert.deepEqual(judgeTurn('e2-e3A-d3A', 'e2-e3A'), { right: false, short: true });
  assert.deepEqual(judgeTurn('e2-e3A-d3A', 'e2-e3W'), { right: false, short: false });
  assert.deepEqual(judgeTurn('e2-e3A', 'e2-e3'), { right: false, short: false });
});
