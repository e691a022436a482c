import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  START_POSITION, parsePosition, positionText, stoneAt, turnPath, applyStep, replay, countStones,
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

test('a turn\'s path is read from its notation', () => {
  assert.deepEqual(turnPath('d3-e3A-e4W'), ['d3', 'e3', 'e4']);
  assert.deepEqual(turnPath('e2-e3'), ['e2', 'e3']);
  for (const bad of ['d3', 'j3-e3A', 'd3-e3X', 'd3-', '', null]) assert.equal(turnPath(bad), null, String(bad));
});

test('applying a step moves the stone and removes the captures on a copy', () => {
  const { board } = parsePosition(START_POSITION);
  const next = applyStep(board, { from: 'd3', to: 'e3', captures: ['f3'] });
  assert.equal(stoneAt(next, 'e3'), 'W');
  assert.equal(stoneAt(next, 'd3'), null);
  assert.equal(stoneAt(next, 'f3'), null);
  assert.equal(stoneAt(board, 'd3'), 'W', 'the original is untouched');
});

test('replaying moves each stone along its path and removes what the server says it took', () => {
  const plies = replay(START_POSITION, ['d3-e3A', 'f4-f3'], [['f3'], []]);
  assert.equal(plies.length, 3);
  assert.equal(plies[1].turn, 'black');
  assert.deepEqual(plies[1].captured, ['f3']);
  assert.deepEqual(plies[1].path, ['d3', 'e3']);
  assert.equal(stoneAt(plies[1].board, 'e3'), 'W');
  assert.equal(stoneAt(plies[1].board, 'd3'), null);
  assert.equal(stoneAt(plies[1].board, 'f3'), null);
  assert.equal(plies[1].quiet, 0);
  assert.equal(plies[2].quiet, 1);
  assert.equal(stoneAt(plies[2].board, 'f3'), 'B');
  assert.equal(stoneAt(plies[2].board, 'f4'), null);
  assert.equal(plies[2].notation, 'f4-f3');
  assert.equal(stoneAt(plies[0].board, 'f3'), 'B', 'the start is untouched');
});

test('a chain lands its stone on the last point and removes every stone the turn took', () => {
  const start = '........./....B..../....WBB../........./......... w 0';
  const [, after] = replay(start, ['e3-d3W-d4A'], [['f3', 'g3', 'e5']]);
  assert.deepEqual(after.path, ['e3', 'd3', 'd4']);
  assert.equal(stoneAt(after.board, 'd4'), 'W');
  for (const sq of ['e3', 'd3', 'f3', 'g3', 'e5']) assert.equal(stoneAt(after.board, sq), null, sq);
});

test('replay takes the server\'s word for what a turn took', () => {
  const [, after] = replay(START_POSITION, ['d3-e3A'], [['f3', 'g3']]);
  assert.equal(stoneAt(after.board, 'g3'), null, 'no rule is checked: the listed points go');
});

test('replay stops at a turn it cannot read', () => {
  assert.equal(replay(START_POSITION, ['d3-e3A', 'f4-f3'], [['f3']]).length, 2, 'nothing said about the second turn');
  assert.equal(replay(START_POSITION, ['a5-a4'], [[]]).length, 1, 'not the side to move');
  assert.equal(replay(START_POSITION, ['e3-e2'], [[]]).length, 1, 'no stone on the first point');
  assert.equal(replay(START_POSITION, ['d3-e3X'], [['f3']]).length, 1, 'not notation');
  assert.equal(replay('nonsense', [], []).length, 0);
});
