#!/usr/bin/env bash
# One command for a newcomer and for CI: installs what is missing, builds with warnings as
# errors, runs every test with ctest and prints ctest's summary.
#
#   scripts/test.sh             the Release build (build/) and its tests
#   scripts/test.sh --sanitize  the sanitizer pass instead: the whole suite built with
#                               AddressSanitizer + UndefinedBehaviorSanitizer (build-asan/),
#                               then about a minute of libFuzzer on the readers (build-fuzz/,
#                               clang; tests/fuzz/README.md)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

sanitize=0
for arg in "$@"; do
  case "$arg" in
    --sanitize) sanitize=1 ;;
    *) echo "usage: scripts/test.sh [--sanitize]" >&2; exit 2 ;;
  esac
done

"$root/scripts/setup.sh"

if [ "$sanitize" -eq 0 ]; then
  "$root/scripts/build.sh" -DARTICULA_WERROR=ON
  cd "${ARTICULA_BUILD_DIR:-$root/build}"
  ctest --output-on-failure -j"$(nproc)" --timeout 300
  exit 0
fi

# ---- sanitizer pass ----
# The benchmarks are left out: they are not tests and take long to build instrumented.
ARTICULA_BUILD_DIR="$root/build-asan" "$root/scripts/build.sh" -DARTICULA_WERROR=ON -DARTICULA_SANITIZE=ON \
  -DARTICULA_BUILD_BENCH=OFF
# Leaks are errors, except the third-party ones listed (with who owns them) in the
# suppression file; any UBSan report stops the test that caused it.
export ASAN_OPTIONS="detect_leaks=1:check_initialization_order=1:detect_stack_use_after_return=1"
export LSAN_OPTIONS="suppressions=$root/tests/sanitizers/lsan_suppressions.txt:print_suppressions=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
(cd "$root/build-asan" && ctest --output-on-failure -j"$(nproc)" --timeout 900)

# The fuzzers: clang with libFuzzer, only the core readers (no UI, no tests).
ARTICULA_BUILD_DIR="$root/build-fuzz" "$root/scripts/build.sh" -DCMAKE_CXX_COMPILER=clang++ -DARTICULA_WERROR=ON \
  -DARTICULA_FUZZ=ON -DARTICULA_BUILD_TESTS=OFF -DARTICULA_BUILD_UI=OFF -DARTICULA_BUILD_BENCH=OFF
"$root/tests/fuzz/run_fuzzers.sh" "$root/build-fuzz" 60
