// Everything the client knows about the server's wire format lives here:
// message builders (client -> server), readers that turn server messages
// into the client's own shapes, and the URLs of the API and the socket.
// When the server's protocol changes, this is the one file to adapt.

/** Message types the server sends. */
export const ServerType = Object.freeze({
  Welcome: 'welcome', State: 'state', Error: 'error',
});

/** Message types the client sends. */
export const ClientType = Object.freeze({
  Step: 'step', EndTurn: 'end_turn', Resign: 'resign',
  OfferDraw: 'offer_draw', AcceptDraw: 'accept_draw', DeclineDraw: 'decline_draw',
  ClaimVictory: 'claim_victory', Rematch: 'rematch',
});

/** Who may move first when a game is created. */
export const First = Object.freeze({ Me: 'me', Friend: 'friend', Random: 'random' });

/** Roles a browser can have in a game. */
export const Role = Object.freeze({ White: 'white', Black: 'black', Spectator: 'spectator' });

/** Reasons a game ends, as the server names them. */
export const EndReason = Object.freeze({
  NoStones: 'no_stones', NoLegalStep: 'no_legal_step', FiftyTurns: 'fifty_turns',
  Resignation: 'resignation', Agreement: 'agreement', Abandonment: 'abandonment',
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
 * An intent without arguments: end_turn, resign, offer_draw, accept_draw,
 * decline_draw, claim_victory or rematch.
 * @param {string} type one of ClientType
 * @returns {string} the JSON frame
 */
export function simpleMessage(type) {
  if (!Object.values(ClientType).includes(type) || type === ClientType.Step) {
    throw new TypeError(`not a simple message type: ${type}`);
  }
  return JSON.stringify({ type });
}

/**
 * The HTTP request that creates a game.
 * @param {string} first one of First
 * @returns {{url: string, init: RequestInit}}
 */
export function createGameRequest(first) {
  const value = Object.values(First).includes(first) ? first : First.Random;
  return {
    url: '/api/games',
    init: {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ first: value }),
    },
  };
}

// ---- server -> client -------------------------------------------------------

function pick(obj, ...names) {
  for (const n of names) if (obj && obj[n] !== undefined) return obj[n];
  return undefined;
}

function squares(list) {
  return Array.isArray(list) ? list.filter((s) => typeof s === 'string' && SQUARE.test(s)) : [];
}

function readStep(s) {
  if (!s || !SQUARE.test(s.from) || !SQUARE.test(s.to) || !KINDS.includes(s.kind)) return null;
  return { from: s.from, to: s.to, kind: s.kind, captures: squares(s.captures) };
}

function readPresence(p) {
  return { joined: Boolean(p && p.joined), connected: Boolean(p && p.connected) };
}

function readChain(c) {
  if (!c || !SQUARE.test(c.stone)) return null;
  return {
    stone: c.stone,
    visited: squares(c.visited),
    lastDirection: pick(c, 'last_direction', 'lastDirection', 'last') || null,
  };
}

function readResult(r) {
  if (!r) return null;
  const winner = r.winner === 'white' || r.winner === 'black' ? r.winner : null;
  return { winner, reason: String(r.reason || '') };
}

function readLastTurn(raw) {
  const last = pick(raw, 'last_turn', 'lastTurn');
  if (!last) return { path: [], captured: [] };
  return { path: squares(last.path), captured: squares(last.captured) };
}

/**
 * The client's own shape of a game state.
 * @typedef {object} GameState
 * @property {string} game
 * @property {string} position position text
 * @property {'white'|'black'} turn side to move
 * @property {{stone: string, visited: string[], lastDirection: string|null} | null} chain
 * @property {Array<{from: string, to: string, kind: string, captures: string[]}>} steps
 * @property {boolean} canEndTurn
 * @property {string[]} moves
 * @property {{path: string[], captured: string[]}} lastTurn
 * @property {number} turnsSinceCapture
 * @property {{white: {joined: boolean, connected: boolean}, black: {joined: boolean, connected: boolean}}} players
 * @property {'white'|'black'|null} drawOffer the side offering a draw
 * @property {'white'|'black'|null} rematch the side asking for a rematch
 * @property {string|null} nextGame the game a rematch created
 * @property {{winner: 'white'|'black'|null, reason: string} | null} result
 * @property {number} version
 */

