#!/usr/bin/env bash
# The load bench, repeatable: for each run a fresh release server on a loopback port,
# then jass-loadgen against it; prints each run's report and the machine's load.
# Usage: crates/jass-bot/loadbench.sh [TABLES=2500] [RUNS=3] [DURATION=60] [THINK_MS=1000] [COMPUTERS=0]
# (COMPUTERS=n: a computer in the last n seats of every table, the others over sockets;
# BIN_DIR=dir uses prebuilt binaries instead of building; PORT=n picks the port;
# SERVER_ARGS="..." adds server flags, e.g. "--computer-threads 1"; STORE=postgres runs
# the server on a throw-away PostgreSQL cluster instead of a SQLite file, and reports
# PostgreSQL's CPU and commits; NODES=2 (with STORE=postgres) runs two nodes on that
# database behind HAProxy with deploy/haproxy.cfg, the load going through HAProxy;
# PG_ARGS="-c synchronous_commit=off" prices the database's fsync; LOADGEN_ARGS="--reviews"
# asks for every round's review as it ends.)
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
      -c unix_socket_directories="$pgdir" -c fsync=on -c synchronous_commit=on ${PG_ARGS:-} >"$pgdir/log" 2>&1 &
    pgpid=$!
    until "$pgbin/pg_isready" -q -h 127.0.0.1 -p "$pgport"; do sleep 0.2; done
    dbarg="postgres://jass@127.0.0.1:$pgport/postgres"
  fi
  open=(--max-connections-per-ip 40000 --max-tables-per-ip 100000 --max-held-tables-per-ip 100000
    --max-http-connections-per-ip 40000 --http-rate-burst 100000 --http-rate-per-second 100000)
  lbpid=
  if [ "${NODES:-1}" = 2 ]; then
    # Two nodes on the one database, HAProxy in front on the bench's port.
    RUST_LOG=warn "$bin/jass-server" --addr "127.0.0.1:$((port + 2))" --db "$dbarg" --node-name n1 \
      --trusted-proxy 127.0.0.1 "${open[@]}" ${SERVER_ARGS:-} >/dev/null 2>&1 &
    pid=$!
    RUST_LOG=warn "$bin/jass-server" --addr "127.0.0.1:$((port + 3))" --db "$dbarg" --node-name n2 \
      --trusted-proxy 127.0.0.1 "${open[@]}" ${SERVER_ARGS:-} >/dev/null 2>&1 &
    pid2=$!
    JASS_BIND="127.0.0.1:$port" JASS_NODE1="127.0.0.1:$((port + 2))" JASS_NODE2="127.0.0.1:$((port + 3))" \
      JASS_STATS="127.0.0.1:$((port + 4))" "${HAPROXY:-haproxy}" -db -f deploy/haproxy.cfg >"$(dirname "$db")/haproxy.log" 2>&1 &
    lbpid=$!
  else
    RUST_LOG=warn "$bin/jass-server" --addr "127.0.0.1:$port" --db "$dbarg" "${open[@]}" ${SERVER_ARGS:-} >/dev/null 2>&1 &
    pid=$!
    pid2=
  fi
  trap 'kill $pid $pid2 $lbpid 2>/dev/null || true; if [ -n "${pgpid:-}" ]; then kill -INT "$pgpid" 2>/dev/null || true; fi' EXIT
  sleep 3
  pgstat() {
    # PostgreSQL's CPU seconds (the postmaster and its backends) and commits so far.
    local ticks=0 p
    for p in $pgpid $(pgrep -P "$pgpid"); do
      ticks=$((ticks + $(awk '{print $14 + $15}' "/proc/$p/stat" 2>/dev/null || echo 0)))
    done
    echo "$ticks $("$pgbin/psql" -h 127.0.0.1 -p "$pgport" -U jass -d postgres -Atc \
      "SELECT xact_commit FROM pg_stat_database WHERE datname = 'postgres'")"
  }
  if [ -n "${pgpid:-}" ]; then read -r pg_ticks0 pg_commits0 < <(pgstat); fi
  started=$(date +%s.%N)
  echo "== run $run/$runs: $tables tables, $computers computer seats each, ${NODES:-1} node(s), load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
  "$bin/jass-loadgen" --server "http://127.0.0.1:$port" --tables "$tables" \
    --think-ms "$think" --duration "$duration" --computers "$computers" --server-pid "$pid" ${LOADGEN_ARGS:-} || true
  echo "== load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
  if [ -n "${pgpid:-}" ]; then
    read -r pg_ticks1 pg_commits1 < <(pgstat)
    awk -v t0="$pg_ticks0" -v t1="$pg_ticks1" -v c0="$pg_commits0" -v c1="$pg_commits1" \
      -v s="$started" -v e="$(date +%s.%N)" -v hz="$(getconf CLK_TCK)" \
      'BEGIN { d = e - s; printf "== PostgreSQL: %.2f cores, %.0f commits/s over %.0f s\n", (t1 - t0) / hz / d, (c1 - c0) / d, d }'
  fi
  kill "$pid" $pid2 $lbpid 2>/dev/null || true; wait "$pid" $pid2 $lbpid 2>/dev/null || true
  if [ -n "${pgpid:-}" ]; then kill -INT "$pgpid"; wait "$pgpid" 2>/dev/null || true; pgpid=; fi
  trap - EXIT
  if [ -s "$(dirname "$db")/haproxy.log" ]; then grep -m3 -i "alert\|error" "$(dirname "$db")/haproxy.log" || true; fi
  rm -rf "$(dirname "$db")"
done
