import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Mode, createState } from '../../js/state-core.js';
import {
  movableStones, mustCapture, mode, bottomColor, canAct, sideOfTurn, drawOfferNews, isMyTurn, waitingForFriend, messagesToShow,
} from '../../js/state-queries.js';
import { stateFromPosition, receiveState, receiveError, receiveWelcome, setLink, gameNotFound } from '../../js/state-server.js';
import { drop, endTurn, cancel, hover } from '../../js/state-board.js';
import { flip, browseBy, browseTo } from '../../js/state-actions.js';
import { boardView } from '../../js/state-draw.js';
import { interpret, Input } from '../../js/input.js';
import { stoneAt } from '../../js/position.js';
import { gameState } from './fixtures.js';

// A tap goes through the input machine, as on the page.
const tap = (state, square) => interpret(state, { type: Input.Tap, square });

function playing(role = 'white', over = {}) {
  return receiveState({ ...createState(), role }, gameState(over));
}

const AFTER_E2 = 'BBBB.BBBB/BBBB.BBBB/BWBWWBWBW/WWWW.WWWW/WWWWWWWWW w 0';

test('on your turn the capturing stones are the movable ones', () => {
  const s = playing();
  assert.deepEqual(movableStones(s).sort(), ['d2', 'd3', 'e2', 'f2']);
  assert.ok(mustCapture(s));
  assert.equal(mode(s), Mode.Idle);
});

test('nothing is movable for the other side, a spectator, or when the game is over', () => {
  assert.deepEqual(movableStones(playing('black')), []);
  assert.deepEqual(movableStones(playing('spectator')), []);
  assert.deepEqual(movableStones(playing('white', { result: { winner: 'black', reason: 'resignation' } })), []);
  assert.equal(tap(playing('black'), 'e6').intent, null);
});

test('a step with one capture is sent at once and shown before the server answers', () => {
  let s = playing();
  ({ state: s } = tap(s, 'e2'));
  assert.equal(s.selected, 'e2');
  assert.equal(mode(s), Mode.Selected);
  const { state, intent } = tap(s, 'e3');
  assert.deepEqual(intent, { type: 'step', step: { from: 'e2', to: 'e3', kind: 'approach', captures: ['e4', 'e5'] } });
  assert.equal(stoneAt(state.board, 'e3'), 'W');
  assert.equal(stoneAt(state.board, 'e4'), null);
  assert.equal(stoneAt(state.board, 'e5'), null);
  assert.ok(state.pending);
  assert.equal(canAct(state), false, 'no second step while one is on its way');
});

test('a step that can take either line asks for the line, then takes the tapped one', () => {
  let s = tap(playing(), 'd3').state;
  const asked = tap(s, 'e3');
  assert.equal(asked.intent, null);
  assert.equal(mode(asked.state), Mode.Choosing);
  assert.deepEqual(boardView(asked.state).choice, [['f3'], ['c3']]);
  const chosen = tap(asked.state, 'c3');
  assert.equal(chosen.intent.step.kind, 'withdrawal');
  assert.equal(stoneAt(chosen.state.board, 'c3'), null);
  assert.equal(stoneAt(chosen.state.board, 'f3'), 'B');
  s = tap(asked.state, 'f3').state;
  assert.equal(s.pending.kind, 'approach');
});

test('tapping elsewhere while choosing backs out without sending', () => {
  const asked = tap(tap(playing(), 'd3').state, 'e3').state;
  const back = tap(asked, 'e3');
  assert.equal(back.intent, null);
  assert.equal(mode(back.state), Mode.Selected);
  const other = tap(asked, 'e2');
  assert.equal(other.intent, null);
  assert.equal(other.state.selected, 'e2');
  assert.equal(mode(cancel(asked)), Mode.Selected);
  assert.equal(mode(cancel(cancel(asked))), Mode.Idle);
});

test('tapping the selected stone again or an empty point clears the selection', () => {
  const s = tap(playing(), 'e2').state;
  assert.equal(tap(s, 'e2').state.selected, null);
  assert.equal(tap(s, 'a5').state.selected, null);
  assert.equal(tap(s, 'f2').state.selected, 'f2', 'another movable stone is selected instead');
});

