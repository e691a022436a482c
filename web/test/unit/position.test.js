import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  START_POSITION, parsePosition, positionText, stoneAt, parseTurn, turnText, capturedBy,
  applyStep, replay, countStones,
} from '../../js/position.js';

test('the start position reads and writes back', () => {
  const pos = parsePosition(START_POSITION);
  assert.equal(pos.turn, 'white');
  assert.equal(pos.quiet, 0);
  assert.equal(stoneAt(pos.board, 'a1'), 'W');
  assert.equal(stoneAt(pos.board, 'a3'), 'B');
  assert.equal(stoneAt(pos.board, 'b3'), 'W');
  assert.equal(stoneAt(pos.board, 'e3'), null);
  assert.equal(stoneAt(pos.board, 'i5'), 'B');
  assert.deepEqual(countStones(pos.board), { white: 22, black: 22 });
  assert.equal(positionText(pos), START_POSITION);
});

test('a missing counter means zero and the side to move is kept', () => {
  const pos = parsePosition('........./........./....W..../........./......... b');
  assert.equal(pos.turn, 'black');
  assert.equal(pos.quiet, 0);
  assert.equal(positionText({ ...pos, quiet: 12 }), '........./........./....W..../........./......... b 12');
});

test('malformed position text is refused', () => {
  for (const bad of [
    '', 'w', 'BBBBBBBBB/BBBBBBBBB/BWBW.BWBW/WWWWWWWWW w',
    'BBBBBBBBB/BBBBBBBBB/BWBW.BWBW/WWWWWWWWW/WWWWWWWW w',
    'BBBBBBBBB/BBBBBBBBB/BWBWxBWBW/WWWWWWWWW/WWWWWWWWW w',
    'BBBBBBBBB/BBBBBBBBB/BWBW.BWBW/WWWWWWWWW/WWWWWWWWW x',
    'BBBBBBBBB/BBBBBBBBB/BWBW.BWBW/WWWWWWWWW/WWWWWWWWW w -1',
    'BBBBBBBBB/BBBBBBBBB/BWBW.BWBW/WWWWWWWWW/WWWWWWWWW w 0 extra',
    null,
  ]) {
    assert.equal(parsePosition(bad), null, String(bad));
  }
});

test('turn notation reads origin, landings and kinds', () => {
  assert.deepEqual(parseTurn('d3-e3A-e4W'), {
    origin: 'd3',
    landings: [{ to: 'e3', kind: 'approach' }, { to: 'e4', kind: 'withdrawal' }],
  });
  assert.deepEqual(parseTurn('e2-e3'), { origin: 'e2', landings: [{ to: 'e3', kind: 'paika' }] });
  assert.equal(parseTurn('d3-e3A-e4'), null, 'a paika never follows a capture');
  assert.equal(parseTurn('d3'), null);
  assert.equal(parseTurn('j3-e3A'), null);
  assert.equal(parseTurn('d3-e3X'), null);
  assert.equal(turnText('d3', [{ to: 'e3', kind: 'approach' }, { to: 'e4', kind: 'withdrawal' }]), 'd3-e3A-e4W');
});

test('the opening captures take the lines the rules say', () => {
  const { board } = parsePosition(START_POSITION);
  assert.deepEqual(capturedBy(board, 'd3', 'e3', 'approach'), ['f3']);
  assert.deepEqual(capturedBy(board, 'd3', 'e3', 'withdrawal'), ['c3']);
  assert.deepEqual(capturedBy(board, 'e2', 'e3', 'approach'), ['e4', 'e5']);
  assert.deepEqual(capturedBy(board, 'd2', 'e3', 'approach'), ['f4', 'g5']);
  assert.deepEqual(capturedBy(board, 'f2', 'e3', 'approach'), ['d4', 'c5']);
  assert.deepEqual(capturedBy(board, 'e2', 'e3', 'withdrawal'), [], 'e1 is white');
  assert.deepEqual(capturedBy(board, 'e2', 'e3', 'paika'), []);
});

test('a capture stops at the first gap, own stone or edge', () => {
  const { board } = parsePosition('........./........./...WBB.BB/........./......... w');
  assert.deepEqual(capturedBy(board, 'd3', 'c3', 'withdrawal'), ['e3', 'f3']);
  const edge = parsePosition('........./........./.W..BBBBB/........./......... w').board;
  assert.deepEqual(capturedBy(edge, 'b3', 'c3', 'withdrawal'), []);
  assert.deepEqual(capturedBy(edge, 'b3', 'c3', 'approach'), [], 'd3 is empty');
  const own = parsePosition('........./........./..W.BBWBB/........./......... w').board;
  assert.deepEqual(capturedBy(own, 'c3', 'd3', 'approach'), ['e3', 'f3']);
});

test('applying a step moves the stone and removes the captures on a copy', () => {
  const { board } = parsePosition(START_POSITION);
  const next = applyStep(board, { from: 'd3', to: 'e3', captures: ['f3'] });
  assert.equal(stoneAt(next, 'e3'), 'W');
  assert.equal(stoneAt(next, 'd3'), null);
  assert.equal(stoneAt(next, 'f3'), null);
  assert.equal(stoneAt(board, 'd3'), 'W', 'the original is untouched');
});

test('replaying turns gives every position with its path and captures', () => {
  const plies = replay(START_POSITION, ['d3-e3A', 'f4-f3']);
  assert.equal(plies.length, 3);
  assert.equal(plies[1].turn, 'black');
  assert.deepEqual(plies[1].captured, ['f3']);
  assert.deepEqual(plies[1].path, ['d3', 'e3']);
  assert.equal(plies[1].quiet, 0);
  assert.equal(plies[2].quiet, 1);
  assert.equal(stoneAt(plies[2].board, 'f3'), 'B');
  assert.equal(plies[2].notation, 'f4-f3');
});

test('replay stops at a turn that cannot be applied', () => {
  assert.equal(replay(START_POSITION, ['e2-e3', 'a1-a2']).length, 2, 'e2-e3 is a capture, written as a paika it is kept');
  assert.equal(replay(START_POSITION, ['a5-a4']).length, 1, 'not the side to move');
  assert.equal(replay(START_POSITION, ['d3-e3W-e4A']).length, 1, 'e4 is occupied');
  assert.equal(replay(START_POSITION, ['a1-b2A']).length, 1, 'b2 is occupied');
  assert.equal(replay('nonsense', []).length, 0);
});
