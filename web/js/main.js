// The game page: reads the address, connects, and ties state, drawing and
// input together. Every user event goes through one dispatch: the input
// machine (input.js) picks the transition (state-*.js), and the drawing
// reads the state alone. This file wires, and does what a state cannot:
// send, play sounds, speak, remember.

import { pageTranslator, pageLang, keepPlace } from './i18n.js';
import { createState, Link } from './state-core.js';
import {
  bottomColor, movableStones, isMyTurn, isPlayer, sideOfTurn, drawOfferNews, waitingForFriend, messagesToShow,
} from './state-queries.js';
import { receiveWelcome, receiveState, receiveError, receiveHint, setLink, gameNotFound } from './state-server.js';
import { setSound, setInviteLink } from './state-actions.js';
import { boardView, dragView } from './state-draw.js';
import { createBoard, renderBoard, renderDrag, createScheduler } from './render.js';
import { interpret, bindPointer, bindKeyboard, bindHistoryKeys, Input } from './input.js';
import { connect, Status } from './connection.js';
import {
  readServerMessage, stepMessage, simpleMessage, levelMessage, gameFromLocation, socketUrl, stateUrl, gamePath,
  ClientType, LEVELS, sameGameRequest, recordUrl, readCreated, readError, SAYINGS,
} from './protocol.js';
import { panelElements, renderPanel, fillLevels, tabTitle } from './panel.js';
import { createSound } from './sound.js';
import { bindClocks } from './clock.js';
import { copyText, copyString } from './copy.js';
import { bindInvitation } from './invitation.js';
import {
  updateGames, recordGame, findGame, localStore,
} from './games.js';

const t = pageTranslator(document);
const lang = pageLang(document);
keepPlace(document, location);

const storage = localStore(window);
const sound = createSound(storage);
// Notifications of the player's turn while the page is hidden, opt-in.
const Note = window.Notification;
const notify = document.getElementById('notify');
let state = setSound(createState(), sound.enabled());

const els = panelElements(document);
fillLevels(els.level, LEVELS, t);
const board = createBoard(document.getElementById('board'), {
  label: t('game.boardLabel'), choices: document.getElementById('line-choice'),
});
const live = document.getElementById('live');
const icon = document.querySelector('link[rel=icon]');
// The number of turns played when the friend joined, while this page saw it.
let joinedAt = -1;

// Set once, when the board first shows a position from the server: the
// end of the first load that web/perf/first-load.mjs measures.
let boardDrawn = false;

const draw = createScheduler(() => {
  renderBoard(board, boardView(state), t);
  renderDrag(board, dragView(state));
  renderPanel(els, state, t);
  if (!boardDrawn && state.game) {
    boardDrawn = true;
    performance.mark('board-drawn');
  }
});

// The clocks, counted from when their state arrived. At zero the server
// decides by itself; if no word of it comes within two seconds, a player
// claims it.
let clockAt = 0;
const clocks = bindClocks({
  top: document.querySelector('#player-top .clock'), bottom: document.querySelector('#player-bottom .clock'),
}, {
  t,
  now: () => performance.now(),
  onLow: () => say(t('clock.low')),
  onZero: () => {
    const seq = state.game.seq;
    setTimeout(() => {
      if (isPlayer(state) && !state.game.result && state.game.seq === seq) send(simpleMessage(ClientType.Flag));
    }, 2000);
  },
});

/** Replaces the state and asks for a redraw. */
function update(next) {
  if (next === state) return;
  state = next;
  draw();
  retitle();
  clocks.show(state.game, clockAt, bottomColor(state), state.role);
}

