import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  stepMessage, simpleMessage, createGameRequest, computerGameRequest, levelMessage, readHint, readServerMessage, readCreated, readError,
  gameFromLocation, socketUrl, stateUrl, gamePath, ClientType, joinRequest, readJoined, inviteFromLocation,
  sameGameRequest, recordUrl, SAYINGS,
} from '../../js/protocol.js';
import { rawState } from './fixtures.js';

test('intents are JSON frames with a type', () => {
  assert.deepEqual(JSON.parse(stepMessage({ from: 'd3', to: 'e3', kind: 'approach', captures: ['f3'] })),
    { type: 'step', from: 'd3', to: 'e3', kind: 'approach' });
  for (const type of ['end_turn', 'resign', 'offer_draw', 'accept_draw', 'decline_draw', 'claim_victory', 'rematch',
    'takeback', 'hint']) {
    assert.deepEqual(JSON.parse(simpleMessage(type)), { type });
  }
  assert.throws(() => simpleMessage(ClientType.Step), TypeError);
  assert.throws(() => simpleMessage(ClientType.SetLevel), TypeError, 'set_level carries the level');
  assert.throws(() => simpleMessage('dance'), TypeError);
});

test('creating a game posts who moves first', () => {
  const { url, init } = createGameRequest('friend');
  assert.equal(url, '/api/games');
  assert.equal(init.method, 'POST');
  assert.deepEqual(JSON.parse(init.body), { first: 'friend' });
  assert.deepEqual(JSON.parse(createGameRequest('nobody').init.body), { first: 'random' });
});

test('the level intent carries the level, and only one of the six', () => {
  assert.deepEqual(JSON.parse(levelMessage(4)), { type: 'set_level', level: 4 });
  for (const bad of [0, 7, 2.5, '3', null]) assert.throws(() => levelMessage(bad), RangeError, String(bad));
});

test('a game against the computer is created with its level and who moves first', () => {
  const { url, init } = computerGameRequest(3, 'computer');
  assert.equal(url, '/api/games');
  assert.equal(init.method, 'POST');
  assert.deepEqual(JSON.parse(init.body), { opponent: 'computer', level: 3, first: 'computer' });
  assert.deepEqual(JSON.parse(computerGameRequest(1, 'me').init.body), { opponent: 'computer', level: 1, first: 'me' });
  assert.equal(JSON.parse(computerGameRequest(6, 'friend').init.body).first, 'random', 'no friend to move first');
  assert.throws(() => computerGameRequest(9, 'me'), RangeError);
});

test('a new game like a finished one is asked for only by the computer\'s opponent', () => {
  const game = { computer: { color: 'black', level: 4, name: 'Strong' } };
  assert.deepEqual(JSON.parse(sameGameRequest(game, 'white').init.body), { opponent: 'computer', level: 4, first: 'me' });
  const black = sameGameRequest({ computer: { color: 'white', level: 6 } }, 'black');
  assert.deepEqual(JSON.parse(black.init.body), { opponent: 'computer', level: 6, first: 'computer' });
  assert.equal(sameGameRequest(game, 'spectator'), null, 'a spectator goes to the front page');
  assert.equal(sameGameRequest(game, 'black'), null);
  assert.equal(sameGameRequest({ computer: null }, 'white'), null, 'a friend is invited from the front page');
  assert.equal(sameGameRequest(null, 'white'), null);
  assert.equal(recordUrl('d04EUAqNQF', 'mg'), '/api/games/d04EUAqNQF/record?lang=mg');
});

