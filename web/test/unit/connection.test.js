import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, backoffDelay, retryStatus, Status } from '../../js/connection.js';

test('reconnect delays double up to a cap and stay within their jitter band', () => {
  assert.equal(backoffDelay(0, 0), 250);
  assert.equal(backoffDelay(0, 0.999999), 500);
  assert.equal(backoffDelay(3, 0), 2000);
  assert.equal(backoffDelay(10, 0), 7500);
  assert.equal(backoffDelay(10, 0.999999), 15000);
  assert.ok(backoffDelay(1, 0.5) > backoffDelay(0, 0.5));
});

// A fake socket and clock: the test decides when things happen.
function harness() {
  const sockets = [];
  const timers = [];
  class FakeSocket {
    constructor(url) { this.url = url; this.readyState = 0; this.sent = []; sockets.push(this); }
    send(t) { this.sent.push(t); }
    close() { this.readyState = 3; }
    open() { this.readyState = 1; this.onopen(); }
    drop(code = 1006) { this.readyState = 3; this.onclose({ code }); }
  }
  const statuses = [];
  const messages = [];
  const conn = connect({
    url: 'ws://x/api/games/a/ws',
    WebSocket: FakeSocket,
    setTimeout: (fn, ms) => { timers.push({ fn, ms }); return timers.length; },
    clearTimeout: () => {},
    random: () => 0,
    onStatus: (s) => statuses.push(s),
    onMessage: (m) => messages.push(m),
  });
  return { sockets, timers, statuses, messages, conn };
}

test('frames are delivered once open, and sending needs an open socket', () => {
  const h = harness();
  assert.equal(h.conn.send('early'), false);
  h.sockets[0].open();
  assert.equal(h.conn.send('hello'), true);
  assert.deepEqual(h.sockets[0].sent, ['hello']);
  h.sockets[0].onmessage({ data: '{"type":"state"}' });
  assert.deepEqual(h.messages, ['{"type":"state"}']);
  assert.deepEqual(h.statuses, [Status.Connecting, Status.Open]);
});

test('a dropped socket reconnects after a growing delay, reset once open', () => {
  const h = harness();
  h.sockets[0].open();
  h.sockets[0].drop();
  assert.equal(h.statuses.at(-1), Status.Reconnecting);
  assert.equal(h.timers.length, 1);
  h.timers[0].fn();
  assert.equal(h.sockets.length, 2);
  h.sockets[1].drop();
  assert.ok(h.timers[1].ms > h.timers[0].ms);
  h.timers[1].fn();
  h.sockets[2].open();
  h.sockets[2].drop();
  assert.equal(h.timers[2].ms, h.timers[0].ms, 'back to the shortest delay');
});

test('closing stops reconnecting', () => {
  const h = harness();
  h.sockets[0].open();
  h.conn.close();
  assert.equal(h.statuses.at(-1), Status.Closed);
  assert.equal(h.timers.length, 0);
  assert.equal(h.conn.send('x'), false);
});

test('a server restart is reported as such until the socket is back', () => {
  const h = harness();
  h.sockets[0].open();
  h.sockets[0].drop(1012);
  assert.equal(h.statuses.at(-1), Status.Restarting);
  h.timers[0].fn();
  assert.equal(h.statuses.at(-1), Status.Restarting, 'still restarting while retrying');
  h.sockets[1].open();
  assert.equal(h.statuses.at(-1), Status.Open);
  h.sockets[1].drop();
  assert.equal(h.statuses.at(-1), Status.Reconnecting, 'an ordinary drop afterwards');
});

test('a database the server cannot reach is reported as such until the socket is back', () => {
  const h = harness();
  h.sockets[0].open();
  h.sockets[0].drop(1013);
  assert.equal(h.statuses.at(-1), Status.DatabaseUnavailable);
  assert.equal(h.timers.length, 1, 'it tries again by itself');
  h.timers[0].fn();
  assert.equal(h.statuses.at(-1), Status.DatabaseUnavailable, 'still said while retrying');
  // The upgrade is refused (503) while the database is down: the browser
  // reports an abnormal close, which says nothing new.
  h.sockets[1].drop(1006);
  assert.equal(h.statuses.at(-1), Status.DatabaseUnavailable);
  assert.ok(h.timers[1].ms > h.timers[0].ms, 'with a growing delay');
  h.timers[1].fn();
  h.sockets[2].open();
  assert.equal(h.statuses.at(-1), Status.Open);
  h.sockets[2].drop();
  assert.equal(h.statuses.at(-1), Status.Reconnecting, 'an ordinary drop afterwards');
});

test('each close code the server sends names its own status', () => {
  assert.equal(retryStatus(1012), Status.Restarting);
  assert.equal(retryStatus(1013), Status.DatabaseUnavailable);
  for (const code of [1000, 1001, 1006, 1009, 1011, undefined]) {
    assert.equal(retryStatus(code), Status.Reconnecting, String(code));
  }
});
