#!/usr/bin/env bash
# Trunk post_build hook (Trunk.toml [[hooks]]): writes sw.js, the service worker that keeps the
# lab and its guide usable offline (guide/src/using-the-page.md, "Works offline"), into the
# staged dist/.
#
# Trunk hashes every file name, so the list of files to keep can only be known after the build:
# this lists every file of the staged dist (whatever the build ships, the Web Worker's files
# included, and the guide's, which assets/guide.sh built before) with its SHA-256, and derives
# the version from those hashes, so a build that changes any byte gets a new sw.js and the
# browser installs it; a build that changes nothing writes the same sw.js byte for byte and
# nothing is downloaded again.
#
# Only bash, coreutils (find, sort, sha256sum) and sed: nothing to install.
# Usage outside Trunk (tests rewrite a copy of dist/): TRUNK_STAGING_DIR=DIR assets/service-worker.sh
set -euo pipefail

staging=${TRUNK_STAGING_DIR:?set TRUNK_STAGING_DIR to the built site (Trunk does, for hooks)}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
template="$here/sw.js"
[ -f "$template" ] || { echo "service-worker.sh: $template is missing" >&2; exit 1; }
cd "$staging"
[ -f index.html ] || { echo "service-worker.sh: no index.html in $staging" >&2; exit 1; }

# The worker itself is not in its list: the browser keeps and updates it on its own. A sw.js
# from an earlier run must not list itself either.
rm -f sw.js
mapfile -d '' files < <(find . -type f -printf '%P\0' | LC_ALL=C sort -z)
for f in "${files[@]}"; do
  # Trunk's names are letters, digits, '.', '_', '-' (and '/' for folders); anything else
  # would need escaping in the JavaScript below, so it stops the build instead.
  [[ $f =~ ^[A-Za-z0-9._/-]+$ ]] || { echo "service-worker.sh: unexpected file name: $f" >&2; exit 1; }
done

sums=$(sha256sum -- "${files[@]}")
version=$(printf '%s\n' "$sums" | sha256sum | cut -c1-16)
{
  echo "// Written by assets/service-worker.sh at build time from assets/sw.js; do not edit."
  echo "const VERSION = \"$version\";"
  echo "// Every file of this build, relative to this worker, with its SHA-256."
  echo "const FILES = ["
  printf '%s\n' "$sums" | sed -E 's|^([0-9a-f]{64})  (.*)$|  ["\2", "\1"],|'
  echo "];"
  echo
  cat "$template"
} >sw.js
echo "service-worker.sh: sw.js lists ${#files[@]} files, version $version"
