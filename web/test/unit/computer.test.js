// The view state of a game against the computer: its seat, takeback,
// hints and the level, through the same input machine as the board.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createState } from '../../js/state-core.js';
import { canTakeBack, canAskHint, shownLevel, againstComputer, computerThinking, waitingForFriend, isMyTurn } from '../../js/state-queries.js';
import { receiveState, receiveError, receiveHint } from '../../js/state-server.js';
import { boardView } from '../../js/state-draw.js';
import { interpret, Input } from '../../js/input.js';
import { gameState } from './fixtures.js';

const CLUB = { color: 'black', level: 3, name: 'Club', thinking: false };
const AFTER_E2 = 'BBBB.BBBB/BBBB.BBBB/BWBWWBWBW/WWWW.WWWW/WWWWWWWWW';
const OPPONENT_STEPS = [{ from: 'e5', to: 'e4', kind: 'paika', captures: [] }];

function vsComputer(over = {}, role = 'white') {
  return receiveState({ ...createState(), role }, gameState({ computer: CLUB, ...over }));
}

// The person (White) has played e2-e3A and the computer replied f4-f3...
// as far as the move list goes; only `moves` matters here.
const afterOneTurnEach = {
  seq: 4, version: 5, moves: ['e2-e3A', 'd4-e4W'], captures: ['e4e5', 'f4'],
};

const input = (state, event) => interpret(state, event);

test('a game against the computer has no invitation to wait for', () => {
  const alone = vsComputer({ players: { white: { joined: true, connected: true }, black: { joined: false, connected: false } } });
  assert.ok(againstComputer(alone));
  assert.equal(waitingForFriend(alone), false);
  assert.ok(isMyTurn(alone));
  assert.equal(againstComputer(receiveState({ ...createState(), role: 'white' }, gameState())), false);
});

test('the computer thinks only while the game goes on', () => {
  const thinking = { ...CLUB, thinking: true };
  assert.ok(computerThinking(vsComputer({ computer: thinking, side_to_move: 'black' })));
  assert.equal(computerThinking(vsComputer()), false);
  assert.equal(computerThinking(vsComputer({ computer: thinking, result: { winner: 'white', reason: 'no_stones' } })), false);
});

test('takeback needs a completed turn of the player\'s own', () => {
  assert.equal(canTakeBack(vsComputer()), false, 'nothing played yet');
  assert.equal(input(vsComputer(), { type: Input.Takeback }).intent, null);
  // The computer moved first: its turn alone is not the player's to take back.
  const computerFirst = vsComputer({
    computer: { ...CLUB, color: 'white' }, moves: ['e2-e3A'], captures: ['e4e5'], side_to_move: 'black',
  }, 'black');
  assert.equal(canTakeBack(computerFirst), false);
  const s = vsComputer({ ...afterOneTurnEach, position: `${AFTER_E2} w 0` });
  assert.ok(canTakeBack(s));
  const { state, intent } = input({ ...s, selected: 'd3', resignConfirm: true }, { type: Input.Takeback });
  assert.deepEqual(intent, { type: 'takeback' });
  assert.equal(state.selected, null);
  assert.equal(state.resignConfirm, false);
});

test('takeback works during the computer\'s reply and after a game lost on the board, not after resigning', () => {
  const replying = vsComputer({ moves: ['e2-e3A'], captures: ['e4e5'], side_to_move: 'black', computer: { ...CLUB, thinking: true } });
  assert.ok(canTakeBack(replying));
  assert.ok(canTakeBack(vsComputer({ ...afterOneTurnEach, result: { winner: 'black', reason: 'no_legal_step' } })));
  assert.equal(canTakeBack(vsComputer({ ...afterOneTurnEach, result: { winner: 'black', reason: 'resignation' } })), false);
  assert.equal(canTakeBack({ ...vsComputer(afterOneTurnEach), link: 'reconnecting' }), false);
  assert.equal(canTakeBack(vsComputer({ ...afterOneTurnEach, result: { winner: 'black', reason: 'no_stones' }, next_game: 'Zz09aaBBcc' })),
    false, 'not once the next game exists');
  assert.equal(canTakeBack(vsComputer(afterOneTurnEach, 'spectator')), false);
  assert.equal(canTakeBack(receiveState({ ...createState(), role: 'white' }, gameState(afterOneTurnEach))), false,
    'not between people');
});

test('a hint is asked on the player\'s turn and shown on the board', () => {
  assert.equal(canAskHint(vsComputer({ side_to_move: 'black', legal_steps: OPPONENT_STEPS })), false, 'not on the computer\'s turn');
  const { state: asked, intent } = input(vsComputer({ seq: 7 }), { type: Input.Hint });
  assert.deepEqual(intent, { type: 'hint' });
  assert.ok(asked.hintAsked);
  assert.equal(canAskHint(asked), false, 'one at a time');
  const shown = receiveHint(asked, { from: 'd3', to: 'e3', kind: 'approach', turn: 'd3-e3A', endTurn: false });
  assert.equal(shown.hintAsked, null);
  const view = boardView(shown);
  assert.equal(view.hintFrom, 'd3');
  assert.equal(view.hintTo, 'e3');
  assert.ok(canAskHint(shown), 'another may be asked');
});

