#!/usr/bin/env bash
# Runs every check in order and stops at the first failure (called by `./dev.sh test`):
#   1 cargo fmt --check
#   2 cargo clippy -D warnings: native, every member and target, then wasm32 for the lib, the
#     app binary and the browser test files
#   3 native cargo test (the default members: everything that needs only Rust)
#   4 trunk build --release into dist/
#   5 wasm tests in headless Chromium (wasm-bindgen-test-runner; the lab they mount runs its
#     model in dist/'s worker, so dist/ is built first)
#   6 the parallelism-e2e crate: end-to-end tests (crates/e2e/tests/e2e*.rs) against dist/ (and
#     the `lab` binary, for the tests that check the page against the command line), and the
#     tests that run the real fio (crates/e2e/tests/fio.rs)
# then prints the gzipped size of the bundle. With --no-browser (`./dev.sh check`) it stops
# after step 3: what a commit needs before the browser suites, in a few minutes. Starts no long-lived process itself: the wasm
# runner and the end-to-end tests start and stop their own servers and chromedriver.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
export PATH="$ROOT/.tools/node_modules/.bin:$HOME/.cargo/bin:$PATH"
# Leptos's `erase_components` type-erases views in the browser build: the same page, 28 KB
# smaller gzipped (see README "Toolchain"). Set for wasm32 only, so native builds are untouched.
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="${CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS:---cfg erase_components}"
export CHROMEDRIVER="${CHROMEDRIVER:-/usr/bin/chromedriver}"
export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-always}"

STEP=""
START=$SECONDS
STEP_START=$SECONDS
step() {
  if [ -n "$STEP" ]; then
    printf '\033[32m    ok: %s (%ds)\033[0m\n' "$STEP" $((SECONDS - STEP_START)) >&2
  fi
  STEP="$*"
  STEP_START=$SECONDS
  printf '\n\033[1;34m=== %s\033[0m\n' "$STEP" >&2
}
on_exit() {
  local rc=$?
  # Anything this script put in the background (nothing today) is stopped by its PID.
  local pids
  pids=$(jobs -p)
  if [ -n "$pids" ]; then
    # shellcheck disable=SC2086
    kill $pids 2>/dev/null || true
  fi
  if [ "$rc" -ne 0 ]; then
    printf '\n\033[1;31mFAILED (exit %d) in step: %s\033[0m\n' "$rc" "$STEP" >&2
  fi
}
trap on_exit EXIT
trap 'exit 130' INT TERM

# Test files by kind: browser-only files (tests/*.rs) carry #![cfg(target_arch = "wasm32")];
# end-to-end files are crates/e2e/tests/e2e*.rs (see crates/e2e/tests/common/mod.rs).
target_args() { # target_args FILE... -> --test NAME ...
  local f
  for f in "$@"; do printf -- '--test %s ' "$(basename "$f" .rs)"; done
}
mapfile -t WASM_TESTS < <(grep -l '^#!\[cfg(target_arch = "wasm32")\]' tests/*.rs || true)
mapfile -t E2E_TESTS < <(ls crates/e2e/tests/e2e*.rs 2>/dev/null || true)

step "1/6 cargo fmt --check"
cargo fmt --all --check

step "2/6 cargo clippy --workspace --all-targets -- -D warnings (native, then wasm32 for the browser code), and the docs"
cargo clippy --workspace --all-targets -- -D warnings
# `lab` alone takes the page's crate without its `app` feature (its pure layer only): lint
# that build too, so the pure layer never comes to need the browser.
cargo clippy -p lab -- -D warnings
# The module docs are part of the product: a broken intra-doc link fails like a lint.
RUSTDOCFLAGS="-D warnings" cargo doc --no-deps --lib --quiet
# The browser test files are empty natively: lint them, the lib and the app as wasm too.
# shellcheck disable=SC2046
cargo clippy --target wasm32-unknown-unknown --lib --bin parallelism-lab --bin opening-chart $(target_args "${WASM_TESTS[@]}") -- -D warnings
# The model's Web Worker is a wasm binary of its own.
cargo clippy --target wasm32-unknown-unknown -p parallelism-worker -- -D warnings

step "3/6 native tests (cargo test: the default members; the browser and fio suites run in step 6)"
cargo test

if [ "${1:-}" = "--no-browser" ]; then
  printf '\033[32m    ok: %s (%ds)\033[0m\n' "$STEP" $((SECONDS - STEP_START)) >&2
  STEP=""
  printf '\n\033[1;32mThe checks that need no browser passed in %ds; ./dev.sh test runs them all.\033[0m\n' \
    $((SECONDS - START)) >&2
  exit 0
fi

step "4/6 trunk build --release"
trunk build --release

step "5/6 wasm tests in headless Chromium: ${WASM_TESTS[*]:-none}"
if [ "${#WASM_TESTS[@]}" -gt 0 ]; then
  # The runner gives chromedriver 5 s to bind its port and each test 20 s by default; a loaded
  # CI machine has missed the first (the driver was killed while starting), so both are raised.
  # shellcheck disable=SC2046
  CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
    WASM_BINDGEN_TEST_DRIVER_TIMEOUT=120 WASM_BINDGEN_TEST_TIMEOUT=120 \
    cargo test --target wasm32-unknown-unknown $(target_args "${WASM_TESTS[@]}")
fi

step "6/6 end-to-end tests against dist/ and real fio (parallelism-e2e): ${E2E_TESTS[*]} crates/e2e/tests/fio.rs"
[ "${#E2E_TESTS[@]}" -gt 0 ] || { echo "no crates/e2e/tests/e2e*.rs found" >&2; exit 1; }
# Some check the page against the command-line twin: the same build of `lab` the native tests ran.
cargo build -p lab
LAB_BIN="$ROOT/target/debug/lab" cargo test -p parallelism-e2e

step "bundle size"
total_raw=0
total_gz=0
for f in dist/*.wasm dist/*.js; do
  [ -e "$f" ] || continue
  raw=$(wc -c <"$f")
  gz=$(gzip -9c "$f" | wc -c)
  total_raw=$((total_raw + raw))
  total_gz=$((total_gz + gz))
  printf '%10d B %10d B gzip  %s\n' "$raw" "$gz" "$f"
done
printf '%10d B %10d B gzip  total (wasm + js)\n' "$total_raw" "$total_gz"
STEP=""
printf '\n\033[1;32mAll checks passed in %ds.\033[0m\n' $((SECONDS - START)) >&2
