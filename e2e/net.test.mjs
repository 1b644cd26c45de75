// The browser client's connection (web/net.js) without a browser: a fake WebSocket
// and Node's mock timers check the heartbeat, the dead-socket watchdog and that a
// game action tapped into a dead or down connection is sent again with its version
// (protocol.md 2). Fast: no server, no Chromium.
import { test, mock, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

class FakeSocket {
  static OPEN = 1;
  static all = [];
  constructor(url) {
    this.url = url;
    this.readyState = 0;
    this.sent = [];
    this.closed = false;
    FakeSocket.all.push(this);
  }
  send(text) { this.sent.push(JSON.parse(text)); }
  close() { this.closed = true; this.readyState = 3; }
  // The server's side.
  open() { this.readyState = 1; this.onopen?.(); }
  recv(msg) { this.onmessage?.({ data: JSON.stringify(msg) }); }
  welcome() {
    this.open();
    this.recv({ type: 'welcome', protocol: 1, table: 't', seat: 1, server: 'test' });
    this.recv({ type: 'state', version: 5, view: {} });
  }
  serverClose(code) { this.readyState = 3; this.onclose?.({ code }); }
}

globalThis.window = new EventTarget();
globalThis.document = Object.assign(new EventTarget(), { visibilityState: 'visible' });
globalThis.location = { protocol: 'http:', host: '127.0.0.1:1' };
Object.defineProperty(globalThis, 'navigator', { value: { onLine: true }, configurable: true, writable: true });
globalThis.WebSocket = FakeSocket;

// Loaded from its text: web/ has no package.json that would make it a module.
const source = readFileSync(new URL('../web/net.js', import.meta.url), 'utf8');
const { TableConnection } = await import(`data:text/javascript,${encodeURIComponent(source)}`);

let conn;
beforeEach(() => {
  FakeSocket.all = [];
  navigator.onLine = true;
  mock.timers.enable({ apis: ['setInterval', 'setTimeout', 'Date'] });
});
afterEach(() => {
  conn?.close();
  mock.timers.reset();
});

const last = () => FakeSocket.all.at(-1);
// In small steps: Node 20's mock clock shows a tick's end time to every timer it fires.
const advance = (ms) => { for (let t = 0; t < ms; t += 100) mock.timers.tick(100); };
const flush = () => new Promise((r) => setImmediate(r));

test('pings every 3 s once welcomed, and a socket that answers stays', () => {
  conn = new TableConnection('t', 'tok', {});
  conn.connect();
  last().welcome();
  for (let i = 0; i < 10; i++) {
    advance(3000);
    const ping = last().sent.at(-1);
    assert.equal(ping.type, 'ping');
    last().recv({ type: 'pong', t: ping.t });
  }
  assert.equal(FakeSocket.all.length, 1, 'no reconnect');
  assert.equal(last().sent.filter((m) => m.type === 'ping').length, 10);
});

test('a socket whose pings go unanswered is dropped within 10 s and reopened', () => {
  const statuses = [];
  conn = new TableConnection('t', 'tok', { onStatus: (s) => statuses.push(s) });
  conn.connect();
  const dead = last();
  dead.welcome();
  advance(9500);
  assert.ok(dead.closed, 'dropped within 10 s of the last frame');
  assert.equal(statuses.at(-1), 'reconnecting');
  advance(1300);
  assert.equal(FakeSocket.all.length, 2, 'a new socket is opened by itself');
  assert.equal(last().sent.length, 0, 'hello goes on open');
  last().open();
  assert.equal(last().sent[0].type, 'hello');
});

test('after a broken socket the first try comes within 0.3 s, the next ones back off', () => {
  conn = new TableConnection('t', 'tok', {});
  conn.connect();
  last().welcome();
  // The node behind the balancer died: the socket closes abnormally.
  last().serverClose(1006);
  assert.equal(FakeSocket.all.length, 1);
  advance(300);
  assert.equal(FakeSocket.all.length, 2, 'a failover is a blip, not a wait (before: 0.75–1.25 s)');
  // That try fails too: now it waits 1 s (±25 %), then 2 s.
  last().serverClose(1006);
  advance(700);
  assert.equal(FakeSocket.all.length, 2, 'no second try within 0.7 s');
  advance(600);
  assert.equal(FakeSocket.all.length, 3);
  last().serverClose(1006);
  advance(1400);
  assert.equal(FakeSocket.all.length, 3, 'then 2 s (±25 %)');
  advance(1200);
  assert.equal(FakeSocket.all.length, 4);
  // Once welcomed again, the next break is again retried at once.
  last().welcome();
  last().serverClose(1012);
  advance(300);
  assert.equal(FakeSocket.all.length, 5);
});

test('a game action tapped into a dead socket is sent again with its version', async () => {
  conn = new TableConnection('t', 'tok', {});
  conn.connect();
  last().welcome();
  const tap = { type: 'play', card: 'HA', version: 5 };
  const answer = conn.send(tap, { retry: true });
  assert.deepEqual(last().sent.at(-1), { ...tap, id: 1 });
  // Nothing comes back: the watchdog drops the socket, the move waits.
  advance(10_000);
  advance(1300);
  last().welcome();
  const again = last().sent.find((m) => m.type === 'play');
  assert.equal(again.version, 5, 'the original version, so it is taken at most once');
  last().recv({ type: 'error', id: again.id, code: 'stale', message: 'moved on' });
  assert.deepEqual(await answer, { type: 'error', id: again.id, code: 'stale', message: 'moved on', resent: true });
});

test('a tap while offline waits for the network, and `online` reconnects at once', async () => {
  const statuses = [];
  conn = new TableConnection('t', 'tok', { onStatus: (s) => statuses.push(s), onQueued: () => statuses.push('queued') });
  conn.connect();
  last().welcome();
  navigator.onLine = false;
  window.dispatchEvent(new Event('offline'));
  assert.ok(last().closed);
  assert.equal(statuses.at(-1), 'offline');
  const answer = conn.send({ type: 'choose', contract: 'obenabe', version: 5 }, { retry: true });
  assert.equal(statuses.at(-1), 'queued');
  advance(60_000);
  assert.equal(FakeSocket.all.length, 1, 'no attempts while offline');
  navigator.onLine = true;
  window.dispatchEvent(new Event('online'));
  assert.equal(FakeSocket.all.length, 2);
  last().welcome();
  const sent = last().sent.find((m) => m.type === 'choose');
  last().recv({ type: 'ack', id: sent.id });
  assert.equal(await answer, null);
});

test('a request that is no game action is refused at once while disconnected', async () => {
  conn = new TableConnection('t', 'tok', {});
  conn.connect();
  last().welcome();
  last().serverClose(1012);
  assert.deepEqual(await conn.send({ type: 'stoeck' }), { code: 'disconnected', message: 'not connected' });
  await flush();
});
