import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseInfo, whiteScore } from '../../js/engine.js';

test('an info line is read into its depth, score, nodes and line', () => {
  const line = parseInfo('info depth 8 seldepth 20 score cp 38 nodes 728032 pv f2-e3A d5-d4A-c5W');
  assert.deepEqual(line, {
    depth: 8, seldepth: 20, score: { kind: 'cp', value: 38 }, nodes: 728032, pv: ['f2-e3A', 'd5-d4A-c5W'],
  });
  // The command line's nps and time are read past.
  const cli = parseInfo('info depth 1 seldepth 13 score cp -72 nodes 2071 nps 1330976 time 1 pv d3-e3A');
  assert.deepEqual([cli.nodes, cli.score.value, cli.pv], [2071, -72, ['d3-e3A']]);
  assert.deepEqual(parseInfo('info depth 3 seldepth 3 score win 3 nodes 90').score, { kind: 'win', value: 3 });
  assert.deepEqual(parseInfo('info depth 1 seldepth 1 score lost nodes 1').score, { kind: 'lost' });
});

test('lines that are not info lines are refused', () => {
  for (const text of ['bestturn d3-e3A', 'info depth 2 score draw nodes 5', 'info depth x score cp 1', 'info nodes 5 score cp 1', '']) {
    assert.equal(parseInfo(text), null, text);
  }
});

test('a score is told from White\'s side', () => {
  assert.deepEqual(whiteScore({ kind: 'cp', value: 38 }, true), { stones: 0.38, winner: null, turns: null });
  assert.deepEqual(whiteScore({ kind: 'cp', value: 38 }, false), { stones: -0.38, winner: null, turns: null });
  assert.deepEqual(whiteScore({ kind: 'win', value: 3 }, false), { stones: null, winner: 'black', turns: 3 });
  assert.deepEqual(whiteScore({ kind: 'loss', value: 4 }, false), { stones: null, winner: 'white', turns: 4 });
  assert.deepEqual(whiteScore({ kind: 'won' }, true), { stones: null, winner: 'white', turns: null });
  assert.deepEqual(whiteScore({ kind: 'lost' }, true), { stones: null, winner: 'black', turns: null });
});
