#!/usr/bin/env bash
# Runs each benchmark against miniaten and libtorch in one go and prints the median wall times
# side by side with the ratio libtorch / miniaten (higher = miniaten faster), and, for copies,
# the bandwidth (bytes read + written per second) in GB/s.
#   tools/bench/compare.sh [build-dir] [benchmark-name ...]
set -euo pipefail
build=${1:-build}
shift || true
names=("$@")
[ ${#names[@]} -eq 0 ] && names=(bench_dispatch bench_factories)
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
  printf '%-40s %12s %12s %8s %10s %10s\n' "$name (median wall time)" miniaten libtorch ratio "GB/s mini" "GB/s lib"
  # CSV columns: name,iterations,real_time,cpu_time,time_unit,bytes_per_second,...
  awk -F, 'NR==FNR { t[$1]=$3; bw[$1]=$6; next }
           { name=$1; gsub(/"/, "", name); sub(/_median$/, "", name);
             theirs = ($1 in t) ? t[$1] : "";
             ratio = (theirs != "" && $3 > 0) ? sprintf("%.2fx", theirs / $3) : "-";
             mbw = ($6 != "") ? sprintf("%.1f", $6 / 1e9) : "";
             tbw = ($1 in bw && bw[$1] != "") ? sprintf("%.1f", bw[$1] / 1e9) : "";
             printf "%-40s %9.1f %s %9s %s %8s %10s %10s\n", name, $3, $5,
                    (theirs == "" ? "-" : sprintf("%.1f", theirs)), (theirs == "" ? "" : $5),
                    ratio, mbw, tbw }' \
      /tmp/bench_theirs.csv /tmp/bench_mine.csv
done