/**
 * Reads the body of a "state" message.
 * @param {object} raw
 * @returns {GameState}
 */
export function readState(raw) {
  const players = raw.players || {};
  const side = (v) => (v === 'white' || v === 'black' ? v : null);
  const rematch = pick(raw, 'rematch');
  return {
    game: String(pick(raw, 'game', 'id', 'game_id') || ''),
    position: String(raw.position || ''),
    turn: raw.turn === 'black' ? 'black' : 'white',
    chain: readChain(raw.chain),
    steps: (Array.isArray(raw.steps) ? raw.steps : []).map(readStep).filter(Boolean),
    canEndTurn: Boolean(pick(raw, 'can_end_turn', 'canEndTurn')),
    moves: Array.isArray(raw.moves) ? raw.moves.map(String) : [],
    lastTurn: readLastTurn(raw),
    turnsSinceCapture: Number(pick(raw, 'turns_since_capture', 'turnsSinceCapture')) || 0,
    players: { white: readPresence(players.white), black: readPresence(players.black) },
    drawOffer: side(pick(raw, 'draw_offer', 'drawOffer')),
    rematch: side(rematch && typeof rematch === 'object' ? rematch.by : rematch),
    nextGame: (rematch && typeof rematch === 'object' && rematch.game) || null,
    result: readResult(raw.result),
    version: Number(raw.version) || 0,
  };
}

/**
 * Reads one frame from the server.
 * @param {string} text
 * @returns {{type: 'welcome', role: string, seatLink: string|null}
 *   | {type: 'state', state: GameState}
 *   | {type: 'error', code: string, message: string}
 *   | null} null for anything unreadable
 */
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
      return { type: 'welcome', role, seatLink: pick(raw, 'seat_link', 'seatLink') || null };
    }
    case ServerType.State:
      return { type: 'state', state: readState(raw.state && typeof raw.state === 'object' ? raw.state : raw) };
    case ServerType.Error:
      return { type: 'error', code: String(raw.code || 'error'), message: String(raw.message || '') };
    default:
      return null;
  }
}

/**
 * Reads the answer to createGameRequest.
 * @param {object} raw
 * @param {string} origin the page's origin, to make links absolute
 * @returns {{id: string, seatLink: string, inviteLink: string, spectatorLink: string} | null}
 */
export function readCreated(raw, origin) {
  if (!raw || typeof raw !== 'object') return null;
  const id = pick(raw, 'id', 'game', 'game_id');
  const links = raw.links && typeof raw.links === 'object' ? raw.links : raw;
  const abs = (u) => (typeof u === 'string' && u ? new URL(u, origin).href : null);
  const seatLink = abs(pick(links, 'seat', 'seat_link', 'seatLink', 'creator', 'player'));
  const inviteLink = abs(pick(links, 'invite', 'invite_link', 'inviteLink'));
  const spectatorLink = abs(pick(links, 'spectator', 'spectator_link', 'spectatorLink', 'watch'));
  if (typeof id !== 'string' || !seatLink || !inviteLink) return null;
  return { id, seatLink, inviteLink, spectatorLink: spectatorLink || new URL(`/g/${id}`, origin).href };
}

/**
 * Finds the game id and seat secret in a page URL: /g/{id}, the secret in
 * the query (?seat=) or the fragment (#seat=), never both needed.
 * @param {URL|Location} loc
 * @returns {{id: string, seat: string|null} | null}
 */
export function gameFromLocation(loc) {
  const m = /^\/g\/([A-Za-z0-9_-]{1,64})\/?$/.exec(loc.pathname);
  if (!m) return null;
  const query = new URLSearchParams(loc.search);
  const hash = new URLSearchParams(String(loc.hash || '').replace(/^#/, ''));
  return { id: m[1], seat: query.get('seat') || hash.get('seat') || null };
}

/**
 * The WebSocket address of a game.
 * @param {URL|Location} loc the page's location
 * @param {{id: string, seat: string|null}} game
 * @returns {string}
 */
export function socketUrl(loc, game) {
  const scheme = loc.protocol === 'https:' ? 'wss:' : 'ws:';
  const url = new URL(`${scheme}//${loc.host}/api/games/${encodeURIComponent(game.id)}/ws`);
  if (game.seat) url.searchParams.set('seat', game.seat);
  return url.href;
}