test('tapping a stone that cannot move explains that a capture is compulsory', () => {
  const { state, intent } = tap(playing(), 'a1');
  assert.equal(intent, null);
  assert.equal(state.notice.key, 'game.hint.mustCapture');
  assert.equal(state.selected, null);
});

test('dragging a stone onto a target is the same as two taps', () => {
  const s = playing();
  const { intent } = drop(s, 'f2', 'e3');
  assert.deepEqual(intent.step.captures, ['d4', 'c5']);
  assert.equal(drop(s, 'a1', 'a2').intent, null);
  assert.equal(drop(s, 'f2', null).state.selected, 'f2');
  assert.equal(mode(drop(s, 'd3', 'e3').state), Mode.Choosing);
});

test('the server state replaces the optimistic board', () => {
  const sent = tap(tap(playing(), 'e2').state, 'e3').state;
  const next = receiveState(sent, gameState({
    position: AFTER_E2.replace(' w ', ' b '), side_to_move: 'black', legal_steps: [], moves: ['e2-e3A'], captures: ['e4e5'],
    last_turn: { notation: 'e2-e3A', path: ['e2', 'e3'], captured: ['e4', 'e5'] }, version: 2,
  }));
  assert.equal(next.pending, null);
  assert.equal(next.selected, null);
  assert.deepEqual(boardView(next).captured, ['e4', 'e5']);
  assert.deepEqual(boardView(next).path, ['e2', 'e3']);
  assert.equal(next.plies.length, 2, 'history replays to the same board');
});

test('a capture chain keeps the stone selected and offers End turn', () => {
  const sent = tap(tap(playing(), 'e2').state, 'e3').state;
  const chain = receiveState(sent, gameState({
    position: AFTER_E2,
    turn: { stone: 'e3', visited: ['e2', 'e3'], last_direction: 'north', captured: ['e4', 'e5'], notation: 'e2-e3A' },
    legal_steps: [{ from: 'e3', to: 'f4', kind: 'approach', captures: ['g5'] }],
    can_end_turn: true,
    version: 2,
  }));
  assert.equal(chain.selected, 'e3');
  assert.deepEqual(boardView(chain).path, ['e2', 'e3']);
  assert.ok(boardView(chain).chain);
  assert.equal(tap(chain, 'a1').state.selected, 'e3', 'the chain stone stays selected');
  const ended = endTurn(chain);
  assert.deepEqual(ended.intent, { type: 'end_turn' });
  assert.equal(endTurn(playing()).intent, null, 'no End turn before a capture');
  const refused = receiveError(ended.state, { code: 'cannot_end_turn', message: 'no' });
  assert.equal(refused.selected, 'e3');
  assert.equal(refused.pending, null);
});

test('a refused step is rolled back with its reason', () => {
  const sent = tap(tap(playing(), 'd2').state, 'e3').state;
  const back = receiveError(sent, { code: 'not_your_turn', message: 'not your turn' });
  assert.equal(stoneAt(back.board, 'd2'), 'W');
  assert.equal(stoneAt(back.board, 'f4'), 'B');
  assert.equal(back.pending, null);
  assert.equal(back.selected, 'd2');
  assert.deepEqual(back.notice, { key: 'error.not_your_turn', error: true, fallback: 'not your turn' });
  assert.ok(receiveError(createState(), { code: 'game_not_found', message: '' }).notFound);
});

test('an older state than the one shown is ignored', () => {
  const s = playing('white', { version: 5 });
  assert.equal(receiveState(s, gameState({ version: 4, side_to_move: 'black' })), s);
});

test('the history can be browsed and the live game comes back', () => {
  let s = playing('black', {
    position: AFTER_E2.replace(' w ', ' b '), side_to_move: 'black', moves: ['e2-e3A'], captures: ['e4e5'],
  });
  assert.equal(s.plies.length, 2);
  s = browseBy(s, -1);
  assert.equal(s.browse, 0);
  assert.equal(stoneAt(boardView(s).board, 'e4'), 'B', 'the start position is shown');
  assert.equal(movableStones(s).length, 0, 'no moves while looking back');
  assert.equal(browseBy(s, -1).browse, 0, 'stops at the start');
  assert.equal(browseBy(s, 1).browse, null, 'the last ply is the live game');
  assert.equal(browseTo(s, null).browse, null);
  assert.equal(browseTo(s, 99).browse, null);
});