test('the create answer of a game against the computer has no invitation', () => {
  const raw = {
    game_id: 'd04EUAqNQF', seat: 's', color: 'white',
    seat_link: 'http://127.0.0.1:8080/g/d04EUAqNQF?seat=xvhAsdXhFKfPMWymDHRWuV',
    invite_link: null, spectator_link: 'http://127.0.0.1:8080/g/d04EUAqNQF',
    computer: { color: 'black', level: 3, name: 'Club' },
  };
  assert.deepEqual(readCreated(raw, 'https://example.org'), {
    id: 'd04EUAqNQF',
    color: 'white',
    seatLink: 'http://127.0.0.1:8080/g/d04EUAqNQF?seat=xvhAsdXhFKfPMWymDHRWuV',
    inviteLink: null,
    spectatorLink: 'http://127.0.0.1:8080/g/d04EUAqNQF',
    computer: { color: 'black', level: 3, name: 'Club', thinking: false },
  });
  assert.equal(readCreated({ ...raw, computer: null }, 'https://example.org'), null, 'a friend game needs its invitation');
  assert.equal(readCreated({ ...raw, computer: { ...raw.computer, color: 'white' } }, 'https://example.org'), null,
    'the computer does not sit in the person\'s seat');
});

test('the computer field of a state is read, and null between people or when malformed', () => {
  const read = (computer) => readServerMessage(JSON.stringify(rawState({ computer }))).state.computer;
  assert.deepEqual(read({ color: 'black', level: 3, name: 'Club', thinking: true }),
    { color: 'black', level: 3, name: 'Club', thinking: true });
  assert.deepEqual(read({ color: 'white', level: 6, name: 'Strongest', thinking: false }),
    { color: 'white', level: 6, name: 'Strongest', thinking: false });
  assert.equal(read(null), null);
  assert.equal(read(undefined), null, 'an older server does not say');
  assert.equal(read({ color: 'green', level: 3 }), null);
  assert.equal(read({ color: 'black', level: 0 }), null);
  assert.equal(read({ color: 'black', level: 2, thinking: 'yes' }).thinking, false);
});

test('a hint names the first step of the best turn, or says to end the turn', () => {
  assert.deepEqual(readServerMessage('{"type":"hint","from":"d3","to":"e3","kind":"approach","turn":"d3-e3A"}'),
    { type: 'hint', hint: { from: 'd3', to: 'e3', kind: 'approach', turn: 'd3-e3A', endTurn: false } });
  assert.deepEqual(readServerMessage('{"type":"hint","from":null,"to":null,"kind":null,"end_turn":true}'),
    { type: 'hint', hint: { from: null, to: null, kind: null, turn: null, endTurn: true } });
  assert.deepEqual(readHint({ from: 'e2', to: 'e3', kind: 'paika', end_turn: false }),
    { from: 'e2', to: 'e3', kind: 'paika', turn: null, endTurn: false }, 'the HTTP answer is the same object');
  assert.equal(readHint({ from: 'z9', to: 'e3', kind: 'approach' }), null);
  assert.equal(readServerMessage('{"type":"hint"}'), null);
  assert.equal(readHint(null), null);
});

// The examples of docs/API.md, the authoritative description of the
// protocol, so that a change there shows up here.
const API = readFileSync(new URL('../../../docs/API.md', import.meta.url), 'utf8');
function apiExample(tag, startsWith) {
  const blocks = [...API.matchAll(/```json( \w+)?\n([\s\S]*?)```/g)]
    .filter((m) => (m[1] || '').trim() === tag)
    .map((m) => m[2])
    .filter((b) => b.trimStart().startsWith(startsWith));
  assert.ok(blocks.length > 0, `no ${tag || 'plain'} example starting ${startsWith} in docs/API.md`);
  return blocks[0];
}

test('the state example of the API is read into the client shape', () => {
  const msg = readServerMessage(apiExample('state', '{'));
  assert.equal(msg.type, 'state');
  assert.deepEqual(msg.state, {
    game: 'd04EUAqNQF',
    version: 1795968865003,
    seq: 2,
    position: '........./........./....W.B../........./......... w 0',
    startPosition: '........./....B..../......B../....W..../......... w 0',
    turn: 'white',
    chain: { stone: 'e3', visited: ['e2', 'e3'], lastDirection: 'north', captured: ['e4'], notation: 'e2-e3A' },
    steps: [{ from: 'e3', to: 'f3', kind: 'approach', captures: ['g3'] }],
    canEndTurn: true,
    moves: [],
    captures: [],
    lastTurn: { notation: null, path: [], captured: [] },
    turnsSinceCapture: 0,
    players: { white: { joined: true, connected: true }, black: { joined: true, connected: false } },
    drawOffer: null,
    takebackOffer: null,
    abandoned: false,
    rematch: { white: false, black: false },
    nextGame: null,
    result: null,
    computer: null,
    messages: [{ by: 'black', text: 'good_luck', seq: 0 }],
    clock: null,
    watching: 3,
    match: { white: 2, black: 1, draws: 0 },
  });
});

