// What the board draws of a turn, worked out without a DOM: the order in
// which taken stones fade, the arrows of the last turn, the buttons for
// the two lines of one step, and the stones each side has taken.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nearestFirst, toSvg } from '../../js/geometry.js';
import { arrows } from '../../js/svg.js';
import { fadeOrder, choiceButtons } from '../../js/render.js';
import { parsePosition, applyStep } from '../../js/position.js';
import { translatorFor } from '../catalogs.js';
import { takenBy } from '../../js/panel.js';
import { createState } from '../../js/state-core.js';
import { receiveState } from '../../js/state-server.js';
import { boardView } from '../../js/state-draw.js';
import { interpret, Input } from '../../js/input.js';
import { gameState } from './fixtures.js';

const t = translatorFor('en');
const board = (text) => parsePosition(`${text} w`).board;

test('stones are ordered by their distance along the lines, nearest first', () => {
  assert.deepEqual(nearestFirst(['a3', 'b3', 'c3'], 'e3'), ['c3', 'b3', 'a3']);
  assert.deepEqual(nearestFirst(['g5', 'f4'], 'e3'), ['f4', 'g5'], 'diagonals count one step a point');
  assert.deepEqual(nearestFirst(['e5', 'c3', 'e4'], 'e3'), ['e4', 'e5', 'c3'], 'equal distances keep their order');
});

test('taken stones fade nearest to the capturing stone first; the stone that moved does not fade', () => {
  // d3-e3 by withdrawal takes c3, b3 and a3; the server lists them a3 first.
  const before = board('........./........./BBBW...../........./.........');
  const after = applyStep(before, { from: 'd3', to: 'e3', captures: ['a3', 'b3', 'c3'] });
  assert.deepEqual(fadeOrder(before, after, ['d3', 'e3']), ['c3', 'b3', 'a3']);
  // An approach: e2-e3 takes e4 and e5, then the chain goes on to d3
  // and takes c3: the second step's stone fades alone, from d3.
  const start = board('....B..../....B..../..B....../....W..../.........');
  const first = applyStep(start, { from: 'e2', to: 'e3', captures: ['e5', 'e4'] });
  assert.deepEqual(fadeOrder(start, first, ['e2', 'e3']), ['e4', 'e5']);
  const second = applyStep(first, { from: 'e3', to: 'd3', captures: ['c3'] });
  assert.deepEqual(fadeOrder(first, second, ['e2', 'e3', 'd3']), ['c3']);
  assert.deepEqual(fadeOrder(first, first, ['e2', 'e3']), [], 'nothing fades when nothing went');
});

test('the path of a turn is an arrow per step, each head short of its landing point', () => {
  const points = ['c4', 'c3', 'b3'].map((sq) => toSvg(sq));
  const { lines, heads } = arrows(points, 35, 20);
  assert.equal(lines, 'M250 150L250 195M250 250L205 250', 'each line stops where its head begins');
  assert.equal(heads.match(/Z/g).length, 2, 'one head per step');
  assert.ok(heads.startsWith('M250 215L'), `the first head's tip stops 35 above c3: ${heads}`);
  assert.ok(heads.includes('M185 250L'), `the second head's tip stops 35 right of b3: ${heads}`);
  const diagonal = arrows([toSvg('a1'), toSvg('b2')], 0, 10);
  assert.match(diagonal.heads, /^M150 350L/, 'with no gap the tip is on the point');
  assert.deepEqual(arrows([toSvg('a1')], 35), { lines: '', heads: '' }, 'a path of one point draws nothing');
});

test('the two line buttons name the first stone of each line and the kind of capture', () => {
  const view = {
    choice: [['f3', 'g3'], ['a3', 'b3', 'c3']], choiceKinds: ['approach', 'withdrawal'], choiceTo: 'e3',
  };
  assert.deepEqual(choiceButtons(view, t), [
    { square: 'f3', text: 'Take f3 · approach' },
    { square: 'c3', text: 'Take c3 · withdrawal' },
  ]);
  assert.deepEqual(choiceButtons({ choice: null }, t), [], 'no buttons when no line is asked for');
  // From the page's own state: White picks d3, then e3, in the opening.
  const tap = (s, square) => interpret(s, { type: Input.Tap, square }).state;
  const asked = tap(tap(receiveState({ ...createState(), role: 'white' }, gameState()), 'd3'), 'e3');
  assert.deepEqual(choiceButtons(boardView(asked), t).map((b) => b.text), ['Take f3 · approach', 'Take c3 · withdrawal']);
  const over = interpret(asked, { type: Input.Hover, square: 'e3' }).state;
  assert.equal(boardView(over).preview.size, 0, 'the two lines are not dimmed as a preview while they are chosen');
});

test('the last turn is shown alike to both players and a spectator, until the next turn begins', () => {
  const over = {
    position: 'BBBB.BBBB/BBBB.BBBB/BWBWWBWBW/WWWW.WWWW/WWWWWWWWW b 0',
    side_to_move: 'black',
    legal_steps: [{ from: 'f4', to: 'e4', kind: 'paika', captures: [] }],
    moves: ['e2-e3A'],
    captures: ['e4e5'],
    last_turn: { notation: 'e2-e3A', path: ['e2', 'e3'], captured: ['e4', 'e5'] },
  };
  for (const role of ['white', 'black', 'spectator']) {
    const view = boardView(receiveState({ ...createState(), role }, gameState(over)));
    assert.deepEqual(view.path, ['e2', 'e3'], role);
    assert.deepEqual(view.captured, ['e4', 'e5'], role);
  }
  const black = receiveState({ ...createState(), role: 'black' }, gameState(over));
  const begun = interpret(interpret(black, { type: Input.Tap, square: 'f4' }).state, { type: Input.Tap, square: 'e4' }).state;
  assert.deepEqual(boardView(begun).path, ['f4', 'e4'], 'the new turn draws its own path');
  assert.deepEqual(boardView(begun).captured, [], 'and the marks of the last turn\'s captures go');
});

test('each side\'s count of taken stones is what the other side has lost since the start', () => {
  const s = (over) => receiveState({ ...createState(), role: 'spectator' }, gameState(over));
  assert.equal(takenBy(s({}), 'white'), 0);
  const later = s({ position: 'BBBB.BBBB/BBBB.BBBB/BWBWWBWBW/WWWW.WWWW/WWWWWWWWW b 0', side_to_move: 'black' });
  assert.equal(takenBy(later, 'white'), 2);
  assert.equal(takenBy(later, 'black'), 0, 'a stone that moved is not taken');
  const set = 'WW......./........./........./........./.......BB w 0';
  const few = s({ start_position: set, position: 'WW......./........./........./........./........B b 0', side_to_move: 'black' });
  assert.equal(takenBy(few, 'white'), 1, 'counted from the game\'s own start');
});
