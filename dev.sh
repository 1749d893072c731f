#!/usr/bin/env bash
# Parallelism Lab developer entry point.
#   ./dev.sh serve   install what is missing, then build and serve the app on http://127.0.0.1:8080
#                    (and its guide beside it, at /guide/)
#   ./dev.sh test    install what is missing, then run every test (native, wasm in Chromium, end-to-end)
#   ./dev.sh check   install what a build needs, then the checks that need no browser (fmt, clippy, docs, native tests)
#   ./dev.sh setup   only install what is missing
#   ./dev.sh bench   install what is missing (also Lighthouse), then print the model and page benchmarks
# Every step checks first and does nothing when the tool is already there, so a second run is fast.
set -euo pipefail
cd "$(dirname "$0")"
ROOT=$(pwd)

# Pins: see the guide's "Toolchain" (guide/src/toolchain.md). wasm-bindgen-cli must match the
# wasm-bindgen in Cargo.lock exactly.
TRUNK_VERSION=0.21.14
BINARYEN_VERSION=132
# The user guide (guide/), built into dist/guide/ by the build's post_build hook and checked by
# crates/lab/tests/guide.rs.
MDBOOK_VERSION=0.5.4
# Lighthouse for the page benchmark only (`./dev.sh bench`), into .tools/ like binaryen.
LIGHTHOUSE_VERSION=12
WASM_BINDGEN_VERSION=$(awk '/^name = "wasm-bindgen"$/{getline; gsub(/version = |"/,""); print; exit}' Cargo.lock)
TOOLS="$ROOT/.tools"
export PATH="$TOOLS/node_modules/.bin:$HOME/.cargo/bin:$PATH"
# Leptos's `erase_components` type-erases views in the browser build: the same page, 28 KB
# smaller gzipped (see the guide's "Toolchain"). Set for wasm32 only, so native builds are untouched.
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="${CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS:---cfg erase_components}"

say() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }

have_version() { # have_version CMD EXPECTED-SUBSTRING
  command -v "$1" >/dev/null 2>&1 && "$1" --version 2>/dev/null | grep -qF "$2"
}

ensure_wasm_target() {
  rustup target list --installed | grep -qx wasm32-unknown-unknown && return
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
}

ensure_trunk() {
  have_version trunk "$TRUNK_VERSION" && return
  say "installing trunk $TRUNK_VERSION (about 13 minutes on 2 cores, once)"
  cargo install trunk --version "$TRUNK_VERSION" --locked
}

ensure_wasm_bindgen() {
  have_version wasm-bindgen "$WASM_BINDGEN_VERSION" && have_version wasm-bindgen-test-runner "$WASM_BINDGEN_VERSION" && return
  say "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (about 4 minutes, once)"
  # Not --locked: its lock file names a webpki-roots release the registry here lacks.
  cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --force
}

ensure_wasm_opt() {
  have_version wasm-opt "version $BINARYEN_VERSION" && return
  say "installing binaryen $BINARYEN_VERSION (wasm-opt) into .tools/"
  # Debian's binaryen 108 produces a blank page; npm's binaryen is current.
  mkdir -p "$TOOLS"
  npm install --prefix "$TOOLS" --no-audit --no-fund --silent "binaryen@$BINARYEN_VERSION"
}

ensure_mdbook() {
  have_version mdbook "v$MDBOOK_VERSION" && return
  say "installing mdbook $MDBOOK_VERSION (about 2 minutes, once)"
  cargo install mdbook --version "$MDBOOK_VERSION" --locked
}

ensure_lighthouse() {
  # The benchmark runs .tools/'s copy (benches/page/lighthouse.rs), so that one is checked.
  "$TOOLS/node_modules/.bin/lighthouse" --version 2>/dev/null | grep -q "^$LIGHTHOUSE_VERSION\." && return
  say "installing lighthouse@$LIGHTHOUSE_VERSION into .tools/ (for ./dev.sh bench)"
  mkdir -p "$TOOLS"
  npm install --prefix "$TOOLS" --no-audit --no-fund --silent "lighthouse@$LIGHTHOUSE_VERSION"
}

ensure_apt() { # ensure_apt BINARY PACKAGE...
  command -v "$1" >/dev/null 2>&1 && return
  shift
  say "installing $* from Debian"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "$@"
}

# The build needs mdbook (the post_build hook builds the guide), and so does `cargo test` (the
# guide's test builds it too).
setup_build() { ensure_wasm_target; ensure_wasm_opt; ensure_wasm_bindgen; ensure_trunk; ensure_mdbook; }
setup_test() {
  setup_build
  ensure_apt chromium chromium
  ensure_apt chromedriver chromium-driver
  ensure_apt fio fio
}

case "${1:-}" in
  setup) setup_test ;;
  serve)
    setup_build
    say "serving on http://127.0.0.1:${PORT:-8080} (the guide at /guide/)"
    exec trunk serve --release --address 127.0.0.1 --port "${PORT:-8080}"
    ;;
  test)
    setup_test
    exec "$ROOT/tests/run-all.sh"
    ;;
  check)
    setup_build
    exec "$ROOT/tests/run-all.sh" --no-browser
    ;;
  bench)
    setup_test
    ensure_lighthouse
    exec "$ROOT/tests/bench-all.sh"
    ;;
  *)
    sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
    ;;
esac
