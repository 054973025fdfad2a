# The sanitizer run-time options of the sanitizer pass; scripts/test.sh sources this file, and
# so can anyone running build-asan's tests by hand: `. tests/sanitizers/options.sh`.
# Leaks are errors, except the third-party ones named (with why) in lsan.supp; any UBSan
# report stops the process (the code is also built with -fno-sanitize-recover=undefined).
articula_sanitizers="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
export ASAN_OPTIONS="detect_leaks=1:check_initialization_order=1:strict_init_order=1:detect_stack_use_after_return=1"
export LSAN_OPTIONS="suppressions=$articula_sanitizers/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="suppressions=$articula_sanitizers/ubsan.supp:print_stacktrace=1:halt_on_error=1"
unset articula_sanitizers