// The tab, at once: a tab in the background draws no frames.
function retitle() {
  const tab = tabTitle(state, joinedAt === state.game?.moves.length, t);
  if (document.title !== tab.title) document.title = tab.title;
  const href = tab.dot ? '/favicon-turn.svg' : '/favicon.svg';
  if (icon.getAttribute('href') !== href) icon.setAttribute('href', href);
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
          : status === Status.Restarting ? Link.Restarting
            : status === Status.DatabaseUnavailable ? Link.DatabaseUnavailable : Link.Connecting;
      update(setLink(state, link));
    },
    window,
  });
} else {
  update(gameNotFound(state));
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
      update(gameNotFound(state));
    }
  } catch {
    checked = false;
  }
}

function onFrame(text) {
  const msg = readServerMessage(text);
  if (!msg) return;
  if (msg.type === 'welcome') {
    update(receiveWelcome(state, msg.role, msg.seatLink ? new URL(msg.seatLink, location.href).href : null));
    notify.parentElement.hidden = !Note || !isPlayer(state);
  } else if (msg.type === 'state') {
    if (msg.state.game !== gameId) return;
    clockAt = performance.now();
    const before = state;
    update(receiveState(state, msg.state));
    afterState(before);
    showMessages();
    remember();
    if (state.game.nextGame) goToRematch(state.game.nextGame);
  } else if (msg.type === 'hint') {
    update(receiveHint(state, msg.hint));
    if (state.hint) say(msg.hint.endTurn ? t('game.hint.endTurn') : t('game.hint.step', msg.hint));
  } else if (msg.type === 'error' && msg.code !== 'time_not_out') {
    // (A claim on time sent a moment early is not news.)
    update(receiveError(state, msg));
    if (state.notice) say(t(state.notice.key) === state.notice.key ? msg.message : t(state.notice.key));
  }
}

function afterState(before) {
  const g = state.game;
  const old = before.game;
  const news = drawOfferNews(old, g, state.role);
  if (news === 'offered') say(t('say.drawOffered'));
  if (news === 'declined') say(t('say.drawDeclined'));
  if (g.takebackOffer && g.takebackOffer !== state.role && old && old.takebackOffer !== g.takebackOffer) say(t('game.takebackToYou'));
  if (old && waitingForFriend(before) && !waitingForFriend(state)) {
    joinedAt = g.moves.length;
    retitle();
  }
  // The game ended: a phone may be scrolled down to Resign; the board
  // (and the result under it) comes back into view.
  if (old && !old.result && g.result) {
    const area = document.querySelector('.play-area');
    if (area.getBoundingClientRect().top < 0) area.scrollIntoView();
  }
  if (old && g.moves.length > old.moves.length) {
    const move = g.moves[g.moves.length - 1];
    const mover = sideOfTurn(g, g.moves.length - 1);
    const taken = g.lastTurn.captured.length;
    if (mover !== state.role) {
      const played = t('say.played', { color: t(`color.${mover}`), move });
      sound.play(taken ? 'capture' : 'move');
      say([played, taken ? t('say.captured', { count: taken }) : '',
        isMyTurn(state) ? t('say.yourTurn') : ''].filter(Boolean).join(' '));
      try {
        if (isMyTurn(state) && notify.checked && document.hidden) {
          new Note(t('game.yourTurn'), { body: played }).onclick = () => window.focus();
        }
      } catch {
        // Android notifies from service workers only.
      }
    }
  }
}

// ---- messages: shown a moment beside their sender, and spoken; muted, only the page's own.

const sayMenu = document.getElementById('say');
const muteButton = document.getElementById('mute');
let muted = storage?.getItem('fanorona.mute') === 'on';
let seen = null;
const sayList = document.getElementById('say-list');
for (const text of SAYINGS) {
  const b = document.createElement('button');
  b.className = 'button quiet-button';
  b.value = text;
  b.textContent = t(`game.msg.${text}`);
  sayList.append(b);
}
sayList.addEventListener('click', (e) => {
  if (e.target.value && send(JSON.stringify({ type: ClientType.Message, text: e.target.value }))) {
    sayMenu.open = false;
    sayMenu.firstElementChild.focus();
  }
});

