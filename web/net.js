// The table's WebSocket: hello, requests with ids, and reconnecting with backoff
// (1, 2, 4 … s capped at 10 s, with jitter). Close codes 4001, 4003 and 4004 stop it.

const STOP_CODES = new Set([4001, 4003, 4004]);
const PROTOCOL = 1;

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
    this.pending = new Map();
    this.onOnline = () => { if (this.status === 'reconnecting') this.reconnectNow(); };
    window.addEventListener('online', this.onOnline);
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
    let ws;
    try {
      ws = new WebSocket(this.url());
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      const hello = { type: 'hello', protocol: PROTOCOL };
      if (this.token) hello.token = this.token;
      ws.send(JSON.stringify(hello));
    };
    ws.onmessage = (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      switch (msg.type) {
        case 'welcome':
          this.attempt = 0;
          this.setStatus('open');
          this.h.onWelcome?.(msg);
          break;
        case 'state':
          this.h.onState?.(msg);
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
      for (const [, resolve] of this.pending) resolve({ code: 'disconnected' });
      this.pending.clear();
      if (STOP_CODES.has(ev.code)) {
        this.stopped = true;
        this.setStatus('stopped');
        this.h.onStop?.(ev.code);
        return;
      }
      this.scheduleReconnect();
    };
    ws.onerror = () => { /* onclose follows */ };
  }

  scheduleReconnect() {
    if (this.stopped) return;
    this.setStatus('reconnecting');
    const base = Math.min(10, 2 ** this.attempt);
    this.attempt += 1;
    const delay = Math.min(10_000, base * 1000 * (0.75 + Math.random() * 0.5));
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.connect(), delay);
  }

  reconnectNow() {
    clearTimeout(this.timer);
    this.connect();
  }

  settle(id, err) {
    if (id == null) return;
    const resolve = this.pending.get(id);
    if (resolve) {
      this.pending.delete(id);
      resolve(err);
    }
  }

  /** Sends a request; resolves with null on ack or with the error message. */
  send(msg) {
    return new Promise((resolve) => {
      if (!this.ws || this.ws.readyState !== WebSocket.OPEN) {
        resolve({ code: 'disconnected', message: 'not connected' });
        return;
      }
      const id = this.nextId++;
      this.pending.set(id, resolve);
      this.ws.send(JSON.stringify({ ...msg, id }));
    });
  }

  close() {
    this.stopped = true;
    clearTimeout(this.timer);
    window.removeEventListener('online', this.onOnline);
    if (this.ws) this.ws.close(1000);
  }
}
