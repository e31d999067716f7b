#!/usr/bin/env bash
# bench_vecmath beside libtorch 1.13, both of libtorch's CPU capabilities, in one run:
#   tools/bench/compare_vecmath.sh [build-dir] [rounds] [filter]
# Prints Gelem/s for miniaten, libtorch (default: AVX2 kernels) and libtorch with
# ATEN_CPU_CAPABILITY=avx512, and miniaten's ratio to the better libtorch column. The three
# programs run in turn `rounds` times and each keeps its best (this 2-core machine is shared:
# the best of a few runs is the least disturbed one).
set -euo pipefail
build=${1:-build}
rounds=${2:-3}
filter=${3:-.}
mine="$build/tools/bench/bench_vecmath"
theirs="$build/tools/bench/bench_vecmath_libtorch"
[ -x "$theirs" ] || { echo "compare_vecmath: $theirs not built (libtorch-dev missing?)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
args=(--benchmark_filter="$filter" --benchmark_min_time=0.2 --benchmark_format=csv)
for r in $(seq "$rounds"); do
  "$mine" "${args[@]}" 2>/dev/null >> "$tmp/mine.csv"
  "$theirs" "${args[@]}" 2>/dev/null >> "$tmp/lt.csv"
  ATEN_CPU_CAPABILITY=avx512 "$theirs" "${args[@]}" 2>/dev/null >> "$tmp/lt512.csv"
done
# CSV: name,iterations,real_time,cpu_time,time_unit,bytes_per_second,items_per_second,...
printf '%-28s %10s %10s %10s %8s\n' "Gelem/s (best of $rounds)" miniaten libtorch lt-avx512 ratio
awk -F, '
  FNR == 1 { file++ }
  /^"BM_/ { name = $1; gsub(/"/, "", name); v = $7 / 1e9;
            if (!(name in seen)) { order[++n] = name; seen[name] = 1 }
            if (v > best[file, name]) best[file, name] = v }
  END { for (i = 1; i <= n; i++) { k = order[i]; lt = best[2, k]; lt5 = best[3, k];
          top = lt > lt5 ? lt : lt5;
          printf "%-28s %10.3f %10.3f %10.3f %7.2fx\n", k, best[1, k], lt, lt5,
                 (top > 0 ? best[1, k] / top : 0) } }' \
  "$tmp/mine.csv" "$tmp/lt.csv" "$tmp/lt512.csv"
