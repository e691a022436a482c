// The rules page's boards without a browser: what a board asks for, the
// game it plays in, how a finished turn is judged and why, and the line
// under the board. The answers of GET /api/steps are written as the
// server sends them (docs/API.md).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  readTask, lessonGame, turnWith, endedTurn, finishedTurn, judge, sayLine,
} from '../../js/lesson.js';
import { createState } from '../../js/state-core.js';
import { canAct, movableStones } from '../../js/state-queries.js';
import { receiveState } from '../../js/state-server.js';
import { interpret, Input } from '../../js/input.js';
import { readSteps, stepsUrl } from '../../js/protocol.js';
import { translatorFor } from '../catalogs.js';

const tap = (state, square) => interpret(state, { type: Input.Tap, square });

// White's b3-c3 takes d3 by approach or a3 by withdrawal; from c3 the
// stone may go on to take c5.
const CHAIN = '..B....../........./BW.B...../........./......... w';
const START_ANSWER = {
  position: `${CHAIN} 0`,
  side_to_move: 'white',
  turn: null,
  legal_steps: [
    { from: 'b3', to: 'c3', kind: 'approach', captures: ['d3'] },
    { from: 'b3', to: 'c3', kind: 'withdrawal', captures: ['a3'] },
  ],
  refused_steps: [
    { from: 'b3', to: 'b4', reason: 'capture_required' },
    { from: 'b3', to: 'b2', reason: 'capture_required' },
  ],
  can_end_turn: false,
  last_turn: null,
  result: null,
};
const CHAIN_ANSWER = {
  position: '..B....../........./B.W....../........./......... w 0',
  side_to_move: 'white',
  turn: { stone: 'c3', visited: ['b3', 'c3'], last_direction: 'east', captured: ['d3'], notation: 'b3-c3A' },
  legal_steps: [{ from: 'c3', to: 'c4', kind: 'approach', captures: ['c5'] }],
  refused_steps: [
    { from: 'c3', to: 'd3', reason: 'only_captures_continue' },
    { from: 'c3', to: 'b3', reason: 'revisits_point' },
  ],
  can_end_turn: true,
  last_turn: null,
  result: null,
};
const DONE_ANSWER = {
  ...CHAIN_ANSWER,
  position: '........./..W....../B......../........./......... b 0',
  side_to_move: 'black',
  turn: null,
  legal_steps: [],
  refused_steps: [],
  can_end_turn: false,
  last_turn: { notation: 'b3-c3A-c4A', path: ['b3', 'c3', 'c4'], captured: ['d3', 'c5'] },
};

const playing = (answer) => receiveState({ ...createState(), role: 'white' }, lessonGame(answer, CHAIN));
const task = (expect, wrong) => readTask({ position: CHAIN, expect, wrong });

test('a board reads its position and its right turns, and nothing without them', () => {
  assert.deepEqual(readTask({ position: CHAIN, expect: ' b3-c3A  b3-c3A-c4A ', wrong: 'rules.chain.tryWrong' }), {
    position: CHAIN, expect: ['b3-c3A', 'b3-c3A-c4A'], wrong: 'rules.chain.tryWrong',
  });
  assert.deepEqual(readTask({ position: CHAIN, expect: 'b3-c3A nonsense' }).expect, ['b3-c3A']);
  assert.equal(readTask({ position: CHAIN, expect: 'nonsense' }), null);
  assert.equal(readTask({ expect: 'b3-c3A' }), null);
});

test('the steps answer is read as a state with its refused steps; malformed ones are dropped', () => {
  const junk = [{ from: 'z9', to: 'b4', reason: 'occupied' }, { from: 'b3', to: 'b4', reason: 'Not A Code' }, null];
  const game = readSteps({ ...START_ANSWER, refused_steps: [...START_ANSWER.refused_steps, ...junk] });
  assert.equal(game.turn, 'white');
  assert.equal(game.steps.length, 2);
  assert.deepEqual(game.refused, START_ANSWER.refused_steps);
  assert.deepEqual(readSteps({}).refused, []);
  const query = 'position=..B......%2F.........%2FBW.B.....%2F.........%2F.........+w';
  assert.equal(stepsUrl(CHAIN, 'b3-c3A'), `/api/steps?${query}&turn=b3-c3A`);
  assert.equal(stepsUrl(CHAIN), `/api/steps?${query}`);
});

