import { test } from 'node:test';
import assert from 'node:assert/strict';
import { interpret, Input } from '../../js/input.js';
import { createState, Mode } from '../../js/state-core.js';
import { mode } from '../../js/state-queries.js';
import { receiveState } from '../../js/state-server.js';
import { setInviteLink } from '../../js/state-actions.js';
import { boardView, dragView } from '../../js/state-draw.js';
import { stoneAt } from '../../js/position.js';
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
  assert.equal(out.state.selected, 'e3', 'the capturing stone stays selected');
  assert.equal(mode(out.state), Mode.Locked, 'while the step is on its way');
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

// Every event goes through `interpret`; these follow the page's own
// sequences of events and check the one state that results.
const run = (state, ...events) => events.reduce(
  (acc, e) => {
    const out = interpret(acc.state, e);
    return { state: out.state, intents: out.intent ? [...acc.intents, out.intent] : acc.intents };
  },
  { state, intents: [] },
);

test('hover is kept in the state and previews what a target would take', () => {
  const selected = interpret(start(), { type: Input.Tap, square: 'e2' }).state;
  const over = interpret(selected, { type: Input.Hover, square: 'e3' }).state;
  assert.equal(over.hover, 'e3');
  assert.deepEqual([...boardView(over).preview].sort(), ['e4', 'e5']);
  assert.equal(interpret(over, { type: Input.Hover, square: 'e3' }).state, over, 'the same point changes nothing');
  const away = interpret(over, { type: Input.Hover, square: null }).state;
  assert.equal(away.hover, null);
  assert.equal(boardView(away).preview.size, 0);
});

test('a drag picks the stone up, follows the pointer and plays where it is dropped', () => {
  const { state: held } = run(start(),
    { type: Input.Grab, square: 'f2', x: 10, y: 20, over: 'f2' },
    { type: Input.DragMove, x: 30, y: 40, over: 'e3' });
  assert.equal(held.selected, 'f2');
  assert.deepEqual(held.drag, { square: 'f2', x: 30, y: 40 });
  assert.deepEqual(dragView(held), { x: 30, y: 40, color: 'W' });
  assert.equal(held.hover, 'e3');
  assert.deepEqual([...boardView(held).preview].sort(), ['c5', 'd4']);
  const dropped = interpret(held, { type: Input.Drop, from: 'f2', to: 'e3' });
  assert.equal(dropped.state.drag, null);
  assert.deepEqual(dropped.intent.step, { from: 'f2', to: 'e3', kind: 'approach', captures: ['d4', 'c5'] });
  const lost = interpret(held, { type: Input.DragCancel }).state;
  assert.equal(lost.drag, null);
  assert.equal(dragView(lost), null);
  assert.equal(lost.selected, 'f2', 'a lost drag keeps the selection');
  const nowhere = interpret(held, { type: Input.Drop, from: 'f2', to: 'a5' });
  assert.equal(nowhere.intent, null);
  assert.equal(nowhere.state.drag, null);
});

test('dragging while a line is asked for starts over from the dragged stone', () => {
  const { state: asked } = run(start(), { type: Input.Tap, square: 'd3' }, { type: Input.Tap, square: 'e3' });
  assert.equal(mode(asked), Mode.Choosing);
  const held = interpret(asked, { type: Input.Grab, square: 'e2', x: 0, y: 0, over: 'e2' }).state;
  assert.equal(held.choosing, null);
  assert.equal(held.selected, 'e2');
});

test('selection: a tap selects, a second tap on it or on nothing lets go, another stone takes over', () => {
  let s = interpret(start(), { type: Input.Tap, square: 'd3' }).state;
  assert.equal(s.selected, 'd3');
  s = interpret(s, { type: Input.Tap, square: 'f2' }).state;
  assert.equal(s.selected, 'f2');
  assert.equal(interpret(s, { type: Input.Tap, square: 'f2' }).state.selected, null);
  assert.equal(interpret(s, { type: Input.Tap, square: 'a5' }).state.selected, null);
  const hint = interpret(start(), { type: Input.Tap, square: 'a1' }).state;
  assert.equal(hint.notice.key, 'game.hint.mustCapture', 'an own stone that cannot move says why');
});

test('choosing between approach and withdrawal sends the line tapped', () => {
  const asked = run(start(), { type: Input.Tap, square: 'd3' }, { type: Input.Tap, square: 'e3' }).state;
  assert.deepEqual(asked.choosing.options.map((o) => o.kind), ['approach', 'withdrawal']);
  const approach = interpret(asked, { type: Input.Tap, square: 'f3' });
  assert.equal(approach.intent.step.kind, 'approach');
  const withdrawal = interpret(asked, { type: Input.Tap, square: 'c3' });
  assert.equal(withdrawal.intent.step.kind, 'withdrawal');
  assert.equal(stoneAt(withdrawal.state.board, 'c3'), null);
  const back = interpret(asked, { type: Input.Tap, square: 'e3' });
  assert.equal(back.intent, null);
  assert.equal(mode(back.state), Mode.Selected, 'tapping the target again backs out');
});

