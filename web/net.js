// The table's WebSocket: hello, requests with ids, a heartbeat, and reconnecting with
// backoff (a first try within 0.3 s, then 1, 2, 4 … s capped at 10 s, with jitter). Close codes 4001, 4003 and 4004
// stop it.
//
// Liveness (protocol.md 2): a phone in a tunnel keeps its socket "open" for
// minutes, so the browser's own events cannot be trusted. Once welcomed the client
// sends a `ping` every HEARTBEAT_MS (protocol.md, `ping`); any frame from the server
// counts as life, and a ping left without any frame after it for DEAD_MS means the
// connection is dead (6–10 s after it died): it is dropped and a new one opened at
// once. Measured from our own unanswered ping, not from the last frame, so a hidden
// tab whose timers the browser slows to one a minute is not taken for dead. The `offline` event drops it too, and `online`
// reconnects without waiting for the backoff.
//
// No tap is lost: a game action (it carries the `version` it was decided on) sent
// while the connection is down, or whose answer the dead connection swallowed, is
// kept and sent again on the next connection with its original `version`. The server
// refuses it `stale` if the game moved meanwhile (also when the first copy did
// arrive), so it is applied at most once, and the caller hears `ack` or the refusal.
// Other requests are answered `disconnected` at once, to be shown and tried again.

const STOP_CODES = new Set([4001, 4003, 4004]);
const PROTOCOL = 1;
export const HEARTBEAT_MS = 3000;
export const DEAD_MS = 6000;
const WATCH_MS = 500;

export class TableConnection {
  /**
   * @param {string} table
   * @param {string|null} token  null for a spectator
   * @param {{onState?:Function,onWelcome?:Function,onError?:Function,onStatus?:Function,onStop?:Function}} handlers
   */
  constructor(table, token, handlers) {
    this.table = table;
    this.token = token;
    this.h = handlers;
    this.ws = null;
    this.nextId = 1;
    this.attempt = 0;
    this.timer = null;
    this.stopped = false;
    this.status = 'connecting';
    // id -> {msg, resolve, retry}: sent on the current socket, not yet answered.
    this.pending = new Map();
    // Game actions waiting for the next welcome: [{msg, resolve}], oldest first.
    this.queue = [];
    this.welcomed = false;
    this.openedAt = 0;
    // When the oldest ping not followed by any frame went out; null when answered.
    this.awaiting = null;
    this.lastPing = 0;
    this.beat = setInterval(() => this.tick(), WATCH_MS);
    this.onOnline = () => { if (this.status !== 'open') { this.attempt = 0; this.reconnectNow(); } };
    this.onOffline = () => this.drop('offline');
    // Back in front (a phone unlocked): check the connection now, not at the next beat.
    this.onVisible = () => { if (document.visibilityState === 'visible') this.ping(); };
    window.addEventListener('online', this.onOnline);
    window.addEventListener('offline', this.onOffline);
    document.addEventListener('visibilitychange', this.onVisible);
  }

  url() {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    return `${proto}//${location.host}/ws/${encodeURIComponent(this.table)}`;
  }

  setStatus(s) {
    this.status = s;
    this.h.onStatus?.(s);
  }

  connect() {
    if (this.stopped) return;
    clearTimeout(this.timer);
    if (navigator.onLine === false) {
      // No network: wait for `online` instead of failing attempts in a loop.
      this.setStatus('offline');
      return;
    }
    let ws;
    try {
      ws = new WebSocket(this.url());
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    this.welcomed = false;
    this.openedAt = Date.now();
    this.awaiting = null;
    ws.onopen = () => {
      const hello = { type: 'hello', protocol: PROTOCOL };
      if (this.token) hello.token = this.token;
      ws.send(JSON.stringify(hello));
    };
    ws.onmessage = (ev) => {
      if (this.ws !== ws) return;
      this.awaiting = null;
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      switch (msg.type) {
        case 'welcome':
          this.attempt = 0;
          this.welcomed = true;
          this.setStatus('open');
          this.h.onWelcome?.(msg);
          break;
        case 'state':
          this.h.onState?.(msg);
          // Kept actions go out after the first state, so the answer meets a page
          // that already shows the table as it is now.
          this.flushQueue();
          break;
        case 'error':
          this.settle(msg.id, msg);
          this.h.onError?.(msg);
          break;
        case 'ack':
          this.settle(msg.id, null);
          break;
        default:
          break;
      }
    };
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (STOP_CODES.has(ev.code)) {
        this.failAll();
        this.stopped = true;
        this.setStatus('stopped');
        this.h.onStop?.(ev.code);
        return;
      }
      this.lost();
      this.scheduleReconnect();
    };
    ws.onerror = () => { /* onclose follows */ };
  }

