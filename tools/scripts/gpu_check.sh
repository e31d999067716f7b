#!/usr/bin/env bash
# The CUDA checks in one command (../shared/GPU.md, section 2), for the rare machine with a GPU.
#
#   tools/scripts/gpu_check.sh prepare [build-dir]   # here: build the CUDA tests and benchmark and
#                                                    # bundle them with the libraries they need
#                                                    # into .gpu/ and .gpu.tgz (git-ignored;
#                                                    # carry .gpu.tgz, unpack it there first)
#   tools/scripts/gpu_check.sh run [out-dir]         # there: from .gpu/, run the CUDA tests,
#                                                    # compute-sanitizer over them, and the GPU
#                                                    # benchmarks beside PyTorch's (built there
#                                                    # against the libtorch of its wheel); full
#                                                    # logs in out-dir, a short table last
#
# A second, shorter call after a fix: GPU_CHECK_BENCH_FILTER=regex runs only those benchmarks, and
# GPU_CHECK_SANITIZE_FILTER=gtest-filter runs memcheck and racecheck over only those tests.
#
# `run` works on a machine without a GPU too (the tests skip, the rest says what is missing), so
# that a lent GPU is never lost to a missing library or a typo.
set -uo pipefail
cd "$(dirname "$0")/../.."
mode=${1:-}
bundle=.gpu

