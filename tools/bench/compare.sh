#!/usr/bin/env bash
# Runs each benchmark against miniaten and libtorch in one go and prints the times side by side
# with the ratio libtorch / miniaten (higher = miniaten faster). Pins to one thread.
#   tools/bench/compare.sh [build-dir] [benchmark-name ...]
set -euo pipefail
build=${1:-build}
shift || true
names=("$@")
[ ${#names[@]} -eq 0 ] && names=(bench_dispatch)
export OMP_NUM_THREADS=1
for name in "${names[@]}"; do
  mine="$build/tools/bench/$name"
  theirs="$build/tools/bench/${name}_libtorch"
  args=(--benchmark_min_time=0.3 --benchmark_repetitions=3 --benchmark_report_aggregates_only=true
        --benchmark_format=csv)
  "$mine" "${args[@]}" 2>/dev/null | grep '_median' > /tmp/bench_mine.csv
  if [ -x "$theirs" ]; then
    "$theirs" "${args[@]}" 2>/dev/null | grep '_median' > /tmp/bench_theirs.csv
  else
    : > /tmp/bench_theirs.csv
  fi
  printf '%-44s %14s %14s %8s\n' "$name (median cpu time)" miniaten libtorch ratio
  awk -F, 'NR==FNR { t[$1]=$4; u[$1]=$5; next }
           { name=$1; gsub(/"/, "", name); sub(/_median$/, "", name);
             theirs = ($1 in t) ? t[$1] : "";
             ratio = (theirs != "" && $4 > 0) ? sprintf("%.2fx", theirs / $4) : "-";
             printf "%-44s %11.1f %s %11s %s %8s\n", name, $4, $5, (theirs == "" ? "-" : sprintf("%.1f", theirs)), (theirs == "" ? "" : u[$1]), ratio }' \
      /tmp/bench_theirs.csv /tmp/bench_mine.csv
done
