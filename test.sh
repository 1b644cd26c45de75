#!/usr/bin/env bash
# The one test command (README): formatting, lints and every test, then the
# browser tests (e2e/: Debian's Chromium driven by playwright-core against the real
# server).
set -euo pipefail
cd "$(dirname "$0")"
cargo fmt --all --check
cargo clippy --locked --workspace --all-targets -- -D warnings
cargo test --locked --workspace

if ! command -v chromium >/dev/null 2>&1; then
  apt-get update && apt-get install -y chromium
fi
cargo build --locked -p jass-server
export JASS_SERVER_BIN="${CARGO_TARGET_DIR:-$PWD/target}/debug/jass-server"
cd e2e && npm ci --no-audit --no-fund && node --test
