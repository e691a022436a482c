// All the client knows of the server's wire format: builders of its
// messages, readers of the server's into the client's shapes, the API's
// and socket's URLs. The one file to adapt when the protocol changes.

/** Message types the server sends. */
export const ServerType = Object.freeze({
  Welcome: 'welcome', State: 'state', Error: 'error', Hint: 'hint',
});

/** Message types the client sends. */
export const ClientType = Object.freeze({
  Step: 'step', EndTurn: 'end_turn', Resign: 'resign',
  OfferDraw: 'offer_draw', AcceptDraw: 'accept_draw', DeclineDraw: 'decline_draw',
  ClaimVictory: 'claim_victory', Rematch: 'rematch',
  // Only in games with a clock.
  Flag: 'flag',
  // Only in games between people.
  OfferTakeback: 'offer_takeback', AcceptTakeback: 'accept_takeback', DeclineTakeback: 'decline_takeback',
  // Only in games against the computer.
  Takeback: 'takeback', Hint: 'hint', SetLevel: 'set_level',
  Message: 'message',
});

/** The preset messages' keys, in the page's order. */
export const SAYINGS = ['good_luck', 'your_turn', 'well_played', 'sorry', 'thanks', 'good_game'];


/** Who may move first when a game is created. */
export const First = Object.freeze({ Me: 'me', Friend: 'friend', Random: 'random' });

/** Who may move first in a game against the computer. */
export const FirstAgainstComputer = Object.freeze({ Me: 'me', Computer: 'computer', Random: 'random' });

/** The computer's levels, weakest first. */
export const LEVELS = Object.freeze([1, 2, 3, 4, 5, 6]);

/**
 * Whether `n` is one of the computer's levels.
 * @param {unknown} n
 * @returns {n is number}
 */
export function isLevel(n) {
  return LEVELS.includes(/** @type {number} */ (n));
}

/** Roles a browser can have in a game. */
export const Role = Object.freeze({ White: 'white', Black: 'black', Spectator: 'spectator' });

/** Reasons a game ends, as the server names them. */
export const EndReason = Object.freeze({
  NoStones: 'no_stones', NoLegalStep: 'no_legal_step', FiftyTurns: 'fifty_turns',
  Resignation: 'resignation', Agreement: 'agreement', Abandonment: 'abandonment', Time: 'time',
});

const KINDS = ['paika', 'approach', 'withdrawal'];
const SQUARE = /^[a-i][1-5]$/;

// ---- client -> server -------------------------------------------------------

/**
 * A step intent.
 * @param {{from: string, to: string, kind: string}} step
 * @returns {string} the JSON frame
 */
export function stepMessage({ from, to, kind }) {
  return JSON.stringify({ type: ClientType.Step, from, to, kind });
}

/**
 * An intent without arguments: any of ClientType but step and set_level.
 * @param {string} type
 * @returns {string} the JSON frame
 */
export function simpleMessage(type) {
  if (!Object.values(ClientType).includes(type) || [ClientType.Step, ClientType.SetLevel, ClientType.Message].includes(type)) {
    throw new TypeError(`not a simple message type: ${type}`);
  }
  return JSON.stringify({ type });
}

/**
 * The HTTP request that creates a game.
 * @param {string} first one of First
 * @returns {{url: string, init: RequestInit}}
 */
export function createGameRequest(first, clock = '') {
  const value = Object.values(First).includes(first) ? first : First.Random;
  const body = { first: value };
  const [, m, s, d] = /^(?:(\d+)\+(\d+)|(\d+)d)$/.exec(clock) || [];
  if (m) body.clock = { minutes: Number(m), increment: Number(s) };
  if (d) body.clock = { days: Number(d) };
  return {
    url: '/api/games',
    init: {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    },
  };
}

/**
 * The intent that changes the computer's level from its next turn.
 * @param {number} level one of LEVELS
 * @returns {string} the JSON frame
 */
export function levelMessage(level) {
  if (!isLevel(level)) throw new RangeError(`not a level: ${level}`);
  return JSON.stringify({ type: ClientType.SetLevel, level });
}

/** The request that creates a game against the computer at `level`, `first` one of FirstAgainstComputer. */
export function computerGameRequest(level, first) {
  if (!isLevel(level)) throw new RangeError(`not a level: ${level}`);
  const value = Object.values(FirstAgainstComputer).includes(first) ? first : FirstAgainstComputer.Random;
  return {
    url: '/api/games',
    init: {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ opponent: 'computer', level, first: value }),
    },
  };
}

