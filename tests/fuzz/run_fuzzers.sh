#!/usr/bin/env bash
# Replays every kept finding (regressions/<target>/) through its libFuzzer target of a build
# made with -DARTICULA_FUZZ=ON, then runs each target for a share of TOTAL_SECONDS, starting
# from its seeds and kept findings (copied: the committed folders are never written to).
# Exits non-zero, with the crash file's path, on the first finding.
# Usage: tests/fuzz/run_fuzzers.sh BUILD_DIR [TOTAL_SECONDS=60]
set -euo pipefail
fuzz_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
build="$(cd "$1" && pwd)"
total="${2:-60}"
targets=(project_file bvh gltf assimp export)
# Where each target's seeds are: the exporter's are the BVH and glTF readers' own.
seed_folders() { if [ "$1" = export ]; then echo "bvh gltf"; else echo "$1"; fi; }
seconds=$(( total / ${#targets[@]} ))
# libFuzzer reads -max_total_time=0 as "no limit".
if [ "$seconds" -lt 1 ]; then
  echo "run_fuzzers.sh: TOTAL_SECONDS must be at least ${#targets[@]} (one second per target)" >&2
  exit 2
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
# First every kept finding, once each, in the instrumented fuzz build itself.
for target in "${targets[@]}"; do
  kept=("$fuzz_dir/regressions/$target/"*)
  [ -e "${kept[0]}" ] || continue
  mkdir -p "$build/fuzz-findings"
  if ! "$build/tests/fuzz/fuzz_$target" "${kept[@]}" >"$build/fuzz-findings/$target-replay.log" 2>&1; then
    tail -n 40 "$build/fuzz-findings/$target-replay.log"
    echo "fuzz_$target: a kept finding fails again: see $build/fuzz-findings/$target-replay.log" >&2
    exit 1
  fi
  echo "fuzz_$target: ${#kept[@]} kept findings replayed"
done
for target in "${targets[@]}"; do
  corpus="$work/$target"
  mkdir -p "$corpus" "$build/fuzz-findings/$target"
  for folder in $(seed_folders "$target"); do cp "$fuzz_dir/seeds/$folder/"* "$corpus/"; done
  cp "$fuzz_dir/regressions/$target/"* "$corpus/" 2>/dev/null || true
  echo "fuzz_$target: ${seconds}s from $(ls "$corpus" | wc -l) seeds"
  # One job, bounded memory and input size: the machine is shared and CI has 2 cores.
  if ! "$build/tests/fuzz/fuzz_$target" "$corpus" -max_total_time="$seconds" -max_len=65536 \
      -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
      -artifact_prefix="$build/fuzz-findings/$target/" >"$build/fuzz-findings/$target.log" 2>&1; then
    tail -n 40 "$build/fuzz-findings/$target.log"
    echo "fuzz_$target found a problem: see $build/fuzz-findings/$target/" >&2
    exit 1
  fi
  grep -E "stat::number_of_executed_units|cov:" "$build/fuzz-findings/$target.log" | tail -n 2
done
echo "fuzzing: no findings in ${total}s"
