import { test } from 'node:test';
import assert from 'node:assert/strict';
import { interpret, Input } from '../../js/input.js';
import { createState, receiveState, mode, Mode } from '../../js/state.js';
import { gameState } from './fixtures.js';

const start = () => receiveState({ ...createState(), role: 'white' }, gameState());

test('idle -> selected -> choosing-capture -> a step intent', () => {
  let s = start();
  assert.equal(mode(s), Mode.Idle);
  ({ state: s } = interpret(s, { type: Input.Tap, square: 'd3' }));
  assert.equal(mode(s), Mode.Selected);
  ({ state: s } = interpret(s, { type: Input.Tap, square: 'e3' }));
  assert.equal(mode(s), Mode.Choosing);
  const out = interpret(s, { type: Input.Tap, square: 'f3' });
  assert.deepEqual(out.intent.step, { from: 'd3', to: 'e3', kind: 'approach', captures: ['f3'] });
  assert.equal(mode(out.state), Mode.Selected, 'the capturing stone stays selected');
});

test('Escape backs out one level at a time', () => {
  let s = interpret(interpret(start(), { type: Input.Tap, square: 'd3' }).state, { type: Input.Tap, square: 'e3' }).state;
  s = interpret(s, { type: Input.Cancel }).state;
  assert.equal(mode(s), Mode.Selected);
  s = interpret(s, { type: Input.Cancel }).state;
  assert.equal(mode(s), Mode.Idle);
});

test('grabbing a stone selects it without toggling, and a drop plays', () => {
  let s = interpret(start(), { type: Input.Grab, square: 'e2' }).state;
  assert.equal(s.selected, 'e2');
  s = interpret(s, { type: Input.Grab, square: 'e2' }).state;
  assert.equal(s.selected, 'e2', 'grabbing the selected stone keeps it');
  const out = interpret(s, { type: Input.Drop, from: 'e2', to: 'e3' });
  assert.equal(out.intent.type, 'step');
});

test('End turn is ignored while choosing a line and before any capture', () => {
  const choosing = interpret(interpret(start(), { type: Input.Tap, square: 'd3' }).state, { type: Input.Tap, square: 'e3' }).state;
  assert.equal(interpret(choosing, { type: Input.EndTurn }).intent, null);
  assert.equal(interpret(start(), { type: Input.EndTurn }).intent, null);
  assert.equal(interpret(start(), { type: 'unknown' }).intent, null);
});
