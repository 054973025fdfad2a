#!/usr/bin/env bash
# One command for a newcomer and for CI: installs what is missing, builds with warnings as
# errors, runs every test with ctest and prints ctest's summary.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/setup.sh"
"$root/scripts/build.sh" -DARTICULA_WERROR=ON
cd "${ARTICULA_BUILD_DIR:-$root/build}"
ctest --output-on-failure -j"$(nproc)" --timeout 300
