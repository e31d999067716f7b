#!/usr/bin/env bash
# Runs every `$ miniaten_trace ...` line of the README's code blocks and checks that it exits 0
# and prints what the README shows below it: each `>>> ` statement line and each result line
# (`y: Float sizes=...`) must appear, in that order. The trace lines between them are not
# compared, because they name source lines ("registered at ...:42") that move with every edit.
#   run_readme_examples.sh <miniaten_trace> <README.md> <work dir>
set -euo pipefail
tool=$(realpath "$1") readme=$(realpath "$2") work=$3
mkdir -p "$work" && cd "$work"
# The examples name files as seen from the source tree (tools/trace/examples/...).
ln -sfn "$(dirname "$readme")/tools" tools
count=0
command="" expected=()

check() {
  local out rc=0
  out=$(eval "\"$tool\" $command" 2>&1) || rc=$?
  if [[ $rc -ne 0 ]]; then
    printf 'miniaten_trace %s\nexited %d:\n%s\n' "$command" "$rc" "$out" >&2
    exit 1
  fi
  local rest=$out line
  for line in "${expected[@]}"; do
    if [[ "$rest" != *"$line"* ]]; then
      printf 'miniaten_trace %s\ndoes not print, in order:\n%s\nit printed:\n%s\n' \
        "$command" "$line" "$out" >&2
      exit 1
    fi
    rest=${rest#*"$line"}
  done
  count=$((count + 1))
}

while IFS= read -r line; do
  if [[ $line == '```'* ]]; then
    [[ -n $command ]] && check
    command="" expected=()
  elif [[ $line =~ ^\$\ miniaten_trace\ (.*)$ ]]; then
    [[ -n $command ]] && check
    command=${BASH_REMATCH[1]} expected=()
  elif [[ -n $command && ( $line == '>>> '* || $line =~ ^[A-Za-z_][A-Za-z0-9_]*(\[[0-9]+\])?:\  ) ]]; then
    expected+=("$line")
  fi
done < "$readme"

if [[ $count -eq 0 ]]; then
  echo "no \`\$ miniaten_trace\` example found in $readme" >&2
  exit 1
fi
echo "$count README examples of miniaten_trace ran as shown"
