import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  reviewUrl, readReviewParams, whiteStones, turnCosts, graphPoints, REVIEW_NODES, WIN_STONES,
} from '../../js/review-core.js';

test('the address carries the game and the turn shown, and reads back', () => {
  const start = 'BBBBBBBBB/BBBBBBBBB/BWBW.BWBW/WWWWWWWWW/WWWWWWWWW w 0';
  const url = reviewUrl(start, ['d3-e3A', 'f4-f3A'], 2);
  const read = readReviewParams(new URL(url, 'http://x').searchParams);
  assert.deepEqual(read, { start, turns: ['d3-e3A', 'f4-f3A'], at: 2, nodes: REVIEW_NODES });
  const odd = readReviewParams(new URLSearchParams('start=x&turns=a&at=9&nodes=-3'));
  assert.equal(odd.at, 0, 'a turn past the end is the start');
  assert.equal(odd.nodes, REVIEW_NODES);
  assert.equal(readReviewParams(new URLSearchParams('nodes=20000')).nodes, 20000);
});

test("scores become White's stones, wins and ends clamped", () => {
  assert.equal(whiteStones({ score: { kind: 'cp', value: 150 }, whiteToMove: true }), 1.5);
  assert.equal(whiteStones({ score: { kind: 'cp', value: 150 }, whiteToMove: false }), -1.5);
  assert.equal(whiteStones({ score: { kind: 'win', value: 3 }, whiteToMove: false }), -WIN_STONES);
  assert.equal(whiteStones({ score: { kind: 'lost' }, whiteToMove: false }), WIN_STONES);
  assert.equal(whiteStones({ score: { kind: 'cp', value: 5000 }, whiteToMove: true }), WIN_STONES);
  assert.equal(whiteStones({ score: null, winner: 'black' }), -WIN_STONES);
  assert.equal(whiteStones({ score: null, winner: null }), 0);
});

test('a turn costs its side what the score fell by, and is marked past the thresholds', () => {
  // White +0.2, White plays and it is +0.1 (fine); Black plays and
  // White is +0.8 (Black lost 0.7: an inaccuracy); White plays and it
  // is −1.0 (White lost 1.8: a mistake); Black plays and White is +3,
  // but no mark: it was the engine's own choice.
  const white = [0.2, 0.1, 0.8, -1.0, 3];
  const turns = ['a', 'b', 'c', 'd'];
  const best = ['x', 'y', 'z', 'd', null];
  const movers = ['white', 'black', 'white', 'black', 'white'];
  const costs = turnCosts(white, turns, best, movers);
  assert.deepEqual(costs.map((c) => c.mark), [null, 'inaccuracy', 'mistake', null]);
  assert.ok(Math.abs(costs[2].cost - 1.8) < 1e-9);
  assert.equal(costs[3].cost, 4);
  assert.equal(turnCosts([0, 1], ['a'], ['x'], ['white', 'black'])[0].cost, 0, 'a gain costs nothing');
  // A blunder from two stones; only the scored turns count.
  assert.deepEqual(turnCosts([0, -2.5], ['a', 'b'], ['x'], ['white', 'black']).map((c) => c.mark), ['blunder']);
});

test('the graph runs across the width, White up, clamped to its range', () => {
  const points = graphPoints([0, 5, -9], 5, { width: 400, height: 100, range: 5 });
  assert.deepEqual(points, [{ x: 0, y: 50 }, { x: 100, y: 0 }, { x: 200, y: 100 }]);
});