test('the preset messages are the server\'s, and a message is not a simple intent', () => {
  const api = readFileSync(new URL('../../../docs/API.md', import.meta.url), 'utf8');
  const listed = api.match(/`text` is\s+a key, never a sentence: ([^;]+);/)[1].match(/`[a-z_]+`/g).map((k) => k.slice(1, -1));
  assert.deepEqual(SAYINGS, listed);
  assert.throws(() => simpleMessage(ClientType.Message), TypeError, 'a message carries its text');
});

test('the last messages are read, and what is not one of them is left out', () => {
  const read = (messages) => readServerMessage(JSON.stringify(rawState({ messages }))).state.messages;
  assert.deepEqual(read([{ by: 'white', text: 'good_game', seq: 17 }, { by: 'black', text: 'thanks', seq: 18 }]),
    [{ by: 'white', text: 'good_game', seq: 17 }, { by: 'black', text: 'thanks', seq: 18 }]);
  assert.deepEqual(read(undefined), [], 'an older server does not say');
  assert.deepEqual(read('good_game'), []);
  assert.deepEqual(read([
    null, 'good_game', { by: 'spectator', text: 'thanks', seq: 1 }, { by: 'white', text: 'Hello!', seq: 2 },
    { by: 'white', text: '<b>hi</b>', seq: 3 }, { by: 'black', text: 'sorry', seq: -1 }, { by: 'black', text: 'sorry', seq: '4' },
    { by: 'black', text: 'sorry', seq: 1.5 }, { by: 'white', text: 'toString', seq: 6 }, { by: 'black', text: 'sorry', seq: 7, extra: 1 },
  ]), [{ by: 'black', text: 'sorry', seq: 7 }]);
});

test('the clocks of a state are read, and a malformed clock is none', () => {
  const read = (clock) => readServerMessage(JSON.stringify(rawState({ clock }))).state.clock;
  // The example of docs/API.md's table.
  const doc = readFileSync(new URL('../../../docs/API.md', import.meta.url), 'utf8');
  const example = JSON.parse(/`clock` \| .*?`(\{"kind": "real_time".*?\})`/.exec(doc)[1]);
  assert.deepEqual(read(example), {
    real: true, minutes: 5, increment: 3, days: null, white: 287000, black: 300000, running: 'white',
  });
  assert.deepEqual(read({ kind: 'correspondence', days: 3, white: 259200000, black: 1, running: null, at: 0 }), {
    real: false, minutes: null, increment: null, days: 3, white: 259200000, black: 1, running: null,
  });
  for (const bad of [null, 'x', {}, { kind: 'blitz', white: 1, black: 1 }, { kind: 'real_time', white: 1, black: 1 },
    { kind: 'correspondence', days: 3, white: -1, black: 1 }, { kind: 'real_time', minutes: 5, white: '1', black: 1 }]) {
    assert.equal(read(bad), null, JSON.stringify(bad));
  }
});

test('a game is created with the clock chosen, or none', () => {
  const body = (clock) => JSON.parse(createGameRequest('me', clock).init.body);
  assert.deepEqual(body('5+3'), { first: 'me', clock: { minutes: 5, increment: 3 } });
  assert.deepEqual(body('3d'), { first: 'me', clock: { days: 3 } });
  assert.deepEqual(body(''), { first: 'me' });
  assert.deepEqual(body('5+'), { first: 'me' });
  assert.deepEqual(body(), { first: 'me' });
});

