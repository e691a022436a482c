import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  stepMessage, simpleMessage, createGameRequest, readServerMessage, readCreated,
  gameFromLocation, socketUrl, ClientType,
} from '../../js/protocol.js';
import { rawState } from './fixtures.js';

test('intents are JSON frames with a type', () => {
  assert.deepEqual(JSON.parse(stepMessage({ from: 'd3', to: 'e3', kind: 'approach', captures: ['f3'] })),
    { type: 'step', from: 'd3', to: 'e3', kind: 'approach' });
  for (const type of ['end_turn', 'resign', 'offer_draw', 'accept_draw', 'decline_draw', 'claim_victory', 'rematch']) {
    assert.deepEqual(JSON.parse(simpleMessage(type)), { type });
  }
  assert.throws(() => simpleMessage(ClientType.Step), TypeError);
  assert.throws(() => simpleMessage('dance'), TypeError);
});

test('creating a game posts who moves first', () => {
  const { url, init } = createGameRequest('friend');
  assert.equal(url, '/api/games');
  assert.equal(init.method, 'POST');
  assert.deepEqual(JSON.parse(init.body), { first: 'friend' });
  assert.deepEqual(JSON.parse(createGameRequest('nobody').init.body), { first: 'random' });
});

test('a state message is read into the client shape', () => {
  const msg = readServerMessage(JSON.stringify({ type: 'state', ...rawState({
    chain: { stone: 'e3', visited: ['d3', 'e3'], last_direction: 'e' },
    can_end_turn: true,
    last_turn: { path: ['f4', 'f3'], captured: [] },
    draw_offer: 'black',
    result: { winner: 'white', reason: 'resignation' },
    turns_since_capture: 41,
  }) }));
  assert.equal(msg.type, 'state');
  const s = msg.state;
  assert.equal(s.game, 'abc123');
  assert.equal(s.steps.length, 5);
  assert.deepEqual(s.steps[0], { from: 'd3', to: 'e3', kind: 'approach', captures: ['f3'] });
  assert.deepEqual(s.chain, { stone: 'e3', visited: ['d3', 'e3'], lastDirection: 'e' });
  assert.equal(s.canEndTurn, true);
  assert.deepEqual(s.lastTurn, { path: ['f4', 'f3'], captured: [] });
  assert.equal(s.drawOffer, 'black');
  assert.deepEqual(s.result, { winner: 'white', reason: 'resignation' });
  assert.equal(s.turnsSinceCapture, 41);
  assert.deepEqual(s.players.black, { joined: true, connected: true });
});

test('a state nested under "state" reads the same', () => {
  const flat = readServerMessage(JSON.stringify({ type: 'state', ...rawState() }));
  const nested = readServerMessage(JSON.stringify({ type: 'state', state: rawState() }));
  assert.deepEqual(nested, flat);
});

test('malformed steps are dropped rather than trusted', () => {
  const msg = readServerMessage(JSON.stringify({ type: 'state', ...rawState({
    steps: [{ from: 'z9', to: 'e3', kind: 'approach' }, { from: 'd3', to: 'e3', kind: 'jump' }, { from: 'e2', to: 'e3', kind: 'paika' }],
  }) }));
  assert.deepEqual(msg.state.steps, [{ from: 'e2', to: 'e3', kind: 'paika', captures: [] }]);
});

test('welcome and error messages are read; anything else is null', () => {
  assert.deepEqual(readServerMessage('{"type":"welcome","role":"black","seat_link":"/g/x?seat=y"}'),
    { type: 'welcome', role: 'black', seatLink: '/g/x?seat=y' });
  assert.equal(readServerMessage('{"type":"welcome","role":"king"}').role, 'spectator');
  assert.deepEqual(readServerMessage('{"type":"error","code":"must_capture","message":"you must capture"}'),
    { type: 'error', code: 'must_capture', message: 'you must capture' });
  assert.equal(readServerMessage('not json'), null);
  assert.equal(readServerMessage('{"type":"party"}'), null);
  assert.equal(readServerMessage('3'), null);
});

test('the create answer gives absolute links', () => {
  const created = readCreated({ id: 'Ab3', links: { seat: '/g/Ab3?seat=s3cr3t', invite: '/g/Ab3?invite=i', spectator: '/g/Ab3' } }, 'https://example.org');
  assert.deepEqual(created, {
    id: 'Ab3',
    seatLink: 'https://example.org/g/Ab3?seat=s3cr3t',
    inviteLink: 'https://example.org/g/Ab3?invite=i',
    spectatorLink: 'https://example.org/g/Ab3',
  });
  assert.equal(readCreated({ id: 'Ab3' }, 'https://example.org'), null);
  assert.equal(readCreated(null, 'https://example.org'), null);
});

test('the game and seat are found in the page address', () => {
  assert.deepEqual(gameFromLocation(new URL('https://x.org/g/Ab3?seat=s1')), { id: 'Ab3', seat: 's1' });
  assert.deepEqual(gameFromLocation(new URL('https://x.org/g/Ab3#seat=s2')), { id: 'Ab3', seat: 's2' });
  assert.deepEqual(gameFromLocation(new URL('https://x.org/g/Ab3')), { id: 'Ab3', seat: null });
  assert.equal(gameFromLocation(new URL('https://x.org/rules')), null);
  assert.equal(gameFromLocation(new URL('https://x.org/g/a/b')), null);
});

test('the socket address follows the page scheme and carries the seat', () => {
  assert.equal(socketUrl(new URL('https://x.org/g/Ab3'), { id: 'Ab3', seat: 's1' }), 'wss://x.org/api/games/Ab3/ws?seat=s1');
  assert.equal(socketUrl(new URL('http://127.0.0.1:8080/g/Ab3'), { id: 'Ab3', seat: null }), 'ws://127.0.0.1:8080/api/games/Ab3/ws');
});