prepare() {
  local build=${1:-build}
  set -e
  cmake -S . -B "$build" -G Ninja -DMINIATEN_BUILD_BENCHMARKS=ON >/dev/null
  cmake --build "$build" --target c10_cuda_tests aten_cuda_tests bench_cuda bench_transpose_tiles
  rm -rf "$bundle" && mkdir -p "$bundle/bin" "$bundle/lib" "$bundle/include"
  cp "$build/tests/c10/c10_cuda_tests" "$build/tests/aten/aten_cuda_tests" \
     "$build/tools/bench/bench_cuda" "$build/tools/bench/bench_transpose_tiles" "$bundle/bin/"
  # ProcessGroupNCCL's tests, where this build has NCCL.
  if cmake --build "$build" --target nccl_tests 2>/dev/null; then
    cp "$build/tests/distributed/nccl_tests" "$bundle/bin/"
  fi
  strip "$bundle"/bin/*
  # Every shared library they load but the C runtime, the C++ runtime and OpenMP, which the GPU
  # machine's compiler brings (newer than ours; carrying ours would shadow them for PyTorch).
  local libs
  # Nor cuBLAS (600 MB with cublasLt) and NCCL (over 200 MB): the GPU machine has them, in
  # PyTorch's wheels or its CUDA toolkit, and run() puts those on the library path.
  libs=$(ldd "$bundle"/bin/* | awk '/=> \//{print $3}' | sort -u |
         grep -Ev '/(libc|libm|libdl|librt|libpthread|ld-linux[^/]*|libstdc\+\+|libgcc_s|libgomp|libcublas|libcublasLt|libnccl)\.so')
  for l in $libs; do cp -L "$l" "$bundle/lib/"; done
  # OpenMP's runtime, used only if the GPU machine has none (run() checks ldconfig).
  mkdir -p "$bundle/fallback"
  cp -L "$(ldd "$bundle/bin/aten_cuda_tests" | awk '/libgomp/{print $3}')" "$bundle/fallback/" || true
  strip --strip-unneeded "$bundle"/lib/*.so* 2>/dev/null || true
  # Google Benchmark for the PyTorch twin, built there.
  cp -L /usr/lib/x86_64-linux-gnu/libbenchmark.so "$bundle/lib/" 2>/dev/null || true
  cp -r /usr/include/benchmark "$bundle/include/"
  grep -qx '/.gpu/' .git/info/exclude 2>/dev/null || echo '/.gpu/' >> .git/info/exclude
  du -sh "$bundle"
  # The working tree and what is carried travel within 64 MiB: the bundle goes compressed
  # (OpenBLAS alone is 36 MB). There: tar xzf .gpu.tgz, then `run`.
  grep -qx '/.gpu.tgz' .git/info/exclude 2>/dev/null || echo '/.gpu.tgz' >> .git/info/exclude
  tar czf .gpu.tgz "$bundle"
  du -sh .gpu.tgz
}

run() {
  local out=${1:-/tmp/gpu_check}
  mkdir -p "$out"
  export PATH=$PATH:/usr/local/cuda/bin
  local bin=$PWD/$bundle/bin
  local libpath=$PWD/$bundle/lib
  for l in "$bundle"/fallback/*; do
    [ -e "$l" ] || continue
    ldconfig -p 2>/dev/null | grep -q "$(basename "$l")" || libpath=$libpath:$PWD/$bundle/fallback
  done
  # cuBLAS, not bundled (prepare): PyTorch's wheel's, else the toolkit's.
  local cublas_dir site_packages
  site_packages=$(python3 -c 'import site; print(site.getsitepackages()[0])' 2>/dev/null)
  cublas_dir=$(dirname "$(find -L "$site_packages/nvidia" /usr/local/cuda/lib64 -name 'libcublas.so.13' 2>/dev/null | head -1)" 2>/dev/null)
  [ -d "$cublas_dir" ] && libpath=$libpath:$cublas_dir
  local nccl_lib
  nccl_lib=$(find -L "$site_packages/nvidia" /usr/local/cuda/lib64 -name 'libnccl.so.2' 2>/dev/null | head -1)
  [ -n "$nccl_lib" ] && libpath=$libpath:$(dirname "$nccl_lib")
  local ours="env LD_LIBRARY_PATH=$libpath:${LD_LIBRARY_PATH:-}"
  local summary=$out/summary.txt
  : > "$summary"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv \
    > "$out/gpu.txt" 2>&1 || echo "no nvidia-smi" > "$out/gpu.txt"
  cat "$out/gpu.txt" >> "$summary"

  # The PyTorch twin of the benchmark, compiled in the background while the tests run.
  local torch_dir site cudart_dir torch_bench=/tmp/bench_cuda_torch
  torch_dir=$(python3 -c 'import os, torch; print(os.path.dirname(torch.__file__))' 2>/dev/null)
  site=$(dirname "$torch_dir" 2>/dev/null)
  cudart_dir=$(dirname "$(find "$site/nvidia" -name 'libcudart.so*' 2>/dev/null | head -1)" 2>/dev/null)
  [ -d "$cudart_dir" ] || cudart_dir=/usr/local/cuda/lib64
  local torch_pid=""
  if [ -n "$torch_dir" ]; then
    # --no-as-needed: libtorch_cuda must load (it registers CUDA) though nothing names it.
    local cuda_inc=""
    for d in "$site"/nvidia/cu13/include "$site"/nvidia/cuda_runtime/include /usr/local/cuda/include; do
      [ -d "$d" ] && cuda_inc="$cuda_inc -I$d"
    done
    ( g++ -O2 -std=c++20 -DMINIATEN_BENCH_LIBTORCH tools/bench/bench_cuda.cpp -o "$torch_bench" \
        -I"$torch_dir/include" -I"$torch_dir/include/torch/csrc/api/include" \
        -I"$PWD/$bundle/include" $cuda_inc \
        -L"$torch_dir/lib" -Wl,--no-as-needed -ltorch -ltorch_cpu -ltorch_cuda -lc10 -lc10_cuda \
        -Wl,--as-needed \
        -L"$PWD/$bundle/lib" -lbenchmark -L"$cudart_dir" -l:libcudart.so.13 -lpthread \
        -Wl,-rpath,"$torch_dir/lib:$PWD/$bundle/lib:$cudart_dir" ) > "$out/torch_build.log" 2>&1 &
    torch_pid=$!
  else
    echo "no PyTorch here: no PyTorch twin" > "$out/torch_build.log"
  fi

  local status=0
  {
    for t in c10_cuda_tests aten_cuda_tests nccl_tests; do
      # nccl_tests only where the build had NCCL and this machine has a libnccl to load.
      if [ "$t" = nccl_tests ] && { [ ! -x "$bin/$t" ] || [ -z "$nccl_lib" ]; }; then
        echo "== $t: not run (no NCCL in the build or on this machine)"
        continue
      fi
      echo "== $t"
      $ours "$bin/$t" --gtest_brief=1 2>&1 | tail -40
      echo "exit ${PIPESTATUS[0]}"
    done
  } > "$out/tests.log" 2>&1
  grep -E '^== |PASSED|FAILED|SKIPPED|^exit' "$out/tests.log" >> "$summary"
  cat "$summary"
  grep -q '^exit [1-9]' "$out/tests.log" && status=1

  local args=(--benchmark_repetitions=5 --benchmark_report_aggregates_only=true
              --benchmark_format=csv --benchmark_filter="${GPU_CHECK_BENCH_FILTER:-.}")
  $ours "$bin/bench_cuda" "${args[@]}" > "$out/bench_miniaten.csv" 2> "$out/bench_miniaten.err"
  if [ -n "$torch_pid" ] && wait "$torch_pid" && [ -x "$torch_bench" ]; then
    "$torch_bench" "${args[@]}" > "$out/bench_pytorch.csv" 2> "$out/bench_pytorch.err"
  else
    { echo "PyTorch twin not built:"; tail -5 "$out/torch_build.log"; } >> "$summary"
    : > "$out/bench_pytorch.csv"
  fi
  python3 tools/scripts/bench_table.py "$out/bench_miniaten.csv" "$out/bench_pytorch.csv" \
    2>&1 | tee -a "$summary"
  $ours "$bin/bench_transpose_tiles" 2>&1 | tee "$out/transpose_tiles.txt" | tee -a "$summary"

  # Last, as the slowest part (each kernel launch instrumented), bounded in time.
  if command -v compute-sanitizer > /dev/null && [ -n "${GPU_CHECK_SANITIZE_FILTER:-}" ]; then
    {
      echo "== memcheck aten_cuda_tests ($GPU_CHECK_SANITIZE_FILTER)"
      timeout 120 $ours compute-sanitizer --tool memcheck --error-exitcode 9 --print-limit 20 \
        "$bin/aten_cuda_tests" --gtest_brief=1 --gtest_filter="$GPU_CHECK_SANITIZE_FILTER" 2>&1 | tail -15
      echo "exit ${PIPESTATUS[0]}"
      echo "== racecheck aten_cuda_tests ($GPU_CHECK_SANITIZE_FILTER)"
      timeout 90 $ours compute-sanitizer --tool racecheck --error-exitcode 9 --print-limit 20 \
        "$bin/aten_cuda_tests" --gtest_brief=1 --gtest_filter="$GPU_CHECK_SANITIZE_FILTER" 2>&1 | tail -15
      echo "exit ${PIPESTATUS[0]}"
    } > "$out/sanitizer.log" 2>&1
    grep -E '^== |ERROR SUMMARY|RACECHECK SUMMARY|^exit' "$out/sanitizer.log" | tee -a "$summary"
    grep -q '^exit [1-9]' "$out/sanitizer.log" && status=1
  elif command -v compute-sanitizer > /dev/null; then
    {
      for t in c10_cuda_tests aten_cuda_tests; do
        echo "== memcheck $t"
        # Not the two tests that provoke runtime errors on purpose (a 128 TiB cudaMalloc, a
        # guard on a missing device): memcheck counts every failed API call as an error. Nor
        # the 13 GB one, nor the exhaustive op-by-dtype-by-layout sweeps (thousands of launches;
        # the same kernels run under memcheck in the smaller CUDA*Ops cases).
        timeout $([ $t = c10_cuda_tests ] && echo 60 || echo 180) $ours compute-sanitizer --tool memcheck --error-exitcode 9 --print-limit 20 \
          "$bin/$t" --gtest_brief=1 \
          --gtest_filter=-CUDACachingAllocator.OutOfMemoryNamesTheSizes:CUDADevice.CurrentDeviceAndGuards:CUDAHuge.*:CUDABinaryOps.EveryOp*:CUDAUnaryOps.Floating* \
          2>&1 | head -60
        echo "exit ${PIPESTATUS[0]}"
      done
      echo "== racecheck (the transpose, the copies and the reductions' shared memory)"
      timeout 90 $ours compute-sanitizer --tool racecheck --error-exitcode 9 --print-limit 20 \
        "$bin/aten_cuda_tests" --gtest_brief=1 --gtest_filter='CUDACopy.EachLoop*:CUDAFactories.Fill*:CUDAReduce.*:CUDASoftMax.*:CUDALoss.*' 2>&1 | tail -15
      echo "exit ${PIPESTATUS[0]}"
    } > "$out/sanitizer.log" 2>&1
    grep -E '^== |ERROR SUMMARY|RACECHECK SUMMARY|^exit' "$out/sanitizer.log" | tee -a "$summary"
    grep -q '^exit [1-9]' "$out/sanitizer.log" && status=1
  else
    echo "no compute-sanitizer" >> "$summary"
  fi

  return $status
}

case "$mode" in
  prepare) shift; prepare "$@" ;;
  run) shift; run "$@" ;;
  *) echo "usage: $0 prepare [build-dir] | run [out-dir]" >&2; exit 2 ;;
esac