test('browsing shows what the server said each turn took', () => {
  let s = playing('black', {
    position: AFTER_E2.replace(' w ', ' b '), side_to_move: 'black', moves: ['e2-e3A'], captures: ['e4e5'],
  });
  assert.deepEqual(s.plies[1].captured, ['e4', 'e5']);
  s = browseTo(s, 1);
  assert.equal(s.browse, null, 'the last ply is the live game');
  const view = boardView(browseBy(s, 0));
  assert.deepEqual(view.captured, []);
});

test('a state from an older server without captures still shows the live game', () => {
  const raw = {
    position: AFTER_E2.replace(' w ', ' b '), side_to_move: 'black', moves: ['e2-e3A'],
    last_turn: { notation: 'e2-e3A', path: ['e2', 'e3'], captured: ['e4', 'e5'] },
  };
  const s = playing('black', { ...raw, captures: undefined });
  assert.equal(s.plies.length, 1, 'no history to browse');
  assert.equal(stoneAt(boardView(s).board, 'e3'), 'W');
  assert.deepEqual(boardView(s).captured, ['e4', 'e5'], 'the last turn is still drawn');
  assert.equal(browseBy(s, -1).browse, null);
  assert.equal(receiveState(s, gameState({ ...raw, captures: undefined, version: 9 })).plies.length, 1);
});

test('a position alone draws without legal steps', () => {
  const s = stateFromPosition('........./........./....W..../........./......... b 7');
  assert.equal(stoneAt(boardView(s).board, 'e3'), 'W');
  assert.equal(s.game.turnsSinceCapture, 7);
  assert.deepEqual(movableStones(s), []);
  assert.equal(stateFromPosition('bad'), null);
});

test('each player sees their own colour at the bottom, spectators see White', () => {
  assert.equal(bottomColor(playing('black')), 'black');
  assert.equal(bottomColor(playing('spectator')), 'white');
  assert.equal(bottomColor(flip(playing('white'))), 'black');
  assert.equal(boardView(playing('black')).bottom, 'black');
});

test('a selected stone shows its targets and what each would take', () => {
  const s = tap(playing(), 'd3').state;
  const view = boardView(hover(s, 'e3'));
  assert.deepEqual(view.targets.get('e3'), [1, 1]);
  assert.deepEqual([...view.threatened].sort(), ['c3', 'f3']);
  assert.deepEqual([...view.preview].sort(), ['c3', 'f3']);
  const e2 = boardView(tap(playing(), 'e2').state);
  assert.deepEqual(e2.targets.get('e3'), [2]);
  assert.equal(e2.preview.size, 0, 'nothing previewed without a hover');
});

test('the history replays from the game\'s own start position', () => {
  const start = '........./....B..../......B../....W..../......... w 0';
  const s = playing('black', {
    position: '........./........./....W.B../........./......... b 0',
    start_position: start,
    side_to_move: 'black',
    legal_steps: [],
    moves: ['e2-e3A'],
    captures: ['e4'],
    last_turn: { notation: 'e2-e3A', path: ['e2', 'e3'], captured: ['e4'] },
  });
  assert.equal(s.plies.length, 2);
  assert.equal(stoneAt(s.plies[0].board, 'e4'), 'B', 'the start has the black stone on e4');
  assert.equal(stoneAt(s.plies[1].board, 'e4'), null);
  assert.equal(stoneAt(s.plies[1].board, 'e3'), 'W');
  assert.equal(sideOfTurn(s.game, 0), 'white');
  const blackFirst = gameState({ start_position: start.replace(' w ', ' b ') });
  assert.equal(sideOfTurn(blackFirst, 0), 'black');
  assert.equal(sideOfTurn(blackFirst, 1), 'white');
});

test('the turn in progress is drawn along the points the server lists', () => {
  const s = playing('black', {
    turn: { stone: 'd3', visited: ['e2', 'e3', 'd3'], last_direction: 'west', captured: ['e4', 'c3'], notation: 'e2-e3A-d3A' },
  });
  assert.deepEqual(boardView(s).path, ['e2', 'e3', 'd3']);
  assert.equal(s.selected, null, 'the other player sees the path but holds nothing');
});

