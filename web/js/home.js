// The front page: ask who moves first, create the game, then show the
// invitation (link, copy, share, QR code) and wait for the friend. When
// they arrive the page turns into the game by itself.

import { translator, chooseLang, translatePage } from './i18n.js';
import { drawDiagrams } from './diagram.js';
import { encodeQr, qrPath } from './qr.js';
import { copyText } from './copy.js';
import { connect } from './connection.js';
import {
  createGameRequest, readCreated, readServerMessage, socketUrl, gamePath,
} from './protocol.js';

const t = translator(chooseLang(navigator.languages));
translatePage(document, t);
drawDiagrams(document);

const $ = (id) => document.getElementById(id);
const form = $('start-form');
const startButton = $('start');

form.addEventListener('submit', async (e) => {
  e.preventDefault();
  const first = new FormData(form).get('first');
  startButton.disabled = true;
  startButton.textContent = t('home.starting');
  $('start-error').hidden = true;
  let created = null;
  try {
    const { url, init } = createGameRequest(String(first));
    const res = await fetch(url, init);
    if (res.ok) created = readCreated(await res.json(), location.origin);
  } catch {
    created = null;
  }
  startButton.disabled = false;
  startButton.textContent = t('home.start');
  if (!created) {
    $('start-error').hidden = false;
    return;
  }
  showInvite(created);
});

function showInvite(created) {
  form.hidden = true;
  $('invite').hidden = false;
  $('invite-link').value = created.inviteLink;
  $('to-board').href = gamePath(created.id);
  drawQr($('qr'), created.inviteLink);
  if (typeof navigator.share === 'function') {
    const share = $('share');
    share.hidden = false;
    share.addEventListener('click', () => {
      navigator.share({ title: t('home.shareTitle'), text: t('home.shareText'), url: created.inviteLink })
        .catch(() => {});
    });
  }
  $('copy').addEventListener('click', async (e) => {
    const ok = await copyText($('invite-link'));
    e.target.textContent = t(ok ? 'home.copied' : 'home.copyFailed');
  });
  waitForFriend(created);
}

function drawQr(svg, text) {
  const { modules } = encodeQr(text);
  const { d, size } = qrPath(modules);
  svg.setAttribute('viewBox', `0 0 ${size} ${size}`);
  svg.setAttribute('shape-rendering', 'crispEdges');
  const path = document.createElementNS('http://www.w3.org/2000/svg', 'path');
  path.setAttribute('d', d);
  path.setAttribute('fill', '#000');
  svg.replaceChildren(path);
}

// Watches the game as its creator (the create answer set the seat cookie,
// which the socket sends by itself); once the other seat is taken, opens
// the board.
function waitForFriend(created) {
  let role = null;
  const conn = connect({
    url: socketUrl(location, created.id),
    onStatus: () => {},
    onMessage: (text) => {
      const msg = readServerMessage(text);
      if (!msg) return;
      if (msg.type === 'welcome') role = msg.role;
      if (msg.type !== 'state' || (role !== 'white' && role !== 'black')) return;
      const friend = msg.state.players[role === 'white' ? 'black' : 'white'];
      if (friend.joined) {
        conn.close();
        $('waiting').textContent = t('home.arrived');
        location.assign(gamePath(created.id));
      }
    },
    window,
  });
}
