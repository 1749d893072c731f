#!/usr/bin/env bash
# Prints every benchmark (called by `./dev.sh bench`):
#   1 the model: `lab bench` (simulated I/Os per second, a 9-point sweep, the steady-state model)
#   1b the property tests' long run: every reader and the result check over random drives and
#     workloads at PROPTEST_CASES cases each (10,000 unless set), with the cases that ran
#   2 the page: builds dist/ with trunk, then `cargo bench --bench page` opens it in headless
#     Chromium: three cold loads on an emulated phone at CPU 4x (first chart, every point
#     estimated and computed, long tasks, a burst of slider presses), the gzipped JS and wasm
#     fetched before the first chart, the desktop run (input to redrawn charts, median and p95),
#     an article framing three embeds from another origin, and Lighthouse 12 (installed by
#     `./dev.sh bench`). See README "Benchmarks".
#     PAGE_BENCH_BEFORE=/path/to/other/dist measures that build too, side by side ("before",
#     "after"); PAGE_BENCH_ONLY=phone,desktop,article,lighthouse picks sections.
# Starts no long-lived process itself: the page benchmark starts and stops its own servers,
# chromedriver and Lighthouse.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
export PATH="$ROOT/.tools/node_modules/.bin:$HOME/.cargo/bin:$PATH"
# Leptos's `erase_components` type-erases views in the browser build: the same page, 28 KB
# smaller gzipped (see README "Toolchain"). Set for wasm32 only, so native builds are untouched.
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="${CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS:---cfg erase_components}"
export CHROMEDRIVER="${CHROMEDRIVER:-/usr/bin/chromedriver}"

printf '\n\033[1;34m=== model benchmark (cargo run --release --bin lab -- bench)\033[0m\n' >&2
cargo run --release --bin lab -- bench

CASES="${PROPTEST_CASES:-10000}"
printf '\n\033[1;34m=== property tests, long run (PROPTEST_CASES=%s)\033[0m\n' "$CASES" >&2
# A passing property has run exactly PROPTEST_CASES cases; a failing one stops the benchmark
# with its shrunk case.
for target in "parallelism-model readers" "parallelism-model model_properties" \
  "parallelism-lab url_fuzz"; do
  set -- $target
  start=$(date +%s)
  PROPTEST_CASES="$CASES" cargo test --release -q -p "$1" --test "$2" 2>&1 | grep -E '^test result'
  printf '%s: %s cases per property, %ss\n' "$2" "$CASES" "$(( $(date +%s) - start ))"
done

printf '\n\033[1;34m=== trunk build --release\033[0m\n' >&2
trunk build --release

printf '\n\033[1;34m=== page benchmark (cargo bench --bench page)\033[0m\n' >&2
cargo bench --bench page