/**
 * The request for a game like `game` (same level and colour) for its
 * player against the computer; null for anyone else (the front page).
 * @param {{computer: {color: string, level: number}|null}|null} game
 * @param {string} role 'white', 'black' or 'spectator'
 */
export function sameGameRequest(game, role) {
  const computer = game && game.computer;
  if (!computer || !color(role) || role === computer.color) return null;
  return computerGameRequest(computer.level, role === 'white' ? FirstAgainstComputer.Me : FirstAgainstComputer.Computer);
}

/**
 * The address of a game's text record, its sentences in `lang`.
 * @param {string} id
 * @param {string} lang
 */
export function recordUrl(id, lang) {
  return `/api/games/${encodeURIComponent(id)}/record?lang=${encodeURIComponent(lang)}`;
}

/** The request that accepts an invitation; the same join `key` gets the same seat again. */
export function joinRequest(id, invite, key) {
  return {
    url: `/api/games/${encodeURIComponent(id)}/join`,
    init: {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ invite, key }),
    },
  };
}

// ---- server -> client -------------------------------------------------------

const COLORS = ['white', 'black'];

function squares(list) {
  return Array.isArray(list) ? list.filter((s) => typeof s === 'string' && SQUARE.test(s)) : [];
}

function color(v) {
  return COLORS.includes(v) ? v : null;
}

function readStep(s) {
  if (!s || !SQUARE.test(s.from) || !SQUARE.test(s.to) || !KINDS.includes(s.kind)) return null;
  return { from: s.from, to: s.to, kind: s.kind, captures: squares(s.captures) };
}

function readPresence(p) {
  return { joined: Boolean(p && p.joined), connected: Boolean(p && p.connected) };
}

// The turn in progress: `visited` holds the points in the order the stone
// stood on them, its start first and its current point last.
function readChain(c) {
  if (!c || typeof c !== 'object' || !SQUARE.test(c.stone)) return null;
  const visited = squares(c.visited);
  return {
    stone: c.stone,
    visited: visited[visited.length - 1] === c.stone ? visited : [...visited, c.stone],
    lastDirection: typeof c.last_direction === 'string' ? c.last_direction : null,
    captured: squares(c.captured),
    notation: typeof c.notation === 'string' ? c.notation : '',
  };
}

/** @typedef {import('./types.js').Computer} Computer */

/**
 * Reads the `computer` field of a state or of a create answer: null in
 * games between people, and for anything malformed.
 * @param {unknown} c
 * @returns {Computer|null}
 */
function readComputer(c) {
  if (!c || typeof c !== 'object') return null;
  const raw = /** @type {Record<string, unknown>} */ (c);
  const side = color(raw.color);
  if (!side || !isLevel(raw.level)) return null;
  return {
    color: side,
    level: /** @type {number} */ (raw.level),
    name: typeof raw.name === 'string' ? raw.name : '',
    thinking: raw.thinking === true,
  };
}

function readResult(r) {
  if (!r || typeof r !== 'object') return null;
  return { winner: color(r.winner), reason: String(r.reason || '') };
}

function readLastTurn(last) {
  if (!last || typeof last !== 'object') return { notation: null, path: [], captured: [] };
  return {
    notation: typeof last.notation === 'string' ? last.notation : null,
    path: squares(last.path),
    captured: squares(last.captured),
  };
}

// What each completed turn took: one string of point names per turn
// ("f3g3", "" for a paika). Null when the server does not say (an older
// server) or says it for a different number of turns than `moves`.
function readCaptures(raw, turns) {
  if (!Array.isArray(raw) || raw.length !== turns) return null;
  const out = [];
  for (const text of raw) {
    if (typeof text !== 'string' || !/^([a-i][1-5])*$/.test(text)) return null;
    out.push(text.match(/../g) || []);
  }
  return out;
}

// Unknown keys (a newer server's) are left out.
function readMessages(raw) {
  return (Array.isArray(raw) ? raw : [])
    .filter((m) => m && color(m.by) && SAYINGS.includes(m.text) && Number.isSafeInteger(m.seq) && m.seq >= 0)
    .map((m) => ({ by: m.by, text: m.text, seq: m.seq }));
}

