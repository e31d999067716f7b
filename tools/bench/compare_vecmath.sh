#!/usr/bin/env bash
# bench_vecmath (or BENCH=<another bench_*>) beside libtorch 1.13, both of libtorch's CPU
# capabilities, in one run:
#   [BENCH=bench_nn] tools/bench/compare_vecmath.sh [build-dir] [rounds] [filter]
# Prints Gelem/s for miniaten, libtorch (default: AVX2 kernels) and libtorch with
# ATEN_CPU_CAPABILITY=avx512, and miniaten's ratio to the better libtorch column. Each benchmark
# runs in the three programs in turn, `rounds` times, and each keeps its best (this 2-core
# machine is shared and its speed drifts by a third over minutes: the best of a few close runs
# is the least disturbed one).
set -euo pipefail
build=${1:-build}
rounds=${2:-3}
filter=${3:-.}
bench=${BENCH:-bench_vecmath}
mine="$build/tools/bench/$bench"
theirs="$build/tools/bench/${bench}_libtorch"
[ -x "$theirs" ] || { echo "compare_vecmath: $theirs not built (libtorch-dev missing?)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Benchmark by benchmark, the three programs in turn, so that a slow spell of the machine hits
# all three alike.
args=(--benchmark_min_time=0.2 --benchmark_format=csv)
for name in $("$mine" --benchmark_list_tests --benchmark_filter="$filter"); do
  for r in $(seq "$rounds"); do
    "$mine" "${args[@]}" --benchmark_filter="^${name}\$" 2>/dev/null | grep '^"' >> "$tmp/mine.csv"
    "$theirs" "${args[@]}" --benchmark_filter="^${name}\$" 2>/dev/null | grep '^"' >> "$tmp/lt.csv"
    ATEN_CPU_CAPABILITY=avx512 "$theirs" "${args[@]}" --benchmark_filter="^${name}\$" 2>/dev/null |
      grep '^"' >> "$tmp/lt512.csv"
  done
done
# CSV: name,iterations,real_time,cpu_time,time_unit,bytes_per_second,items_per_second,...
# Rows without items (the small-tensor ones) compare per-call times in ns instead (lower is
# better; the ratio is then libtorch's best time over miniaten's).
printf '%-28s %10s %10s %10s %8s\n' "Gelem/s or ns (best of $rounds)" miniaten libtorch lt-avx512 ratio
awk -F, '
  FNR == 1 { file++ }
  /^"BM_/ { name = $1; gsub(/"/, "", name);
            per_call[name] = ($7 == "");
            v = per_call[name] ? -$3 : $7 / 1e9;  # times negated so that "best" is the max
            if (!(name in seen)) { order[++n] = name; seen[name] = 1 }
            if (!((file, name) in best) || v > best[file, name]) best[file, name] = v }
  END { for (i = 1; i <= n; i++) { k = order[i]; m = best[1, k]; lt = best[2, k]; lt5 = best[3, k];
          top = lt > lt5 ? lt : lt5;
          if (per_call[k]) printf "%-28s %8.1fns %8.1fns %8.1fns %7.2fx\n", k, -m, -lt, -lt5, top / m;
          else printf "%-28s %10.3f %10.3f %10.3f %7.2fx\n", k, m, lt, lt5, (top > 0 ? m / top : 0) } }' \
  "$tmp/mine.csv" "$tmp/lt.csv" "$tmp/lt512.csv"
