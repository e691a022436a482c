// The game page: reads the address, connects to the game, and ties the
// state, the drawing and the input together. All game logic lives in
// state.js; this file only wires.

import { translator, chooseLang, translatePage } from './i18n.js';
import {
  createState, receiveState, receiveError, flip, browseBy, browseTo,
  boardView, bottomColor, movableStones, isMyTurn, isPlayer, sideOfTurn, drawOfferNews, Link,
} from './state.js';
import { stoneAt } from './position.js';
import { createBoard, renderBoard, renderDrag, createScheduler } from './render.js';
import { interpret, bindPointer, bindKeyboard, bindHistoryKeys, Input } from './input.js';
import { connect, Status } from './connection.js';
import {
  readServerMessage, stepMessage, simpleMessage, gameFromLocation, socketUrl, stateUrl, gamePath,
  ClientType,
} from './protocol.js';
import { panelElements, renderPanel } from './panel.js';
import { createSound } from './sound.js';
import { copyText } from './copy.js';
import { bindInvitation } from './invitation.js';
import {
  updateGames, recordGame, findGame, localStore,
} from './games.js';

const t = translator(chooseLang(navigator.languages));
translatePage(document, t);

let state = createState();
let hover = null;
let drag = null;
const ui = { resignConfirm: false, soundOn: true, drawDeclinedAt: null, inviteLink: null };
const storage = localStore(window);
const sound = createSound(storage);
ui.soundOn = sound.enabled();

const els = panelElements(document);
const board = createBoard(document.getElementById('board'), { label: t('game.boardLabel') });
const live = document.getElementById('live');

// Set once, when the board first shows a position from the server: the
// end of the first load that web/perf/first-load.mjs measures.
let boardDrawn = false;

const draw = createScheduler(() => {
  renderBoard(board, boardView(state, hover), t);
  renderDrag(board, drag);
  renderPanel(els, state, t, ui);
  if (!boardDrawn && state.game) {
    boardDrawn = true;
    performance.mark('board-drawn');
  }
});

/** Replaces the state and asks for a redraw. */
function update(next) {
  if (next === state) return;
  state = next;
  draw();
}

function say(text) {
  live.textContent = '';
  live.textContent = text;
}

// ---- the connection ------------------------------------------------------------

const gameId = gameFromLocation(location);
let conn = null;
let everOpen = false;

/** Sends one frame; false when the socket is not open. */
function send(text) {
  return Boolean(conn && conn.send(text));
}

if (gameId) {
  conn = connect({
    url: socketUrl(location, gameId),
    onMessage: onFrame,
    onStatus: (status) => {
      if (status === Status.Open) everOpen = true;
      if (status === Status.Reconnecting && !everOpen) checkExists();
      const link = status === Status.Open ? Link.Open
        : status === Status.Reconnecting ? Link.Reconnecting
          : status === Status.Restarting ? Link.Restarting : Link.Connecting;
      update({ ...state, link });
    },
    window,
  });
} else {
  update({ ...state, notFound: true });
}

// A socket that never opened may be a game that does not exist (the server
// answers 404 before the upgrade): ask the HTTP API once to tell.
let checked = false;
async function checkExists() {
  if (checked) return;
  checked = true;
  try {
    const res = await fetch(stateUrl(gameId));
    if (res.status === 404) {
      conn.close();
      update({ ...state, notFound: true });
    }
  } catch {
    checked = false;
  }
}

function onFrame(text) {
  const msg = readServerMessage(text);
  if (!msg) return;
  if (msg.type === 'welcome') {
    update({ ...state, role: msg.role, seatLink: msg.seatLink ? new URL(msg.seatLink, location.href).href : null });
  } else if (msg.type === 'state') {
    if (msg.state.game !== gameId) return;
    const before = state;
    update(receiveState(state, msg.state));
    afterState(before);
    remember();
    if (state.game.nextGame) goToRematch(state.game.nextGame);
  } else if (msg.type === 'error') {
    update(receiveError(state, msg));
    if (state.notice) say(t(state.notice.key) === state.notice.key ? msg.message : t(state.notice.key));
  }
}

function afterState(before) {
  const g = state.game;
  const old = before.game;
  const news = drawOfferNews(old, g, state.role);
  if (news === 'offered') say(t('say.drawOffered'));
  if (news === 'declined') {
    ui.drawDeclinedAt = g.moves.length;
    say(t('say.drawDeclined'));
    draw();
  }
  if (old && g.moves.length > old.moves.length) {
    const move = g.moves[g.moves.length - 1];
    const mover = sideOfTurn(g, g.moves.length - 1);
    const taken = g.lastTurn.captured.length;
    if (mover !== state.role) {
      sound.play(taken ? 'capture' : 'move');
      say([t('say.played', { color: t(`color.${mover}`), move }),
        taken ? t('say.captured', { count: taken }) : '',
        isMyTurn(state) ? t('say.yourTurn') : ''].filter(Boolean).join(' '));
    }
  }
}