function showMessages() {
  const g = state.game;
  sayMenu.hidden = g.computer || !isPlayer(state) || !g.players.white.joined || !g.players.black.joined;
  muteButton.hidden = g.computer;
  muteButton.setAttribute('aria-pressed', muted);
  for (const m of messagesToShow(g, seen, state.role, muted)) {
    const bubble = els[m.by === bottomColor(state) ? 'bottom' : 'top'].root.querySelector('.said');
    bubble.textContent = t(`game.msg.${m.text}`);
    bubble.hidden = false;
    clearTimeout(bubble.timer);
    bubble.timer = setTimeout(() => { bubble.hidden = true; }, 6000);
    if (seen !== null) say(t('say.message', { color: t(`color.${m.by}`), text: bubble.textContent }));
  }
  seen = Math.max(seen ?? -1, ...g.messages.map((m) => m.seq));
}

muteButton.addEventListener('click', () => {
  muted = !muted;
  try {
    storage?.setItem('fanorona.mute', muted ? 'on' : '');
  } catch {
    // Refused: it lasts this visit.
  }
  if (muted) for (const b of document.querySelectorAll('.said')) b.hidden = true;
  showMessages();
});

// A player's game goes into this browser's list (front page), with the
// time it was last seen; while the friend has not joined, its entry holds
// the invitation link, which the board then shows.
const showInvite = bindInvitation(document, t, navigator, lang);
function remember() {
  if (!isPlayer(state) || !state.game) return;
  const friend = state.role === 'white' ? 'black' : 'white';
  const { computer } = state.game;
  const joined = Boolean(computer) || state.game.players[friend].joined;
  const list = updateGames(storage, (games) => recordGame(games, {
    id: gameId, color: state.role, joined, lastActive: Date.now(), computer: computer ? computer.level : null,
  }));
  const entry = findGame(list, gameId);
  const link = !joined && entry ? entry.invite : null;
  if (link !== state.inviteLink && link) showInvite(link);
  update(setInviteLink(state, link));
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

// The intents the board sends, and those that wait for an answer: when
// the socket is down they are rolled back with a notice. Offers and the
// like are simply not sent.
const ROLLED_BACK = ['step', 'end_turn', 'takeback', 'hint', 'set_level'];

function frame(intent) {
  if (intent.type === 'step') return stepMessage(intent.step);
  if (intent.type === 'set_level') return levelMessage(intent.level);
  return simpleMessage(intent.type);
}

/** The one way in for every user event. */
function dispatch(event) {
  const before = state;
  const { state: next, intent } = interpret(state, event);
  update(next);
  if (next.soundOn !== before.soundOn) sound.setEnabled(next.soundOn);
  if (next.choosing && next.choosing !== before.choosing && !before.pending) {
    const [a, b] = next.choosing.options.map((o) => o.captures.join(' '));
    say(t('say.chooseLine', { a, b }));
  }
  if (!intent) return;
  // Against the computer the hint is searched here (page-hint.js), or by
  // the server when the engine cannot run in this browser.
  if (intent.type === 'hint') {
    import('./page-hint.js').then((m) => m.pageHint(next.game)).then(onFrame, () => transmit(intent));
  } else transmit(intent);
}

function transmit(intent) {
  if (!send(frame(intent))) {
    if (ROLLED_BACK.includes(intent.type)) update(receiveError(state, { code: 'unknown', message: '' }));
    return;
  }
  if (intent.type === 'step') sound.play(intent.step.captures.length ? 'capture' : 'move');
}

bindPointer(board.svg, {
  bottom: () => bottomColor(state),
  canDrag: (sq) => movableStones(state).includes(sq),
  onInput: dispatch,
});
bindKeyboard(board.svg, { bottom: () => bottomColor(state), onInput: dispatch });
bindHistoryKeys(document, dispatch);

const on = (node, event) => node.addEventListener('click', () => dispatch(event()));
on(els.histFirst, () => ({ type: Input.Browse, by: 'first' }));
on(els.histPrev, () => ({ type: Input.Browse, by: -1 }));
on(els.histNext, () => ({ type: Input.Browse, by: 1 }));
on(els.histLast, () => ({ type: Input.Browse, by: 'last' }));
on(document.getElementById('back-live'), () => ({ type: Input.Browse, by: 'last' }));
els.moves.addEventListener('click', (e) => {
  const b = e.target.closest('button[data-ply]');
  if (b) dispatch({ type: Input.BrowseTo, ply: Number(b.dataset.ply) });
});
// The buttons for the two lines do what tapping a stone of that line does.
board.choices.addEventListener('click', (e) => {
  const b = e.target.closest('button[data-take]');
  if (b) dispatch({ type: Input.Tap, square: b.dataset.take });
});
on(els.endTurn, () => ({ type: Input.EndTurn }));
on(els.flip, () => ({ type: Input.Flip }));
on(els.sound, () => ({ type: Input.Sound, on: !state.soundOn }));
notify.checked = Note?.permission === 'granted' && storage?.getItem('fanorona.notify') === 'on';
notify.addEventListener('change', async () => {
  notify.checked &&= Note.permission === 'granted' || await Note.requestPermission().catch(() => '') === 'granted';
  try {
    storage?.setItem('fanorona.notify', notify.checked ? 'on' : 'off');
  } catch {
    // Refused: the choice lasts this visit.
  }
});
const sendIntent = (type) => () => ({ type: Input.Send, intent: type });
on(els.offerDraw, sendIntent(ClientType.OfferDraw));
on(document.getElementById('accept-draw'), sendIntent(ClientType.AcceptDraw));
on(document.getElementById('decline-draw'), sendIntent(ClientType.DeclineDraw));
on(els.askTakeback, sendIntent(ClientType.OfferTakeback));
on(document.getElementById('accept-takeback'), sendIntent(ClientType.AcceptTakeback));
on(document.getElementById('decline-takeback'), sendIntent(ClientType.DeclineTakeback));
on(document.getElementById('claim-victory'), sendIntent(ClientType.ClaimVictory));
on(els.rematch, sendIntent(ClientType.Rematch));
on(els.resign, () => ({ type: Input.AskResign }));
on(els.takeback, () => ({ type: Input.Takeback }));
on(els.askHint, () => ({ type: Input.Hint }));
els.level.addEventListener('change', () => dispatch({ type: Input.Level, level: Number(els.level.value) }));
on(document.getElementById('resign-no'), () => ({ type: Input.KeepPlaying }));
on(document.getElementById('resign-yes'), () => ({ type: Input.Resign }));
document.getElementById('seat-copy').addEventListener('click', async (e) => {
  const ok = await copyText(els.seatLink);
  e.target.textContent = t(ok ? 'game.copied' : 'game.copy');
});

// The record: saved as a file by the link, or copied as text.
if (gameId) document.getElementById('record-download').href = recordUrl(gameId, lang);
document.getElementById('record-copy').addEventListener('click', async (e) => {
  const button = e.currentTarget;
  let ok = false;
  try {
    const res = await fetch(recordUrl(gameId, lang));
    ok = res.ok && await copyString(await res.text());
  } catch {
    // Not copied: the label stays.
  }
  button.textContent = t(ok ? 'game.copied' : 'game.copyRecord');
});

// New game: against the computer, straight into a game at the same level
// with the same colour; anyone else goes to the front page (the link).
els.newGame.addEventListener('click', async (e) => {
  const request = sameGameRequest(state.game, state.role);
  if (!request) return;
  e.preventDefault();
  try {
    const res = await fetch(request.url, request.init);
    const body = await res.json().catch(() => null);
    const created = res.ok ? readCreated(body, location.origin) : null;
    if (created) {
      location.assign(gamePath(created.id));
      return;
    }
    update(receiveError(state, readError(body)));
  } catch {
    update(receiveError(state, { code: 'unknown', message: '' }));
  }
});

draw();
