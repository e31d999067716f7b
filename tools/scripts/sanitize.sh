#!/usr/bin/env bash
# The sanitizer and fuzz runs CI makes after the normal suite (README, "Sanitizers and fuzzers").
#
#   tools/scripts/sanitize.sh asan [seconds]   clang, ASan + UBSan + libFuzzer coverage, in build-asan:
#                                              the whole test suite with leak detection, then each
#                                              fuzzer for `seconds` (default 60; 0: none) from its
#                                              corpus
#   tools/scripts/sanitize.sh tsan             clang, TSan, in build-tsan: only the library and
#                                              concurrency_tests (the tests that use threads)
#
# Any sanitizer report, failing test or fuzzer crash fails the run; a crashing input is left in
# build-asan/fuzz-crashes/<fuzzer>/ (add it to tests/fuzz/corpus/<fuzzer>/ with the fix).
set -euo pipefail
cd "$(dirname "$0")/../.."
mode=${1:-}
jobs=${MINIATEN_JOBS:-2}

configure() {  # configure <folder> <sanitizers> [cmake args...]
  local dir=$1 sanitize=$2
  shift 2
  CXX=${MINIATEN_SANITIZE_CXX:-clang++} cmake -S . -B "$dir" -G Ninja -DMINIATEN_SANITIZE="$sanitize" \
    -DMINIATEN_CUDA=OFF -DMINIATEN_BUILD_BENCHMARKS=OFF "$@" >/dev/null
}

case "$mode" in
  asan)
    seconds=${2:-60}  # 0: no timed fuzzing (the corpora still replay as ctests)
    configure build-asan address,undefined -DMINIATEN_FUZZ=ON
    cmake --build build-asan -j"$jobs"
    # allocator_may_return_null: a failed allocation is the allocator's c10::Error, as without
    # ASan (CPUAllocator's tests ask for absurd sizes on purpose).
    export ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1:strict_string_checks=1:detect_stack_use_after_return=1
    export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
    ctest --test-dir build-asan --output-on-failure -j"$jobs"
    # The fuzzers: anything over 1 GiB fails as an allocation (a c10::Error), not as an
    # out-of-memory "crash"; see Note [Fuzz inputs favour the interesting numbers].
    export ASAN_OPTIONS=$ASAN_OPTIONS:max_allocation_size_mb=1024
    [[ $seconds == 0 ]] && exit 0
    status=0
    for fuzzer in schema view tensor_iterator boxed_call safetensors pickle; do
      work=build-asan/fuzz-corpus/$fuzzer crashes=build-asan/fuzz-crashes/$fuzzer
      rm -rf "$crashes" && mkdir -p "$work" "$crashes"
      log=build-asan/fuzz-$fuzzer.log
      if build-asan/tests/fuzz/fuzz_$fuzzer "$work" tests/fuzz/corpus/$fuzzer \
          -max_total_time="$seconds" -timeout=30 -rss_limit_mb=4096 -print_final_stats=1 -seed=1 \
          -artifact_prefix="$crashes/" >"$log" 2>&1; then
        runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo '?')
        echo "fuzz_$fuzzer: $runs inputs in ${seconds}s, no crash"
      else
        echo "fuzz_$fuzzer: CRASH (input in $crashes):"
        tail -40 "$log"
        status=1
      fi
    done
    exit $status
    ;;
  tsan)
    configure build-tsan thread
    cmake --build build-tsan -j"$jobs" --target concurrency_tests
    # Gloo is not built with TSan: tools/sanitizers/tsan_gloo.supp says what is ignored in it.
    TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1:suppressions=$PWD/tools/sanitizers/tsan_gloo.supp \
      build-tsan/tests/concurrency/concurrency_tests
    ;;
  *)
    echo "usage: $0 asan [fuzz seconds] | tsan" >&2
    exit 2
    ;;
esac
