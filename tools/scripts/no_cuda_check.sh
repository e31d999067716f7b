#!/usr/bin/env bash
# The build without CUDA (MINIATEN_CUDA=OFF), as CI checks it: only the library and
# tests/aten/cuda/NoCudaBuild_test.cpp, whose tests say what a CUDA tensor request gives there
# ("Could not run 'aten::empty.memory_format' with arguments from the 'CUDA' backend ...").
#   tools/scripts/no_cuda_check.sh [build-dir]     (default build-nocuda)
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build-nocuda}
cmake -S . -B "$build" -G Ninja -DMINIATEN_CUDA=OFF -DMINIATEN_BUILD_BENCHMARKS=OFF >/dev/null
cmake --build "$build" --target no_cuda_tests
"$build/tests/aten/no_cuda_tests" --gtest_brief=1
