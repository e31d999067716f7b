#!/usr/bin/env bash
# Library code never ends the process or writes to stdout (issue 18): a crash in miniaten is a
# crash in the program that links it, and stdout is that program's. Checked two ways:
#  - the shared library imports none of the C functions that exit, abort or print to stdout,
#    nor spdlog's default logger (which writes to stdout);
#  - std::cout is named only by at::print(t), libtorch's explicit "print this tensor to stdout".
#
#   tools/scripts/library_io_check.sh <libminiaten.so> <source root>
set -euo pipefail
lib=$1 root=$2
status=0

forbidden='^(abort|exit|_exit|_Exit|quick_exit|puts|printf|vprintf|putchar|putchar_unlocked|perror|__assert_fail)(@.*)?$|spdlog.*(default_logger|11stdout_sinkI|stdout_color)'
found=$(nm -D --undefined-only "$lib" | awk '{print $NF}' | grep -E "$forbidden" || true)
if [[ -n $found ]]; then
  echo "$lib imports functions that exit or print to stdout:"
  echo "$found"
  status=1
fi

# Every std::cout / stdout outside comments, in the library's own sources.
uses=$(cd "$root" && grep -rnE 'std::cout|\bstdout\b|std::printf|[^fn]printf\(|\bputs\(' \
         --include='*.h' --include='*.cpp' --include='*.cu' --include='*.cuh' c10 aten dispatcher distributed compat 2>/dev/null |
       grep -vE '^[^:]+:[0-9]+:\s*//' | grep -v '^aten/core/Formatting.cpp:.*print(std::cout, t, linesize)' || true)
if [[ -n $uses ]]; then
  echo "library sources name stdout:"
  echo "$uses"
  status=1
fi
[[ $status == 0 ]] && echo "library_io_check: no exit, abort or stdout in $(basename "$lib")"
exit $status
