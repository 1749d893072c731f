#!/usr/bin/env bash
# Trunk post_build hook step (run by assets/post-build.sh before service-worker.sh): builds the
# user guide (guide/, mdBook) into the staged dist/ as guide/, so the guide is served beside the
# app and, listed in sw.js like every other file of the build, opens offline too.
#
# The book is self-contained (its scripts and styles ship inside it, it asks no other origin
# for anything), so it lives under the lab's own origin. Its pages are documents of their own:
# index.html's CSP does not apply to them.
#
# Usage outside Trunk (crates/lab/tests/guide.rs builds the guide this way):
#   TRUNK_STAGING_DIR=DIR assets/guide.sh   writes DIR/guide/
set -euo pipefail

staging=${TRUNK_STAGING_DIR:?set TRUNK_STAGING_DIR to the built site (Trunk does, for hooks)}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
command -v mdbook >/dev/null 2>&1 || {
  echo "guide.sh: mdbook is missing; ./dev.sh setup installs it (cargo install mdbook --version 0.5.4 --locked)" >&2
  exit 1
}
out="$staging/guide"
rm -rf "$out"
if ! log=$(mdbook build "$root/guide" --dest-dir "$out" 2>&1); then
  printf '%s\n' "$log" >&2
  echo "guide.sh: mdbook could not build guide/" >&2
  exit 1
fi
# mdBook goes on past some problems (an {{#include}} it cannot read) with a warning: stop there.
if grep -E '(WARN|ERROR)' <<<"$log" >&2; then
  echo "guide.sh: mdbook warned while building guide/" >&2
  exit 1
fi
[ -f "$out/index.html" ] || { echo "guide.sh: mdbook wrote no $out/index.html" >&2; exit 1; }
# For GitHub Pages only: .nojekyll (a dot-file some static hosts refuse to serve, and the offline
# copy would then refuse to install) and 404.html (a page for a host's missing files, written
# for a book at the site's root: its <base href="/"> breaks it under guide/).
rm -f "$out/.nojekyll" "$out/404.html"
# CHANGELOG.md is the book's "How it got fast" chapter ({{#include}}); its links to the guide
# are written from the repository's root (guide/src/x.md, which GitHub follows), so in the
# book they point at the chapter beside it.
sed -i 's|href="guide/src/|href="|g' "$out/changelog.html"
echo "guide.sh: the guide is in $out ($(find "$out" -type f | wc -l) files)" >&2