test('a chain keeps its stone and ends with End turn', () => {
  const chain = receiveState(start(), gameState({
    position: 'BBBB.BBBB/BBBB.BBBB/BWBWWBWBW/WWWW.WWWW/WWWWWWWWW w 0',
    turn: { stone: 'e3', visited: ['e2', 'e3'], last_direction: 'north', captured: ['e4', 'e5'], notation: 'e2-e3A' },
    legal_steps: [{ from: 'e3', to: 'f4', kind: 'approach', captures: ['g5'] }],
    can_end_turn: true,
    version: 2,
  }));
  assert.equal(mode(chain), Mode.Selected);
  assert.equal(chain.selected, 'e3');
  assert.equal(interpret(chain, { type: Input.Tap, square: 'a1' }).state.selected, 'e3', 'the chain stone stays');
  assert.equal(interpret(chain, { type: Input.Cancel }).state.selected, 'e3');
  const ended = interpret(chain, { type: Input.EndTurn });
  assert.deepEqual(ended.intent, { type: 'end_turn' });
  assert.equal(mode(ended.state), Mode.Locked, 'nothing more until the server answers');
  const more = interpret(chain, { type: Input.Tap, square: 'f4' });
  assert.deepEqual(more.intent.step, { from: 'e3', to: 'f4', kind: 'approach', captures: ['g5'] });
  assert.deepEqual(more.state.turnPath, ['e2', 'e3', 'f4']);
});

test('waiting for the friend the board is locked but hover and the panel still answer', () => {
  const alone = receiveState({ ...createState(), role: 'white' }, gameState({
    players: { white: { joined: true, connected: true }, black: { joined: false, connected: false } },
  }));
  assert.equal(mode(alone), Mode.Locked);
  const { state, intents } = run(alone,
    { type: Input.Tap, square: 'e2' },
    { type: Input.Grab, square: 'e2', x: 1, y: 2, over: 'e2' },
    { type: Input.Drop, from: 'e2', to: 'e3' },
    { type: Input.EndTurn },
    { type: Input.Hover, square: 'e3' },
    { type: Input.Flip });
  assert.deepEqual(intents, []);
  assert.equal(state.selected, null);
  assert.equal(state.drag, null);
  assert.equal(state.hover, 'e3');
  assert.equal(state.flipped, true);
  const joined = receiveState(state, gameState({ version: 2 }));
  assert.equal(mode(joined), Mode.Idle, 'the friend joined: the board takes moves');
});

test('the panel: resign asks first, sound toggles, the history is browsed, offers are sent', () => {
  let s = start();
  s = interpret(s, { type: Input.AskResign }).state;
  assert.equal(s.resignConfirm, true);
  assert.equal(interpret(s, { type: Input.KeepPlaying }).state.resignConfirm, false);
  const resigned = interpret(s, { type: Input.Resign });
  assert.deepEqual(resigned.intent, { type: 'resign' });
  assert.equal(resigned.state.resignConfirm, false);
  assert.equal(interpret(s, { type: Input.Sound, on: false }).state.soundOn, false);
  assert.deepEqual(interpret(s, { type: Input.Send, intent: 'offer_draw' }).intent, { type: 'offer_draw' });
  const played = receiveState(s, gameState({
    position: 'BBBB.BBBB/BBBB.BBBB/BWBWWBWBW/WWWW.WWWW/WWWWWWWWW b 0', side_to_move: 'black',
    moves: ['e2-e3A'], captures: ['e4e5'], version: 3,
  }));
  const back = interpret(played, { type: Input.Browse, by: -1 }).state;
  assert.equal(back.browse, 0);
  assert.equal(mode(back), Mode.Locked, 'no moves while looking back');
  assert.equal(interpret(back, { type: Input.Browse, by: 'last' }).state.browse, null);
  assert.equal(interpret(played, { type: Input.BrowseTo, ply: 0 }).state.browse, 0);
  assert.equal(interpret(back, { type: Input.Browse, by: 'first' }).state.browse, 0);
});

test('a declined draw offer is remembered until the next move', () => {
  const offered = receiveState(start(), gameState({ draw_offer: 'white', version: 2 }));
  const declined = receiveState(offered, gameState({ draw_offer: null, version: 3 }));
  assert.equal(declined.drawDeclinedAt, 0);
  assert.equal(setInviteLink(declined, 'http://x/g/abc?invite=1').inviteLink, 'http://x/g/abc?invite=1');
  assert.equal(setInviteLink(declined, null), declined);
});
