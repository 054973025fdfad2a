#!/usr/bin/env bash
# One command for a newcomer and for CI: installs what is missing, builds with warnings as
# errors and runs every test, in three parts, each followed by its summary:
#
#   1. release   the Release build (build/) and every test
#   2. sanitize  the whole suite built with AddressSanitizer + UndefinedBehaviorSanitizer
#                (build-asan/) and every test, GUI render tests included (the monkey test
#                for a minute); leaks and UB are errors, except the third-party reports
#                named in tests/sanitizers/
#   3. fuzz      the libFuzzer targets (clang, build-fuzz/): every kept finding replayed, then
#                about a minute of fuzzing over the readers (tests/fuzz/README.md)
#
#   scripts/test.sh             all three parts (what CI runs)
#   scripts/test.sh --quick     part 1 only, for a quick local check
#   scripts/test.sh --sanitize  parts 2 and 3 only
#
# Every part runs even when an earlier one failed, so one run shows everything; the script
# exits non-zero when any part failed.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

parts=(release sanitize fuzz)
for arg in "$@"; do
  case "$arg" in
    --quick) parts=(release) ;;
    --sanitize) parts=(sanitize fuzz) ;;
    *) echo "usage: scripts/test.sh [--quick|--sanitize]" >&2; exit 2 ;;
  esac
done

"$root/scripts/setup.sh" || exit 1

# Set before building: ctest's test discovery runs the instrumented executables.
. "$root/tests/sanitizers/options.sh"

# Runs ctest in build dir $1 with per-test timeout $2, keeping its output in $1/ctest.log.
run_ctest() {
  (cd "$1" && ctest --output-on-failure -j"$(nproc)" --timeout "$2" 2>&1 | tee "$1/ctest.log")
}

# The summary ctest printed ("100% tests passed, 0 tests failed out of N") or why there is none.
ctest_summary() {
  grep -E "tests passed|No tests were found" "$1/ctest.log" 2>/dev/null | tail -n 1 || echo "no ctest summary"
}

part_release() {
  local build="${ARTICULA_BUILD_DIR:-$root/build}"
  rm -f "$build/ctest.log"
  ARTICULA_BUILD_DIR="$build" "$root/scripts/build.sh" -DARTICULA_WERROR=ON || { summary="build failed"; return 1; }
  run_ctest "$build" 300
  local status=$?
  summary="$(ctest_summary "$build")"
  return $status
}

part_sanitize() {
  local build="$root/build-asan"
  rm -f "$build/ctest.log"
  # Only what the tests need: the benchmarks are not tests and are slow to build instrumented.
  ARTICULA_BUILD_DIR="$build" "$root/scripts/build.sh" -DARTICULA_WERROR=ON -DARTICULA_SANITIZE=ON \
    -DARTICULA_BUILD_BENCH=OFF || { summary="build failed"; return 1; }
  # The monkey test (tests/ui/monkey_test.cpp) runs for a minute here, seconds elsewhere.
  ARTICULA_MONKEY_SECONDS=60 run_ctest "$build" 900
  local status=$?
  summary="$(ctest_summary "$build")"
  return $status
}

part_fuzz() {
  local build="$root/build-fuzz"
  local targets=(fuzz_project_file fuzz_bvh fuzz_gltf fuzz_assimp fuzz_export)
  # clang with libFuzzer; only the core readers and the fuzz executables are built.
  cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=clang++ -DARTICULA_WERROR=ON \
    -DARTICULA_FUZZ=ON -DARTICULA_BUILD_TESTS=OFF -DARTICULA_BUILD_UI=OFF -DARTICULA_BUILD_BENCH=OFF \
    "${launcher[@]}" >/dev/null &&
    cmake --build "$build" -j"$(nproc)" --target "${targets[@]}" || { summary="build failed"; return 1; }
  "$root/tests/fuzz/run_fuzzers.sh" "$build" 60 2>&1 | tee "$build/fuzz.log"
  local status=$?
  summary="$(grep -E "^fuzzing:|found a problem" "$build/fuzz.log" | tail -n 1)"
  return $status
}

launcher=()
if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi

report=()
failed=0
for part in "${parts[@]}"; do
  echo "==== $part ($(date -u +%H:%M:%S) UTC) ===="
  start=$SECONDS
  summary=""
  if "part_$part"; then status="ok"; else status="FAILED"; failed=1; fi
  minutes=$(( (SECONDS - start) / 60 ))
  seconds=$(( (SECONDS - start) % 60 ))
  report+=("$(printf '%-9s %-6s %3dm%02ds  %s' "$part" "$status" "$minutes" "$seconds" "$summary")")
done

echo "==== summary ===="
printf '%s\n' "${report[@]}"
exit $failed
