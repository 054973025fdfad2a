#!/usr/bin/env bash
# One command for a newcomer: installs what is missing, builds Release and opens the editor
# (on the bundled mannequin, or on the file given).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/setup.sh"
"$root/scripts/build.sh"
exec "${ARTICULA_BUILD_DIR:-$root/build}/app/articula" "$@"
