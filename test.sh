#!/usr/bin/env bash
# The one test command (README): formatting, lints, the docs and every test, then the
# browser tests (e2e/: Debian's Chromium driven by playwright-core against the real
# server).
set -euo pipefail
cd "$(dirname "$0")"
cargo fmt --all --check
cargo clippy --locked --workspace --all-targets -- -D warnings
RUSTDOCFLAGS="-D warnings" cargo doc --locked --no-deps --workspace
cargo test --locked --workspace

need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium fonts-dejavu-core)
command -v docker-compose >/dev/null 2>&1 || need+=(docker-compose)
if [ ${#need[@]} -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update && apt-get install -y --no-install-recommends "${need[@]}"
fi
# The deployment files: there is no Docker engine here, so the compose file is
# validated, not run (README, "Deploy").
docker-compose -f docker-compose.yml config -q

cargo build --locked -p jass-server
export JASS_SERVER_BIN="${CARGO_TARGET_DIR:-$PWD/target}/debug/jass-server"
cd e2e && npm ci --no-audit --no-fund && node --test