test('nothing can be moved while the connection is down', () => {
  const s = { ...playing(), link: 'reconnecting' };
  assert.deepEqual(movableStones(s), []);
  assert.equal(tap(s, 'e2').intent, null);
  assert.deepEqual(movableStones(playing()).length, 4, 'a state from the server means the link is open');
});

test('draw offer news: an offer from the friend, and a refusal of one\'s own', () => {
  const g = (over) => receiveState({ ...createState(), role: 'white' }, gameState(over)).game;
  const none = g({ draw_offer: null });
  assert.equal(drawOfferNews(none, g({ draw_offer: 'black' }), 'white'), 'offered');
  assert.equal(drawOfferNews(none, g({ draw_offer: 'black' }), 'black'), null, 'not one\'s own offer');
  assert.equal(drawOfferNews(g({ draw_offer: 'white' }), none, 'white'), 'declined');
  assert.equal(drawOfferNews(g({ draw_offer: 'white' }), none, 'spectator'), null);
  assert.equal(drawOfferNews(g({ draw_offer: 'white' }), g({ draw_offer: null, moves: ['e2-e3A'] }), 'white'), null,
    'an offer that lapsed when the friend played was not refused');
  assert.equal(drawOfferNews(g({ draw_offer: 'white' }), g({ draw_offer: null, result: { winner: null, reason: 'agreement' } }), 'white'), null);
  assert.equal(drawOfferNews(null, g({ draw_offer: 'black' }), 'white'), null, 'nothing is news on the first state');
});

test('while the friend has not joined nothing is anyone\'s turn and no stone can move', () => {
  const alone = gameState({ players: { white: { joined: true, connected: true }, black: { joined: false, connected: false } } });
  const white = receiveState({ ...createState(), role: 'white' }, alone);
  assert.equal(waitingForFriend(white), true);
  assert.equal(isMyTurn(white), false);
  assert.deepEqual(movableStones(white), []);
  assert.equal(tap(white, 'e2').state.selected, null);
  assert.equal(boardView(hover(white, 'e3')).movable.length, 0);
  const spectator = receiveState({ ...createState(), role: 'spectator' }, alone);
  assert.equal(waitingForFriend(spectator), false, 'a spectator waits for nobody');
  const both = receiveState(white, gameState({ version: 2 }));
  assert.equal(waitingForFriend(both), false);
  assert.equal(isMyTurn(both), true);
  assert.ok(movableStones(both).length > 0);
});

test('the welcome, the connection and a missing game are transitions too', () => {
  const welcomed = receiveWelcome(createState(), 'black', 'http://x/g/abc?seat=s');
  assert.equal(welcomed.role, 'black');
  assert.equal(welcomed.seatLink, 'http://x/g/abc?seat=s');
  const down = setLink(playing(), 'reconnecting');
  assert.equal(down.link, 'reconnecting');
  assert.equal(setLink(down, 'reconnecting'), down);
  assert.equal(canAct(down), false);
  assert.equal(gameNotFound(createState()).notFound, true);
});

test('new messages are those after the last seen; a late page shows the latest; a mute hides the others\'', () => {
  const game = gameState({
    messages: [{ by: 'white', text: 'good_luck', seq: 0 }, { by: 'black', text: 'thanks', seq: 3 }, { by: 'white', text: 'sorry', seq: 5 }],
  });
  const texts = (list) => list.map((m) => m.text);
  assert.deepEqual(texts(messagesToShow(game, null, 'black', false)), ['sorry'], 'connected late: the latest');
  assert.deepEqual(texts(messagesToShow(game, 0, 'black', false)), ['thanks', 'sorry']);
  assert.deepEqual(texts(messagesToShow(game, -1, 'black', false)), ['good_luck', 'thanks', 'sorry'], 'none seen before');
  assert.deepEqual(texts(messagesToShow(game, 5, 'black', false)), []);
  assert.deepEqual(texts(messagesToShow(game, 0, 'black', true)), ['thanks'], 'muted: only the player\'s own');
  assert.deepEqual(texts(messagesToShow(game, null, 'black', true)), ['thanks']);
  assert.deepEqual(texts(messagesToShow(game, null, 'spectator', true)), [], 'a muted spectator sees none');
  assert.deepEqual(texts(messagesToShow(gameState(), null, 'white', false)), [], 'none yet');
});