// A player's game goes into this browser's list (front page), with the
// time it was last seen; while the friend has not joined, its entry holds
// the invitation link, which the board then shows.
const showInvite = bindInvitation(document, t, navigator);
function remember() {
  if (!isPlayer(state) || !state.game) return;
  const friend = state.role === 'white' ? 'black' : 'white';
  const joined = state.game.players[friend].joined;
  const list = updateGames(storage, (games) => recordGame(games, {
    id: gameId, color: state.role, joined, lastActive: Date.now(),
  }));
  const entry = findGame(list, gameId);
  const link = !joined && entry ? entry.invite : null;
  if (link !== ui.inviteLink) {
    ui.inviteLink = link;
    if (link) showInvite(link);
    draw();
  }
}

// Both players asked for a rematch: every page of this game moves on to
// the new one (the server carries the seats over).
let leaving = false;
function goToRematch(next) {
  if (leaving) return;
  leaving = true;
  conn.close();
  location.assign(gamePath(next));
}

// ---- input ----------------------------------------------------------------------

function onInput(event) {
  const { state: next, intent } = interpret(state, event);
  update(next);
  if (!intent) {
    if (next.choosing && !state.pending) {
      const [a, b] = next.choosing.options.map((o) => o.captures.join(' '));
      say(t('say.chooseLine', { a, b }));
    }
    return;
  }
  const text = intent.type === 'step' ? stepMessage(intent.step) : simpleMessage(intent.type);
  if (!send(text)) {
    update(receiveError(state, { code: 'unknown', message: '' }));
    return;
  }
  if (intent.type === 'step') sound.play(intent.step.captures.length ? 'capture' : 'move');
}

bindPointer(board.svg, {
  bottom: () => bottomColor(state),
  canDrag: (sq) => movableStones(state).includes(sq),
  onInput,
  onDrag: (d) => {
    drag = d ? { x: d.x, y: d.y, color: stoneAt(state.board, d.square) } : null;
    draw();
  },
  onHover: (sq) => {
    if (sq === hover) return;
    hover = sq;
    draw();
  },
});

bindKeyboard(board.svg, {
  bottom: () => bottomColor(state),
  onInput,
  onHover: (sq) => {
    hover = sq;
    draw();
  },
});

function browse(action) {
  if (action === 'first') update(browseTo(state, 0));
  else if (action === 'last') update(browseTo(state, null));
  else update(browseBy(state, action));
}

bindHistoryKeys(document, browse);

const click = (node, fn) => node.addEventListener('click', fn);
click(els.histFirst, () => browse('first'));
click(els.histPrev, () => browse(-1));
click(els.histNext, () => browse(1));
click(els.histLast, () => browse('last'));
click(document.getElementById('back-live'), () => browse('last'));
click(els.moves, (e) => {
  const b = e.target.closest('button[data-ply]');
  if (b) update(browseTo(state, Number(b.dataset.ply)));
});
click(els.endTurn, () => onInput({ type: Input.EndTurn }));
click(els.flip, () => update(flip(state)));
click(els.sound, () => {
  sound.setEnabled(!sound.enabled());
  ui.soundOn = sound.enabled();
  draw();
});
const intent = (type) => () => {
  send(simpleMessage(type));
  draw();
};
click(els.offerDraw, intent(ClientType.OfferDraw));
click(document.getElementById('accept-draw'), intent(ClientType.AcceptDraw));
click(document.getElementById('decline-draw'), intent(ClientType.DeclineDraw));
click(document.getElementById('claim-victory'), intent(ClientType.ClaimVictory));
click(els.rematch, intent(ClientType.Rematch));
click(els.resign, () => {
  ui.resignConfirm = true;
  draw();
});
click(document.getElementById('resign-no'), () => {
  ui.resignConfirm = false;
  draw();
});
click(document.getElementById('resign-yes'), () => {
  ui.resignConfirm = false;
  send(simpleMessage(ClientType.Resign));
  draw();
});
click(document.getElementById('seat-copy'), async (e) => {
  const ok = await copyText(els.seatLink);
  e.target.textContent = t(ok ? 'game.copied' : 'game.copy');
});

draw();