test('the later fields of a state are read', () => {
  const { state } = readServerMessage(JSON.stringify(rawState({
    side_to_move: 'black',
    last_turn: { notation: 'f4-f3', path: ['f4', 'f3'], captured: [] },
    draw_offer: 'black',
    takeback_offer: 'white',
    abandoned: true,
    rematch: { white: true, black: false },
    next_game: 'Zz09aaBBcc',
    result: { winner: 'white', reason: 'resignation' },
    turns_since_capture: 41,
  })));
  assert.equal(state.turn, 'black');
  assert.deepEqual(state.lastTurn, { notation: 'f4-f3', path: ['f4', 'f3'], captured: [] });
  assert.equal(state.drawOffer, 'black');
  assert.equal(state.takebackOffer, 'white');
  assert.equal(state.abandoned, true);
  assert.deepEqual(state.rematch, { white: true, black: false });
  assert.equal(state.nextGame, 'Zz09aaBBcc');
  assert.deepEqual(state.result, { winner: 'white', reason: 'resignation' });
  assert.equal(state.turnsSinceCapture, 41);
  const draw = readServerMessage(JSON.stringify(rawState({ result: { winner: null, reason: 'agreement' } })));
  assert.deepEqual(draw.state.result, { winner: null, reason: 'agreement' });
});

test('what each turn took is read as lists of points, and missing or malformed as null', () => {
  const read = (over) => readServerMessage(JSON.stringify(rawState(over))).state.captures;
  assert.deepEqual(read({ moves: ['d3-e3A', 'f4-f3', 'e2-e3A-d4W'], captures: ['f3', '', 'e4e5f2'] }),
    [['f3'], [], ['e4', 'e5', 'f2']]);
  const older = rawState({ moves: ['d3-e3A'] });
  delete older.captures;
  assert.equal(readServerMessage(JSON.stringify(older)).state.captures, null, 'an older server does not say');
  assert.equal(read({ moves: ['d3-e3A'], captures: [] }), null, 'one list per turn');
  assert.equal(read({ moves: ['d3-e3A'], captures: ['f'] }), null);
  assert.equal(read({ moves: ['d3-e3A'], captures: ['z9'] }), null);
  assert.equal(read({ moves: ['d3-e3A'], captures: [['f3']] }), null);
});

test('malformed steps and links are dropped rather than trusted', () => {
  const msg = readServerMessage(JSON.stringify(rawState({
    legal_steps: [{ from: 'z9', to: 'e3', kind: 'approach' }, { from: 'd3', to: 'e3', kind: 'jump' }, { from: 'e2', to: 'e3', kind: 'paika' }],
    next_game: '../../evil',
  })));
  assert.deepEqual(msg.state.steps, [{ from: 'e2', to: 'e3', kind: 'paika', captures: [] }]);
  assert.equal(msg.state.nextGame, null);
});

test('welcome and error messages are read; anything else is null', () => {
  assert.deepEqual(readServerMessage(apiExample('', '{"type": "welcome"')), {
    type: 'welcome', game: 'd04EUAqNQF', role: 'white',
    seatLink: 'http://127.0.0.1:8080/g/d04EUAqNQF?seat=xvhAsdXhFKfPMWymDHRWuV',
  });
  assert.deepEqual(readServerMessage('{"type":"welcome","game_id":"x","role":"spectator","seat_link":null}'),
    { type: 'welcome', game: 'x', role: 'spectator', seatLink: null });
  assert.equal(readServerMessage('{"type":"welcome","role":"king"}').role, 'spectator');
  assert.deepEqual(readServerMessage(apiExample('', '{"type": "error"')), {
    type: 'error', code: 'capture_required', message: 'a capture is available, so a paika move is not allowed',
  });
  assert.deepEqual(readError(null), { type: 'error', code: 'unknown', message: '' });
  assert.equal(readServerMessage('not json'), null);
  assert.equal(readServerMessage('{"type":"party"}'), null);
  assert.equal(readServerMessage('3'), null);
});

