#!/usr/bin/env bash
# Configures and builds Release into build/ (or $ARTICULA_BUILD_DIR). Extra arguments go
# to cmake's configure step. ccache, when installed, makes rebuilds of unchanged files free.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${ARTICULA_BUILD_DIR:-$root/build}"
launcher=()
if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" "$@" >/dev/null
cmake --build "$build" -j"$(nproc)"
