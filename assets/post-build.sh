#!/usr/bin/env bash
# Trunk's post_build hook (Trunk.toml): finishes the staged dist/ in order. Trunk runs the hooks
# of one stage side by side, and sw.js must list the files as they will be served (the guide's
# among them), so one hook runs every step, the service worker's last.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
bash "$here/compile-hints.sh"
bash "$here/guide.sh"
bash "$here/service-worker.sh"
