#!/usr/bin/env bash
# miniaten_trace as a learner runs it: exit codes, messages on stderr, the --json and --dot
# files, and MINIATEN_TRACE_JSON on a program that links miniaten.
#   cli_test.sh <miniaten_trace> <miniaten_demo> <work dir>
set -uo pipefail
tool=$(realpath "$1") demo=$(realpath "$2") work=$3
mkdir -p "$work" && cd "$work" || exit 1
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
expect_rc() {  # expect_rc <rc> <what> <command...>
  local want=$1 what=$2; shift 2
  "$@" > out.txt 2> err.txt
  local rc=$?
  [[ $rc -eq $want ]] || fail "$what: exit $rc, wanted $want ($(cat err.txt))"
}

expect_rc 0 "--help" "$tool" --help
grep -q "^usage: miniaten_trace" out.txt || fail "--help prints the usage on stdout"
expect_rc 2 "no arguments" "$tool"
grep -q "^usage: miniaten_trace" err.txt || fail "no arguments prints the usage on stderr"
expect_rc 2 "an unknown option" "$tool" --frobnicate
grep -q "unknown option '--frobnicate'" err.txt || fail "unknown option message"

rm -f t.json g.dot
expect_rc 0 "a script with --json and --dot" "$tool" --json t.json --dot g.dot \
  'x = ones([2, 3], requires_grad=True); y = transpose(x, 0, 1); z = contiguous(y); s = sum(z)'
grep -q '^>>> z = contiguous(y)$' out.txt || fail "the statement is echoed"
grep -q '^z: Float sizes=\[3, 2\] strides=\[2, 1\] offset=0, new storage, requires_grad, grad_fn=CloneBackward0$' out.txt ||
  fail "z's line: $(grep '^z:' out.txt)"
[[ ! -s err.txt ]] || fail "a good script writes nothing on stderr: $(cat err.txt)"
grep -q '"name": "aten::contiguous", "cat": "dispatch", "ph": "X"' t.json || fail "--json has the contiguous event"
grep -q '"traceEvents"' t.json || fail "--json is a trace-event file"
grep -q 'label="SumBackward0"' g.dot || fail "--dot has SumBackward0"
grep -q 'label="TransposeBackward0"' g.dot || fail "--dot has TransposeBackward0"
grep -q 'label="AccumulateGrad"' g.dot || fail "--dot has AccumulateGrad"
if command -v dot > /dev/null; then
  dot -Tsvg g.dot -o g.svg || fail "dot renders g.dot"
  grep -q CloneBackward0 g.svg || fail "the rendered graph names CloneBackward0"
else
  echo "Graphviz's dot is not installed: g.dot not rendered"
fi

expect_rc 1 "a script that fails" "$tool" 'x = ones([2]); y = nosuchop(x)'
grep -q "^miniaten_trace: in \`y = nosuchop(x)\`:$" err.txt || fail "the failing statement is named: $(cat err.txt)"
grep -q "unknown operator 'nosuchop'" err.txt || fail "unknown operator message"
grep -q '^x: ' out.txt || fail "statements before the error ran"
expect_rc 1 "an unknown operator's table" "$tool" --table aten::nosuchop
expect_rc 0 "a table" "$tool" --table aten::contiguous
grep -q '^  AutogradCPU: wrapper_CompositeImplicitAutograd__contiguous (registered at .*) \[CompositeImplicitAutograd kernel\]$' out.txt ||
  fail "contiguous's table: $(cat out.txt)"
expect_rc 0 "--ops" "$tool" --ops
grep -q '^aten::contiguous(Tensor(a) self, \*, MemoryFormat memory_format=0) -> Tensor(a)$' out.txt ||
  fail "--ops lists contiguous"
printf 'x = ones([2])\ny = neg(x)\n' > script.trace
expect_rc 0 "-f FILE" "$tool" -f script.trace
grep -q '^y: Float sizes=\[2\]' out.txt || fail "-f runs the file"
expect_rc 0 "-f -" sh -c "'$tool' -f - < script.trace"
expect_rc 2 "-f a folder" "$tool" -f .
grep -q "cannot read '.'" err.txt || fail "-f a folder says it cannot read it"

# --html: one self-contained page; MINIATEN_TRACE_HTML writes one for any program at exit.
rm -f p.html
expect_rc 0 "a script with --html" "$tool" --html p.html 'x = ones([2, 3]); y = x.t(); z = contiguous(y)'
grep -q '^z: Float sizes=\[3, 2\]' out.txt || fail "--html still prints the text trace"
grep -q '<script id="trace-data" type="application/json">' p.html || fail "--html writes the page with its data"
grep -q '"op": "aten::contiguous"' p.html || fail "the page holds the contiguous call"
grep -q "\"command\": \"miniaten_trace --html p.html 'x = ones(\[2, 3\]); y = x.t(); z = contiguous(y)'\"" p.html ||
  fail "the page says how it was made: $(grep -o '"command": [^,]*' p.html)"
if grep -qE '<(script|link|img)[^>]* (src|href)=' p.html; then fail "the page fetches something"; fi
expect_rc 1 "--html into a folder that does not exist" "$tool" --html no/such/dir/p.html 'x = ones([2])'
grep -q "cannot open 'no/such/dir/p.html' to write the trace page" err.txt || fail "--html's error: $(cat err.txt)"
rm -f demo.html
MINIATEN_TRACE_HTML=demo.html "$demo" > /dev/null 2>&1 || fail "the demo runs with MINIATEN_TRACE_HTML"
grep -q '"op": "aten::contiguous"' demo.html || fail "MINIATEN_TRACE_HTML records the demo's calls"
grep -q '"command": "MINIATEN_TRACE_HTML=demo.html ' demo.html || fail "MINIATEN_TRACE_HTML's page names the program"

rm -f tool.html
MINIATEN_TRACE_HTML=tool.html "$tool" 'x = ones([2]); y = neg(x)' > /dev/null 2>&1 ||
  fail "miniaten_trace runs with MINIATEN_TRACE_HTML"
grep -q '"op": "aten::neg"' tool.html || fail "MINIATEN_TRACE_HTML records miniaten_trace's own calls"

# MINIATEN_TRACE_JSON: any program's calls, written at exit.
rm -f demo.json
MINIATEN_TRACE_JSON=demo.json "$demo" > /dev/null 2>&1 || fail "the demo runs with MINIATEN_TRACE_JSON"
grep -q '"name": "aten::contiguous"' demo.json || fail "MINIATEN_TRACE_JSON records the demo's calls"

[[ $failures -eq 0 ]] && echo "miniaten_trace command line: all checks passed"
exit $((failures > 0))
