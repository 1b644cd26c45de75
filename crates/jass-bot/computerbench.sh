#!/usr/bin/env bash
# The computers under load, measured as a player sees them: the time from a computer
# getting the turn to its move on the host's screen, with the server's think pause at
# 1 ms so that what is measured is the delay alone (queue and thinking).
#
# Usage: crates/jass-bot/computerbench.sh busy|flood [DURATION=60]
#   busy:  one table of a human bot and three strong computers, beside BUSY (default 2)
#          busy loops at nice 0 (ordinary CPU work on the host), and once without them.
#   flood: six client addresses (127.0.0.2-7) with 30 tables of three strong computers
#          each, and one table from 127.0.0.8: that table's computers against the flood.
# SERVER_BIN=path picks the server binary (default target/release/jass-server), so two
# builds can be compared in alternating runs; BIN_DIR holds jass-loadgen (default
# target/release). Loopback only; every process it starts it ends by its pid.
set -euo pipefail
cd "$(dirname "$0")/../.."
mode=${1:-busy} duration=${2:-60} port=${PORT:-18090}
bin=${BIN_DIR:-target/release}
server=${SERVER_BIN:-$bin/jass-server}
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT
db="$(mktemp -d)/jass.sqlite3"
RUST_LOG=warn "$server" --addr "127.0.0.1:$port" --db "$db" --computer-think-ms 1 \
  --max-connections-per-ip 40000 --max-tables-per-ip 100000 --max-held-tables-per-ip 100000 \
  --max-http-connections-per-ip 40000 --http-rate-burst 100000 --http-rate-per-second 100000 >/dev/null 2>&1 &
pids+=($!)
sleep 1
url="http://127.0.0.1:$port"
case "$mode" in
  busy)
    for busy in 0 "${BUSY:-2}"; do
      loops=()
      for _ in $(seq 1 "$busy"); do nice -n 0 sh -c 'while :; do :; done' & loops+=($!); pids+=($!); done
      echo "== $busy busy loops at nice 0, server $server"
      "$bin/jass-loadgen" --server "$url" --tables 1 --computers 3 --computer-level strong \
        --think-ms 200 --duration "$duration" | grep -E "computer moves|card -> state|computer decisions" || true
      for l in "${loops[@]}"; do kill "$l" 2>/dev/null || true; done
    done
    ;;
  flood)
    echo "== six addresses with 30 strong tables each, one table from another address, server $server"
    for n in 2 3 4 5 6 7; do
      "$bin/jass-loadgen" --server "$url" --bind "127.0.0.$n" --tables 30 --computers 3 \
        --computer-level strong --think-ms 200 --duration "$duration" >/dev/null 2>&1 &
      pids+=($!)
    done
    sleep 5
    "$bin/jass-loadgen" --server "$url" --bind 127.0.0.8 --tables 1 --computers 3 \
      --computer-level strong --think-ms 200 --duration "$((duration - 10))" | grep -E "computer moves|computer decisions" || true
    ;;
  *) echo "usage: $0 busy|flood [DURATION]" >&2; exit 2 ;;
esac
