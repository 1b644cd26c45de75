#!/usr/bin/env bash
# The load bench, repeatable: for each run a fresh release server on a loopback port,
# then jass-loadgen against it; prints each run's report and the machine's load.
# Usage: crates/jass-bot/loadbench.sh [TABLES=2500] [RUNS=3] [DURATION=60] [THINK_MS=1000] [COMPUTERS=0]
# (COMPUTERS=n: a computer in the last n seats of every table, the others over sockets;
# BIN_DIR=dir uses prebuilt binaries instead of building; PORT=n picks the port;
# SERVER_ARGS="..." adds server flags, e.g. "--computer-threads 1"; STORE=postgres runs
# the server on a throw-away PostgreSQL cluster instead of a SQLite file.)
set -euo pipefail
cd "$(dirname "$0")/../.."
tables=${1:-2500} runs=${2:-3} duration=${3:-60} think=${4:-1000} computers=${5:-${COMPUTERS:-0}} port=${PORT:-18080}
bin=${BIN_DIR:-target/release}
if [ -z "${BIN_DIR:-}" ]; then cargo build --release -p jass-server -p jass-bot --bin jass-server --bin jass-loadgen; fi
ulimit -n "$(ulimit -Hn)"
for run in $(seq 1 "$runs"); do
  # Flush what the build (or the last run) left dirty: the kernel writes it back 30 s
  # later, in the middle of the run, and the disk's flushes then slow the store's.
  sync
  db="$(mktemp -d)/jass.sqlite3"  # the embedded store is on, as in production
  dbarg="$db"
  if [ "${STORE:-sqlite}" = postgres ]; then
    # A throw-away PostgreSQL cluster on loopback (Debian's binaries, as the postgres
    # user when root), ended by its pid after the run.
    pgbin=$(ls -d /usr/lib/postgresql/*/bin | sort | tail -1)
    pgdir="$(dirname "$db")/pg"
    mkdir -p "$pgdir"
    as=()
    if [ "$(id -u)" = 0 ]; then chown -R postgres:postgres "$(dirname "$db")"; as=(setpriv --reuid=postgres --regid=postgres --clear-groups --); fi
    "${as[@]}" "$pgbin/initdb" -D "$pgdir/data" -U jass --auth=trust -E UTF8 --locale=C --no-sync >/dev/null
    pgport=$((port + 1))
    "${as[@]}" "$pgbin/postgres" -D "$pgdir/data" -p "$pgport" -c listen_addresses=127.0.0.1 \
      -c unix_socket_directories="$pgdir" -c fsync=on -c synchronous_commit=on >"$pgdir/log" 2>&1 &
    pgpid=$!
    until "$pgbin/pg_isready" -q -h 127.0.0.1 -p "$pgport"; do sleep 0.2; done
    dbarg="postgres://jass@127.0.0.1:$pgport/postgres"
  fi
  RUST_LOG=warn "$bin/jass-server" --addr "127.0.0.1:$port" --db "$dbarg" \
    --max-connections-per-ip 40000 --max-tables-per-ip 100000 --max-held-tables-per-ip 100000 \
    --max-http-connections-per-ip 40000 --http-rate-burst 100000 --http-rate-per-second 100000 ${SERVER_ARGS:-} >/dev/null 2>&1 &
  pid=$!
  trap 'kill $pid 2>/dev/null || true; if [ -n "${pgpid:-}" ]; then kill -INT "$pgpid" 2>/dev/null || true; fi' EXIT
  sleep 1
  echo "== run $run/$runs: $tables tables, $computers computer seats each, load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
  "$bin/jass-loadgen" --server "http://127.0.0.1:$port" --tables "$tables" \
    --think-ms "$think" --duration "$duration" --computers "$computers" --server-pid "$pid" || true
  echo "== load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
  kill "$pid"; wait "$pid" 2>/dev/null || true
  if [ -n "${pgpid:-}" ]; then kill -INT "$pgpid"; wait "$pgpid" 2>/dev/null || true; pgpid=; fi
  trap - EXIT
  rm -rf "$(dirname "$db")"
done
