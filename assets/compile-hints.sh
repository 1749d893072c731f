#!/usr/bin/env bash
# Part of Trunk's post_build step (assets/post-build.sh): marks the wasm-bindgen glue scripts the
# page runs as it loads (the app's and the opening chart's) for eager compilation, with V8's
# explicit compile hint, the magic comment `//# allFunctionsCalledOnLoad` on their first line
# (Chromium 136 and later; other browsers read a comment). Chromium then compiles their functions
# on its script-streaming thread while they download, instead of on the page's thread the first
# time each is called, inside the app's start-up tasks (figures: CHANGELOG.md "The glue compiled while
# it downloads").
#
# The scripts Trunk names itself carry no integrity attribute (the page's own, boot.js, has the
# comment in its source); sw.js lists the files' hashes afterwards, so it runs first.
# Idempotent: a file that has the comment keeps one.
# Usage: TRUNK_STAGING_DIR=DIR assets/compile-hints.sh
set -euo pipefail

staging=${TRUNK_STAGING_DIR:?set TRUNK_STAGING_DIR to the built site (Trunk does, for hooks)}
hint='//# allFunctionsCalledOnLoad'
cd "$staging"
[ -f index.html ] || { echo "compile-hints.sh: no index.html in $staging" >&2; exit 1; }

# The app's glue: its hashed name is in <meta name="trunk-app" data-js="./NAME.js">.
app_js=$(sed -nE 's|.*name="trunk-app" data-js="\./([A-Za-z0-9._-]+\.js)".*|\1|p' index.html)
[ -n "$app_js" ] || { echo "compile-hints.sh: index.html names no app glue (trunk-app)" >&2; exit 1; }

for f in "$app_js" opening-chart.js; do
  [ -f "$f" ] || { echo "compile-hints.sh: $f is missing" >&2; exit 1; }
  if [ "$(head -n 1 "$f")" != "$hint" ]; then
    { echo "$hint"; cat "$f"; } >"$f.hinted"
    mv "$f.hinted" "$f"
  fi
done
echo "compile-hints.sh: eager compile hint on $app_js and opening-chart.js"