test('the reader plays the side to move, with the game page\'s own transitions', () => {
  let s = playing(START_ANSWER);
  assert.ok(canAct(s), 'nobody is waited for');
  assert.deepEqual(movableStones(s), ['b3']);
  ({ state: s } = tap(s, 'b3'));
  const asked = tap(s, 'c3');
  assert.equal(asked.intent, null, 'two lines: the line is asked for first');
  const { state, intent } = tap(asked.state, 'd3');
  assert.deepEqual(intent, { type: 'step', step: { from: 'b3', to: 'c3', kind: 'approach', captures: ['d3'] } });
  assert.equal(turnWith(s.game, intent.step), 'b3-c3A');
  const next = receiveState(state, lessonGame(CHAIN_ANSWER, CHAIN));
  assert.equal(turnWith(next.game, { from: 'c3', to: 'c4', kind: 'approach' }), 'b3-c3A-c4A');
  assert.equal(turnWith(next.game, { from: 'c3', to: 'c2', kind: 'paika' }), 'b3-c3A-c2');
});

test('a step the rules refuse is explained, and the board stays as it was', () => {
  let s = playing(START_ANSWER);
  ({ state: s } = tap(s, 'b3'));
  const paika = tap(s, 'b4');
  assert.equal(paika.intent, null);
  assert.deepEqual(paika.state.notice, { key: 'error.capture_required', error: true });
  assert.equal(paika.state.selected, 'b3');
  assert.equal(paika.state.board, s.board);
  const chain = playing(CHAIN_ANSWER);
  const back = tap(chain, 'b3');
  assert.deepEqual(back.state.notice, { key: 'error.revisits_point', error: true });
  // A point the stone cannot reach at all is no refused step: nothing is said.
  assert.equal(tap(chain, 'h1').state.notice, null);
});

test('ending the turn makes it the last turn; a finished turn is read from the answer', () => {
  const chain = lessonGame(CHAIN_ANSWER, CHAIN);
  assert.equal(finishedTurn(chain), null, 'the turn goes on');
  const ended = endedTurn(chain);
  assert.equal(ended.turn, 'black');
  assert.equal(ended.chain, null);
  assert.deepEqual(ended.steps, []);
  assert.deepEqual(ended.lastTurn, { notation: 'b3-c3A', path: ['b3', 'c3'], captured: ['d3'] });
  assert.deepEqual(finishedTurn(ended), { notation: 'b3-c3A', captured: ['d3'] });
  assert.deepEqual(finishedTurn(lessonGame(DONE_ANSWER, CHAIN)), { notation: 'b3-c3A-c4A', captured: ['d3', 'c5'] });
  assert.equal(finishedTurn(lessonGame(START_ANSWER, CHAIN)), null, 'nothing played yet');
  const s = receiveState(playing(CHAIN_ANSWER), ended);
  assert.equal(canAct(s), false, 'the board takes no more steps');
});

test('the right turn is right, and says what it took', () => {
  assert.deepEqual(judge(task('b3-c3A-c4A'), { notation: 'b3-c3A-c4A', captured: ['d3', 'c5'] }), {
    right: true, key: 'rules.try.right', params: { turn: 'b3-c3A-c4A', count: 2 },
  });
  assert.deepEqual(judge(task('e2-e3'), { notation: 'e2-e3', captured: [] }).key, 'rules.try.rightPaika');
  assert.equal(judge(task('b3-c3W b3-c3A'), { notation: 'b3-c3A', captured: ['d3'] }).right, true);
});

test('a turn that stopped short of the right one says so', () => {
  assert.deepEqual(judge(task('b3-c3A-c4A'), { notation: 'b3-c3A', captured: ['d3'] }), {
    right: false, key: 'rules.try.stopped', params: { turn: 'b3-c3A', count: 1 },
  });
});

