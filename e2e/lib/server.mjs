// Builds and starts the real jass-server on a free loopback port.
import { spawn, execFileSync } from 'node:child_process';
import { createServer } from 'node:net';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../../', import.meta.url));

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.unref();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** The server binary: $JASS_SERVER_BIN, or a fresh debug build of jass-server. */
export function serverBinary() {
  if (process.env.JASS_SERVER_BIN) return process.env.JASS_SERVER_BIN;
  execFileSync('cargo', ['build', '--locked', '-p', 'jass-server'], { cwd: REPO, stdio: ['ignore', 'inherit', 'inherit'] });
  const target = process.env.CARGO_TARGET_DIR || join(REPO, 'target');
  const bin = join(target, 'debug', 'jass-server');
  if (!existsSync(bin)) throw new Error(`no server binary at ${bin}`);
  return bin;
}

// The databases this test process made: removed when it exits, not at a server's stop,
// since a test may start a server again on the database a stopped one left.
const made = new Set();
process.once('exit', () => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A fresh directory for one embedded database, removed when this process exits. */
function freshDb() {
  const dir = mkdtempSync(join(tmpdir(), 'jass-e2e-'));
  made.add(dir);
  return join(dir, 'jass.sqlite3');
}

/**
 * `args`: extra server flags, e.g. `['--computer-think-ms', '0']`; `port` and `db`
 * start it again where a stopped one was (a server that went away and came back).
 */
export async function startServer(args = [], { port: atPort, db: atDb } = {}) {
  const bin = serverBinary();
  const port = atPort ?? await freePort();
  // A fresh embedded database per run: the real store, nothing left between runs.
  const db = atDb ?? freshDb();
  const child = spawn(bin, ['--addr', `127.0.0.1:${port}`, '--web-dir', join(REPO, 'web'), '--db', db, ...args], {
    cwd: REPO,
    env: { ...process.env, RUST_LOG: process.env.RUST_LOG || 'warn' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode != null) throw new Error(`jass-server exited with ${child.exitCode}`);
    try {
      const r = await fetch(`${base}/healthz`);
      if (r.ok) break;
    } catch { /* not up yet */ }
    if (Date.now() > deadline) { child.kill(); throw new Error('jass-server did not answer /healthz'); }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    base,
    port,
    db,
    /** POSTs `body` as JSON to `path`; the reply's body, which must be a success. */
    async post(path, body) {
      const r = await fetch(`${base}${path}`, {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body),
      });
      const b = await r.json();
      if (!r.ok) throw new Error(`POST ${path}: HTTP ${r.status} ${JSON.stringify(b)}`);
      return b;
    },
    stop() {
      if (child.exitCode == null) child.kill('SIGTERM');
      return new Promise((resolve) => { if (child.exitCode != null) resolve(); else child.once('exit', resolve); });
    },
  };
}
