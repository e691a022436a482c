import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  SQUARES, WIDTH, HEIGHT, parseSquare, squareName, squareIndex, isStrong, directionsFrom,
  neighbour, directionBetween, opposite, segments, toSvg, fromSvg, screenNeighbour,
} from '../../js/geometry.js';

test('the board has 45 named points from a1 to i5', () => {
  assert.equal(SQUARES.length, 45);
  assert.equal(SQUARES[0], 'a1');
  assert.equal(SQUARES[8], 'i1');
  assert.equal(SQUARES[44], 'i5');
  assert.equal(new Set(SQUARES).size, 45);
  assert.equal(squareIndex('e3'), 22);
  assert.equal(squareIndex('j1'), -1);
  assert.deepEqual(parseSquare('c4'), { file: 2, rank: 3 });
  assert.equal(parseSquare('a0'), null);
  assert.equal(parseSquare('a6'), null);
  assert.equal(squareName(9, 0), null);
});

test('strong points are those with an even file plus rank', () => {
  for (const sq of ['a1', 'e3', 'i5', 'b2', 'c1', 'i1', 'a5']) assert.ok(isStrong(sq), sq);
  for (const sq of ['b1', 'a2', 'd3', 'h5', 'e4']) assert.ok(!isStrong(sq), sq);
  assert.equal(SQUARES.filter(isStrong).length, 23);
});

test('directions leave strong points in up to eight ways and weak ones in four', () => {
  assert.deepEqual(directionsFrom('a1').sort(), ['e', 'n', 'ne']);
  assert.deepEqual(directionsFrom('b1').sort(), ['e', 'n', 'w']);
  assert.equal(directionsFrom('e3').length, 8);
  assert.equal(directionsFrom('d3').length, 4);
  assert.deepEqual(directionsFrom('i5').sort(), ['s', 'sw', 'w']);
});

test('neighbours follow the lines only', () => {
  assert.equal(neighbour('d2', 'ne'), 'e3');
  assert.equal(neighbour('d3', 'ne'), null, 'no diagonal from a weak point');
  assert.equal(neighbour('a1', 'w'), null);
  assert.equal(directionBetween('d3', 'e3'), 'e');
  assert.equal(directionBetween('f2', 'e3'), 'nw');
  assert.equal(directionBetween('e2', 'f3'), null, 'e2 is weak');
  assert.equal(directionBetween('a1', 'c1'), null);
  assert.equal(opposite('ne'), 'sw');
  assert.equal(opposite('n'), 's');
});

test('every line is drawn once and diagonals join strong points only', () => {
  const segs = segments();
  const orthogonal = segs.filter(([a, b]) => a[0] === b[0] || a[1] === b[1]);
  const diagonal = segs.filter(([a, b]) => a[0] !== b[0] && a[1] !== b[1]);
  assert.equal(orthogonal.length, 8 * 5 + 4 * 9);
  assert.equal(diagonal.length, 32);
  for (const [a, b] of diagonal) assert.ok(isStrong(a) && isStrong(b), `${a}-${b}`);
  const keys = segs.map(([a, b]) => [a, b].sort().join());
  assert.equal(new Set(keys).size, segs.length);
});

test('White sees a1 at the bottom left and Black sees it at the top right', () => {
  assert.deepEqual(toSvg('a1'), { x: 50, y: 450 });
  assert.deepEqual(toSvg('i5'), { x: 850, y: 50 });
  assert.deepEqual(toSvg('a1', 'black'), { x: 850, y: 50 });
  assert.deepEqual(toSvg('e3', 'black'), toSvg('e3'));
  assert.equal(WIDTH, 900);
  assert.equal(HEIGHT, 500);
  assert.throws(() => toSvg('z1'), RangeError);
});

test('SVG positions map back to the nearest point', () => {
  for (const bottom of ['white', 'black']) {
    for (const sq of SQUARES) {
      const { x, y } = toSvg(sq, bottom);
      assert.equal(fromSvg(x + 30, y - 40, bottom), sq);
    }
  }
  assert.equal(fromSvg(-10, 50), null);
  assert.equal(fromSvg(960, 50), null);
});

test('arrow keys move between points as the board is shown', () => {
  assert.equal(screenNeighbour('e3', 'up'), 'e4');
  assert.equal(screenNeighbour('e3', 'up', 'black'), 'e2');
  assert.equal(screenNeighbour('a1', 'left'), 'a1');
  assert.equal(screenNeighbour('a1', 'right', 'black'), 'a1');
  assert.equal(screenNeighbour('a1', 'left', 'black'), 'b1');
});