test('a turn that went on past the right one says the task was to stop', () => {
  assert.deepEqual(judge(task('b3-c3A'), { notation: 'b3-c3A-c4A', captured: ['d3', 'c5'] }), {
    right: false, key: 'rules.try.continued', params: { turn: 'b3-c3A-c4A', count: 1 },
  });
});

test('a capture of the other kind says which kind it was', () => {
  assert.deepEqual(judge(task('b3-c3W'), { notation: 'b3-c3A', captured: ['d3'] }), {
    right: false, key: 'rules.try.wrongKind.approach', params: { turn: 'b3-c3A', count: 1 },
  });
  assert.equal(judge(task('d2-e3A'), { notation: 'b1-c1W', captured: ['a1'] }).key, 'rules.try.wrongKind.withdrawal');
});

test('any other turn gets the board\'s own message, or the general one', () => {
  const made = { notation: 'c2-c3', captured: [] };
  assert.deepEqual(judge(task('d2-e3', 'rules.move.tryWrong'), made), {
    right: false, key: 'rules.move.tryWrong', params: { turn: 'c2-c3', count: 0 },
  });
  assert.equal(judge(task('d2-e3'), made).key, 'rules.try.other');
  // Same first kind, another path: not a question of kind.
  assert.equal(judge(task('d3-e3W-e4A-d4A'), { notation: 'd3-e3W-f4W', captured: ['c3', 'd2'] }).key, 'rules.try.other');
});

test('the line under the board: the verdict, else the refusal explained, else what to do', () => {
  const start = playing(START_ANSWER);
  assert.deepEqual(sayLine(start, null), { key: 'game.hint.move', tone: '' });
  const selected = tap(start, 'b3').state;
  assert.deepEqual(sayLine(selected, null), { key: 'game.hint.selected', tone: '' });
  assert.deepEqual(sayLine(tap(selected, 'c3').state, null), { key: 'game.hint.chooseLine', tone: '' });
  assert.deepEqual(sayLine(tap(selected, 'c3').state, null, false), { key: 'game.hint.chooseLineClick', tone: '' },
    'a mouse or a keyboard clicks');
  assert.deepEqual(sayLine(tap(selected, 'b4').state, null), { key: 'rules.try.mustCapture', tone: 'wrong' });
  const chain = playing(CHAIN_ANSWER);
  assert.deepEqual(sayLine(chain, null), { key: 'game.hint.chain', tone: '' });
  assert.deepEqual(sayLine(tap(chain, 'b3').state, null), { key: 'rules.try.revisits', tone: 'wrong' });
  assert.deepEqual(sayLine(tap(chain, 'd3').state, null), { key: 'rules.try.onlyCaptures', tone: 'wrong' });
  const verdict = judge(task('b3-c3A-c4A'), { notation: 'b3-c3A', captured: ['d3'] });
  assert.deepEqual(sayLine(chain, verdict), { key: 'rules.try.stopped', params: verdict.params, tone: 'wrong' });
  assert.equal(sayLine(chain, { ...verdict, right: true }).tone, 'right');
});

test('every sentence a board can say is in the catalogue, with its numbers filled in', () => {
  const t = translatorFor('en');
  const keys = [
    'rules.try.right', 'rules.try.rightPaika', 'rules.try.stopped', 'rules.try.continued', 'rules.try.other',
    'rules.try.wrongKind.approach', 'rules.try.wrongKind.withdrawal', 'rules.try.mustCapture', 'rules.try.repeats',
    'rules.try.revisits', 'rules.try.onlyCaptures', 'rules.move.tryWrong', 'rules.chain.tryWrong',
  ];
  for (const key of keys) {
    for (const count of [1, 2]) {
      const text = t(key, { turn: 'd3-e3A', count });
      assert.notEqual(text, key, `${key} is in the catalogue`);
      assert.doesNotMatch(text, /[{}]/, `${key} fills every placeholder`);
    }
  }
  assert.equal(t('rules.try.right', { turn: 'd3-e3A', count: 1 }), 'Right: d3-e3A takes 1 stone.');
  assert.equal(t('rules.try.right', { turn: 'd3-e3A', count: 2 }), 'Right: d3-e3A takes 2 stones.');
});
