#!/usr/bin/env bash
# Installs what miniaten needs from Debian's packages, only when something is missing.
set -euo pipefail
# libzip-dev, nlohmann-json3-dev and libdlpack-dev serve tensor I/O (aten/serialization, aten/DLConvertor.h);
# libzip's CMake config names its three tools, packaged apart (zipcmp, zipmerge, ziptool).
# graphviz draws --dot's graph in a test; nodejs and chromium run the trace page's browser test.
# libgloo-dev carries c10d's collectives across processes (distributed/c10d/ProcessGroupGloo).
pkgs=(cmake ninja-build g++ clang libclang-rt-14-dev libabsl-dev libspdlog-dev libgtest-dev libgmock-dev libbenchmark-dev pkg-config libsleef-dev libopenblas-dev libzip-dev zipcmp zipmerge ziptool nlohmann-json3-dev libdlpack-dev libgloo-dev graphviz nodejs chromium)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