// The clocks of a timed game (docs/API.md, "clock"): null without them,
// and for anything malformed.
function readClock(c) {
  if (!c || typeof c !== 'object') return null;
  const n = (v) => (Number.isFinite(v) && v >= 0 ? v : null);
  const real = c.kind === 'real_time';
  if (!real && c.kind !== 'correspondence') return null;
  const clock = {
    real, minutes: n(c.minutes), increment: n(c.increment), days: n(c.days),
    white: n(c.white), black: n(c.black), running: color(c.running),
  };
  if (clock.white === null || clock.black === null || (real ? clock.minutes === null : clock.days === null)) return null;
  return clock;
}

function readPair(raw) {
  const pair = raw && typeof raw === 'object' ? raw : {};
  return { white: Boolean(pair.white), black: Boolean(pair.black) };
}

/** @typedef {import('./types.js').GameState} GameState */

/**
 * Reads a "state" message.
 * @param {object} raw
 * @returns {GameState}
 */
export function readState(raw) {
  const players = raw.players || {};
  const next = raw.next_game;
  const moves = Array.isArray(raw.moves) ? raw.moves.map(String) : [];
  return {
    game: String(raw.game_id || ''),
    version: Number(raw.version) || 0,
    seq: Number(raw.seq) || 0,
    position: String(raw.position || ''),
    startPosition: String(raw.start_position || raw.position || ''),
    turn: raw.side_to_move === 'black' ? 'black' : 'white',
    chain: readChain(raw.turn),
    steps: (Array.isArray(raw.legal_steps) ? raw.legal_steps : []).map(readStep).filter(Boolean),
    canEndTurn: Boolean(raw.can_end_turn),
    moves,
    captures: readCaptures(raw.captures, moves.length),
    lastTurn: readLastTurn(raw.last_turn),
    turnsSinceCapture: Number(raw.turns_since_capture) || 0,
    players: { white: readPresence(players.white), black: readPresence(players.black) },
    drawOffer: color(raw.draw_offer),
    takebackOffer: color(raw.takeback_offer),
    abandoned: Boolean(raw.abandoned),
    rematch: readPair(raw.rematch),
    nextGame: typeof next === 'string' && GAME_ID.test(next) ? next : null,
    result: readResult(raw.result),
    computer: readComputer(raw.computer),
    messages: readMessages(raw.messages),
    clock: readClock(raw.clock),
    watching: raw.watching | 0,
    match: readScore(raw.match),
  };
}

function readScore(m) {
  return m && typeof m === 'object' ? { white: m.white | 0, black: m.black | 0, draws: m.draws | 0 } : null;
}

/** The answer of GET /api/steps: a state, and the steps refused with their reasons' codes. */
export function readSteps(raw) {
  const refused = (Array.isArray(raw.refused_steps) ? raw.refused_steps : [])
    .filter((s) => s && SQUARE.test(s.from) && SQUARE.test(s.to) && /^[a-z_]{1,40}$/.test(s.reason))
    .map((s) => ({ from: s.from, to: s.to, reason: s.reason }));
  return { ...readState(raw), refused };
}

/** @typedef {import('./types.js').Hint} Hint */

/**
 * Reads a hint, from the socket or from the HTTP answer; null when it
 * says neither a step nor to end the turn.
 * @param {object} raw
 * @returns {Hint|null}
 */
export function readHint(raw) {
  if (!raw || typeof raw !== 'object') return null;
  const turn = typeof raw.turn === 'string' ? raw.turn : null;
  if (raw.end_turn === true) return { from: null, to: null, kind: null, turn, endTurn: true };
  if (!SQUARE.test(raw.from) || !SQUARE.test(raw.to)) return null;
  const kind = KINDS.includes(raw.kind) ? raw.kind : null;
  return { from: raw.from, to: raw.to, kind, turn, endTurn: false };
}

