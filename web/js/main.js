// The game page: reads the address, connects to the game, and ties the
// state, the drawing and the input together. All game logic lives in
// state.js; this file only wires.

import { translator, chooseLang, translatePage } from './i18n.js';
import {
  createState, stateFromPosition, receiveState, receiveError, flip, browseBy, browseTo,
  boardView, bottomColor, movableStones, isMyTurn, Link,
} from './state.js';
import { stoneAt } from './position.js';
import { createBoard, renderBoard, renderDrag, createScheduler } from './render.js';
import { interpret, bindPointer, bindKeyboard, bindHistoryKeys, Input } from './input.js';
import { connect, Status } from './connection.js';
import {
  readServerMessage, stepMessage, simpleMessage, gameFromLocation, socketUrl, ClientType,
} from './protocol.js';
import { panelElements, renderPanel, opponentGone } from './panel.js';
import { createSound } from './sound.js';
import { copyText } from './copy.js';

const CLAIM_AFTER_MS = 90_000;

const t = translator(chooseLang(navigator.languages));
translatePage(document, t);

let state = createState();
let hover = null;
let drag = null;
let goneSince = null;
const ui = { resignConfirm: false, soundOn: true, claimable: false };
const sound = createSound(safeStorage());
ui.soundOn = sound.enabled();

const els = panelElements(document);
const board = createBoard(document.getElementById('board'), { label: t('game.boardLabel') });
const live = document.getElementById('live');

const draw = createScheduler(() => {
  renderBoard(board, boardView(state, hover), t);
  renderDrag(board, drag);
  renderPanel(els, state, t, ui);
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

// ---- the connection, or the test hook --------------------------------------

let send = () => false;
const params = new URLSearchParams(location.search);
const game = gameFromLocation(location);

if (params.has('position')) {
  // A position alone, drawn without a server: for tests and shared diagrams.
  const shown = stateFromPosition(params.get('position'));
  update(shown || { ...createState(), notFound: true });
} else if (params.has('test')) {
  // The test hook: frames come from the test, intents are collected.
  const sent = [];
  send = (text) => { sent.push(JSON.parse(text)); return true; };
  window.fanoronaTest = { sent, receive: (msg) => onFrame(JSON.stringify(msg)) };
  update({ ...state, link: Link.Open });
} else if (game) {
  const conn = connect({
    url: socketUrl(location, game),
    onMessage: onFrame,
    onStatus: (status) => {
      const link = status === Status.Open ? Link.Open
        : status === Status.Reconnecting ? Link.Reconnecting : Link.Connecting;
      update({ ...state, link });
    },
    window,
  });
  send = conn.send;
} else {
  update({ ...state, notFound: true });
}

function onFrame(text) {
  const msg = readServerMessage(text);
  if (!msg) return;
  if (msg.type === 'welcome') {
    update({ ...state, role: msg.role, seatLink: msg.seatLink ? new URL(msg.seatLink, location.href).href : null });
  } else if (msg.type === 'state') {
    const before = state;
    update(receiveState(state, msg.state));
    afterState(before);
  } else if (msg.type === 'error') {
    update(receiveError(state, msg));
    if (state.notice) say(t(state.notice.key) === state.notice.key ? msg.message : t(state.notice.key));
  }
}

function afterState(before) {
  const g = state.game;
  const old = before.game;
  if (old && g.moves.length > old.moves.length) {
    const move = g.moves[g.moves.length - 1];
    const mover = g.moves.length % 2 === 1 ? 'white' : 'black';
    const taken = g.lastTurn.captured.length;
    if (mover !== state.role) {
      sound.play(taken ? 'capture' : 'move');
      say([t('say.played', { color: t(`color.${mover}`), move }),
        taken ? t('say.captured', { count: taken }) : '',
        isMyTurn(state) ? t('say.yourTurn') : ''].filter(Boolean).join(' '));
    }
  }
  if (opponentGone(state)) {
    goneSince = goneSince ?? Date.now();
  } else {
    goneSince = null;
    ui.claimable = false;
  }
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

// The opponent's absence is judged by the server; the button only appears
// once they have been away a while on their own turn.
setInterval(() => {
  const claimable = goneSince !== null && Date.now() - goneSince > CLAIM_AFTER_MS;
  if (claimable !== ui.claimable) {
    ui.claimable = claimable;
    draw();
  }
}, 5000);

function safeStorage() {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

draw();