test('a hint goes when the player plays, and one for an old position never shows', () => {
  const asked = input(vsComputer({ seq: 7 }), { type: Input.Hint }).state;
  const shown = receiveHint(asked, { from: 'e2', to: 'e3', kind: 'approach', turn: 'e2-e3A', endTurn: false });
  let s = input(shown, { type: Input.Tap, square: 'e2' }).state;
  assert.equal(boardView(s).hintFrom, 'e2', 'selecting the stone keeps the hint to follow it');
  s = input(s, { type: Input.Tap, square: 'e3' }).state;
  assert.equal(s.hint, null, 'the step sent clears it');
  assert.equal(boardView(s).hintFrom, null);

  // The position moved on (here: a takeback to another position).
  const other = { computer: CLUB, seq: 9, version: 9, position: `${AFTER_E2} w 2` };
  const moved = receiveState(asked, gameState(other));
  assert.equal(moved.hintAsked, null);
  assert.equal(receiveHint(moved, { from: 'e2', to: 'e3', kind: 'approach', turn: null, endTurn: false }).hint, null);
  // The hint is a stored action: the state that follows it has the next
  // seq but the same position, and the hint stays.
  const sameSpot = receiveState(shown, gameState({ computer: CLUB, seq: 8, version: 9 }));
  assert.ok(sameSpot.hint, 'a state of the same position (the hint stored, thinking, presence) keeps it');
  assert.ok(receiveHint(receiveState(asked, gameState({ computer: CLUB, seq: 8, version: 9 })),
    { from: 'e2', to: 'e3', kind: 'approach', turn: null, endTurn: false }).hint, 'also when the state comes first');
  const changed = receiveState(shown, gameState(other));
  assert.equal(changed.hint, null);
  const chain = receiveState(shown, gameState({
    computer: CLUB, seq: 8, version: 10,
    turn: { stone: 'e3', visited: ['e2', 'e3'], last_direction: 'north', captured: ['e4', 'e5'], notation: 'e2-e3A' },
  }));
  assert.equal(chain.hint, null, 'a step of a chain is another position');
});

test('a hint to end the turn marks nothing on the board; a refused hint can be asked again', () => {
  const asked = input(vsComputer({ seq: 3 }), { type: Input.Hint }).state;
  const end = receiveHint(asked, { from: null, to: null, kind: null, turn: null, endTurn: true });
  assert.ok(end.hint.endTurn);
  assert.equal(boardView(end).hintFrom, null);
  const refused = receiveError(asked, { code: 'not_your_turn', message: 'not your turn' });
  assert.equal(refused.hintAsked, null);
  assert.ok(canAskHint(refused));
});

test('choosing a level shows it at once and sends it; the server confirms it', () => {
  const s = vsComputer();
  assert.equal(shownLevel(s), 3);
  assert.equal(input(s, { type: Input.Level, level: 3 }).intent, null, 'the same level sends nothing');
  assert.equal(input(s, { type: Input.Level, level: 9 }).intent, null);
  const { state, intent } = input(s, { type: Input.Level, level: 5 });
  assert.deepEqual(intent, { type: 'set_level', level: 5 });
  assert.equal(shownLevel(state), 5);
  const confirmed = receiveState(state, gameState({ computer: { ...CLUB, level: 5, name: 'Expert' }, version: 2 }));
  assert.equal(confirmed.levelAsked, null);
  assert.equal(shownLevel(confirmed), 5);
  const refused = receiveError(state, { code: 'not_against_computer', message: '' });
  assert.equal(shownLevel(refused), 3, 'a refusal puts the level back');
  assert.equal(input(vsComputer({}, 'spectator'), { type: Input.Level, level: 5 }).intent, null);
});

test('the computer\'s turn in progress is drawn with its path and ghosts of what it took', () => {
  const s = vsComputer({
    side_to_move: 'black',
    legal_steps: [],
    computer: { ...CLUB, thinking: true },
    turn: { stone: 'd3', visited: ['e2', 'e3', 'd3'], last_direction: 'west', captured: ['e4', 'c3'], notation: 'e2-e3A-d3A' },
  });
  const view = boardView(s);
  assert.deepEqual(view.path, ['e2', 'e3', 'd3']);
  assert.deepEqual(view.captured, ['e4', 'c3']);
  const mine = vsComputer({
    turn: { stone: 'e3', visited: ['e2', 'e3'], last_direction: 'north', captured: ['e4', 'e5'], notation: 'e2-e3A' },
    legal_steps: [{ from: 'e3', to: 'f4', kind: 'approach', captures: ['g5'] }],
    can_end_turn: true,
  });
  assert.deepEqual(boardView(mine).captured, [], 'the player\'s own turn keeps the board clear');
});
