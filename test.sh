#!/usr/bin/env bash
# The one test command (README): formatting, lints, the docs and every test (the
# routing test runs a real HAProxy), then the browser tests (e2e/: Debian's Chromium
# driven by playwright-core against the real server).
set -euo pipefail
cd "$(dirname "$0")"

# What the tests run besides our own binaries, from Debian's packages when missing:
# HAProxy (the routing test in front of two nodes), PostgreSQL (the PostgreSQL
# store's tests start throw-away clusters of their own), Chromium (the browser
# tests), docker-compose (to validate the deployment file).
need=()
command -v haproxy >/dev/null 2>&1 || [ -x /usr/sbin/haproxy ] || need+=(haproxy)
ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1 || need+=(postgresql)
command -v chromium >/dev/null 2>&1 || need+=(chromium fonts-dejavu-core)
command -v docker-compose >/dev/null 2>&1 || need+=(docker-compose)
if [ ${#need[@]} -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update && apt-get install -y --no-install-recommends "${need[@]}"
fi

cargo fmt --all --check
cargo clippy --locked --workspace --all-targets -- -D warnings
RUSTDOCFLAGS="-D warnings" cargo doc --locked --no-deps --workspace
cargo test --locked --workspace

# The deployment files: there is no Docker engine here, so the compose file is
# validated, not run (README, "Deploy").
docker-compose -f docker-compose.yml config -q
docker-compose -f docker-compose.yml --profile cluster config -q

cargo build --locked -p jass-server
export JASS_SERVER_BIN="${CARGO_TARGET_DIR:-$PWD/target}/debug/jass-server"
cd e2e && npm ci --no-audit --no-fund && node --test