  /** The heartbeat and the watchdog, twice a second. */
  tick() {
    const ws = this.ws;
    if (!ws || this.stopped) return;
    const now = Date.now();
    const silent = this.welcomed ? this.awaiting != null && now - this.awaiting > DEAD_MS : now - this.openedAt > DEAD_MS;
    if (silent) {
      // No answer to our ping (or no welcome): the socket is dead whatever it says.
      this.drop('reconnecting');
      return;
    }
    if (now - this.lastPing >= HEARTBEAT_MS) this.ping(now);
  }

  ping(now = Date.now()) {
    const ws = this.ws;
    if (!ws || !this.welcomed || ws.readyState !== WebSocket.OPEN) return;
    this.lastPing = now;
    if (this.awaiting == null) this.awaiting = now;
    try { ws.send(JSON.stringify({ type: 'ping', t: now })); } catch { /* onclose follows */ }
  }

  /** Gives up the current socket without waiting for the browser to notice. */
  drop(status) {
    const ws = this.ws;
    if (this.stopped) return;
    if (ws) {
      this.ws = null;
      ws.onopen = ws.onmessage = ws.onclose = ws.onerror = null;
      try { ws.close(); } catch { /* already gone */ }
      this.lost();
    }
    if (status === 'offline' || navigator.onLine === false) {
      clearTimeout(this.timer);
      this.setStatus('offline');
      return;
    }
    this.attempt = 0;
    this.scheduleReconnect();
  }

  /** The socket is gone: kept actions wait for the next one, the rest fail now. */
  lost() {
    this.welcomed = false;
    const answered = [];
    for (const [, p] of this.pending) {
      if (p.retry) this.queue.push(p);
      else answered.push(p);
    }
    this.pending.clear();
    for (const p of answered) p.resolve({ code: 'disconnected', message: 'not connected' });
    if (this.queue.length) this.h.onQueued?.();
  }

  failAll(code = 'disconnected') {
    const all = [...this.pending.values(), ...this.queue];
    this.pending.clear();
    this.queue = [];
    for (const p of all) p.resolve({ code, message: 'not connected' });
  }

  flushQueue() {
    if (!this.welcomed || !this.queue.length) return;
    const q = this.queue;
    this.queue = [];
    for (const p of q) this.transmit({ ...p, resent: true });
  }

  scheduleReconnect() {
    if (this.stopped) return;
    this.setStatus('reconnecting');
    // The first try after a socket broke comes at once (0–300 ms, spread so a whole
    // node's players do not arrive together): a node that died or was stopped is
    // replaced behind the balancer in that time, so a failover is a blip. Then 1, 2,
    // 4 … s, at most 10 s, with jitter.
    const delay = this.attempt === 0
      ? Math.random() * 300
      : Math.min(10_000, Math.min(10, 2 ** (this.attempt - 1)) * 1000 * (0.75 + Math.random() * 0.5));
    this.attempt += 1;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.connect(), delay);
  }

  reconnectNow() {
    if (this.stopped) return;
    clearTimeout(this.timer);
    if (this.ws) return;
    this.connect();
  }

  settle(id, err) {
    if (id == null) return;
    const p = this.pending.get(id);
    if (p) {
      this.pending.delete(id);
      p.resolve(err && p.resent ? { ...err, resent: true } : err);
    }
  }

  transmit(p) {
    const id = this.nextId++;
    this.pending.set(id, p);
    try {
      this.ws.send(JSON.stringify({ ...p.msg, id }));
    } catch {
      // The socket broke under us; `lost` (via onclose or the watchdog) deals with it.
    }
  }

  /**
   * Sends a request; resolves with null on ack or with the error message. With
   * `retry` (game actions, which carry a `version`) a request that cannot be sent or
   * whose answer is lost is kept and sent again after reconnecting; the newest tap
   * replaces a kept one, whose promise resolves `{code: 'replaced'}`.
   */
  send(msg, { retry = false } = {}) {
    return new Promise((resolve) => {
      const p = { msg, resolve, retry };
      const ready = this.ws && this.welcomed && this.ws.readyState === WebSocket.OPEN;
      if (!ready) {
        if (!retry || this.stopped) {
          resolve({ code: 'disconnected', message: 'not connected' });
          return;
        }
        for (const old of this.queue) old.resolve({ code: 'replaced' });
        this.queue = [p];
        this.h.onQueued?.();
        return;
      }
      this.transmit(p);
    });
  }

  close() {
    this.stopped = true;
    clearTimeout(this.timer);
    clearInterval(this.beat);
    window.removeEventListener('online', this.onOnline);
    window.removeEventListener('offline', this.onOffline);
    document.removeEventListener('visibilitychange', this.onVisible);
    // The page left this table: nothing to tell the player about its requests.
    this.failAll('closed');
    if (this.ws) {
      const ws = this.ws;
      this.ws = null;
      ws.onclose = null;
      ws.close(1000);
    }
  }
}