/** One frame from the server, or null for anything unreadable. @returns {import('./types.js').ServerMessage|null} */
export function readServerMessage(text) {
  let raw;
  try {
    raw = JSON.parse(text);
  } catch {
    return null;
  }
  if (!raw || typeof raw !== 'object') return null;
  switch (raw.type) {
    case ServerType.Welcome: {
      const role = Object.values(Role).includes(raw.role) ? raw.role : Role.Spectator;
      const seatLink = typeof raw.seat_link === 'string' && raw.seat_link ? raw.seat_link : null;
      return { type: 'welcome', game: String(raw.game_id || ''), role, seatLink };
    }
    case ServerType.State:
      return { type: 'state', state: readState(raw) };
    case ServerType.Error:
      return readError(raw);
    case ServerType.Hint: {
      const hint = readHint(raw);
      return hint ? { type: 'hint', hint } : null;
    }
    default:
      return null;
  }
}

/**
 * Reads an error answer, over HTTP or on the socket.
 * @param {object} raw
 * @returns {{type: 'error', code: string, message: string}}
 */
export function readError(raw) {
  const ok = raw && typeof raw === 'object';
  return {
    type: 'error',
    code: ok && typeof raw.code === 'string' ? raw.code : 'unknown',
    message: ok && typeof raw.message === 'string' ? raw.message : '',
  };
}

/** The answer to a create request, links made absolute against `origin`. @returns {import('./types.js').Created|null} */
export function readCreated(raw, origin) {
  if (!raw || typeof raw !== 'object' || typeof raw.game_id !== 'string' || !GAME_ID.test(raw.game_id)) return null;
  const abs = (u) => (typeof u === 'string' && u ? new URL(u, origin).href : null);
  const seatLink = abs(raw.seat_link);
  const inviteLink = abs(raw.invite_link);
  const computer = readComputer(raw.computer);
  if (!seatLink || !color(raw.color)) return null;
  if (computer ? computer.color === raw.color : !inviteLink) return null;
  return {
    id: raw.game_id,
    color: raw.color,
    seatLink,
    inviteLink: computer ? null : inviteLink,
    spectatorLink: abs(raw.spectator_link) || new URL(gamePath(raw.game_id), origin).href,
    computer,
  };
}

/**
 * Reads the answer to joinRequest.
 * @param {object} raw
 * @returns {{id: string, role: 'white'|'black'|'spectator'} | null}
 */
export function readJoined(raw) {
  if (!raw || typeof raw !== 'object' || typeof raw.game_id !== 'string' || !GAME_ID.test(raw.game_id)) return null;
  const role = raw.role === Role.Spectator ? Role.Spectator : color(raw.role);
  return role ? { id: raw.game_id, role } : null;
}

// ---- addresses ----------------------------------------------------------------

const GAME_ID = /^[A-Za-z0-9]{1,64}$/;

/**
 * The page address of a game.
 * @param {string} id
 * @returns {string}
 */
export function gamePath(id) {
  return `/g/${encodeURIComponent(id)}`;
}

/**
 * Finds the game id in a page URL, /g/{id}. The seat is not in the URL:
 * the server turns seat and invitation links into a cookie and redirects.
 * @param {URL|Location} loc
 * @returns {string|null}
 */
export function gameFromLocation(loc) {
  const m = /^\/g\/([A-Za-z0-9]{1,64})\/?$/.exec(loc.pathname);
  return m ? m[1] : null;
}

/**
 * The invitation token in a page address (`?invite=…`), if it is well formed.
 * @param {URL|Location} loc
 * @returns {string|null}
 */
export function inviteFromLocation(loc) {
  const token = new URLSearchParams(loc.search).get('invite');
  return token && /^[A-Za-z0-9]{22}$/.test(token) ? token : null;
}

/**
 * The WebSocket address of a game. The browser sends the seat cookie on
 * the upgrade by itself.
 * @param {URL|Location} loc the page's location
 * @param {string} id
 * @returns {string}
 */
export function socketUrl(loc, id) {
  const scheme = loc.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${loc.host}/api/games/${encodeURIComponent(id)}/ws`;
}

/**
 * The HTTP address of a game's state (no credentials needed).
 * @param {string} id
 * @returns {string}
 */
export function stateUrl(id) {
  return `/api/games/${encodeURIComponent(id)}`;
}

/**
 * The address that asks the rules for the steps of a position, with the
 * turn so far (notation, or empty for none).
 * @param {string} position position text
 * @param {string} [turn]
 * @returns {string}
 */
export function stepsUrl(position, turn = '') {
  const query = new URLSearchParams({ position });
  if (turn) query.set('turn', turn);
  return `/api/steps?${query}`;
}