test('the create answer of the API gives the links', () => {
  const raw = JSON.parse(apiExample('', '{\n  "game_id"'));
  assert.deepEqual(readCreated(raw, 'https://example.org'), {
    id: 'd04EUAqNQF',
    color: 'white',
    seatLink: 'http://127.0.0.1:8080/g/d04EUAqNQF?seat=xvhAsdXhFKfPMWymDHRWuV',
    inviteLink: 'http://127.0.0.1:8080/g/d04EUAqNQF?invite=U1F5jtvo2nbP9FZiyArH8x',
    spectatorLink: 'http://127.0.0.1:8080/g/d04EUAqNQF',
    computer: null,
  });
  const relative = readCreated({ ...raw, seat_link: '/g/d04EUAqNQF?seat=s', spectator_link: null }, 'https://example.org');
  assert.equal(relative.seatLink, 'https://example.org/g/d04EUAqNQF?seat=s');
  assert.equal(relative.spectatorLink, 'https://example.org/g/d04EUAqNQF');
  assert.equal(readCreated({ game_id: 'Ab3' }, 'https://example.org'), null);
  assert.equal(readCreated({ ...raw, color: 'green' }, 'https://example.org'), null);
  assert.equal(readCreated(null, 'https://example.org'), null);
});

test('the game is found in the page address', () => {
  assert.equal(gameFromLocation(new URL('https://x.org/g/d04EUAqNQF')), 'd04EUAqNQF');
  assert.equal(gameFromLocation(new URL('https://x.org/g/d04EUAqNQF/')), 'd04EUAqNQF');
  assert.equal(gameFromLocation(new URL('https://x.org/rules')), null);
  assert.equal(gameFromLocation(new URL('https://x.org/g/a/b')), null);
  assert.equal(gamePath('d04EUAqNQF'), '/g/d04EUAqNQF');
});

test('the socket address follows the page scheme; the seat travels as a cookie', () => {
  assert.equal(socketUrl(new URL('https://x.org/g/Ab3'), 'Ab3'), 'wss://x.org/api/games/Ab3/ws');
  assert.equal(socketUrl(new URL('http://127.0.0.1:8080/g/Ab3'), 'Ab3'), 'ws://127.0.0.1:8080/api/games/Ab3/ws');
  assert.equal(stateUrl('Ab3'), '/api/games/Ab3');
});

test('the join request carries the invitation and the key; its answer is read strictly', () => {
  const { url, init } = joinRequest('abcDEF1234', 'U1F5jtvo2nbP9FZiyArH8x', 'k'.repeat(22));
  assert.equal(url, '/api/games/abcDEF1234/join');
  assert.equal(init.method, 'POST');
  assert.deepEqual(JSON.parse(init.body), { invite: 'U1F5jtvo2nbP9FZiyArH8x', key: 'k'.repeat(22) });
  assert.deepEqual(readJoined({ game_id: 'abcDEF1234', role: 'black', seat: 'x', seat_link: 'y' }), { id: 'abcDEF1234', role: 'black' });
  assert.deepEqual(readJoined({ game_id: 'abcDEF1234', role: 'spectator', seat: null }), { id: 'abcDEF1234', role: 'spectator' });
  for (const bad of [null, 'x', {}, { game_id: 'abcDEF1234', role: 'admin' }, { game_id: '../x', role: 'white' }]) {
    assert.equal(readJoined(bad), null, JSON.stringify(bad));
  }
});

test('the invitation token is read from the page address only when well formed', () => {
  const at = (search) => new URL(`https://x.example/g/abcDEF1234${search}`);
  assert.equal(inviteFromLocation(at('?invite=U1F5jtvo2nbP9FZiyArH8x')), 'U1F5jtvo2nbP9FZiyArH8x');
  for (const search of ['', '?invite=', '?invite=short', '?invite=U1F5jtvo2nbP9FZiyArH8x!', '?seat=U1F5jtvo2nbP9FZiyArH8x']) {
    assert.equal(inviteFromLocation(at(search)), null, search);
  }
});
