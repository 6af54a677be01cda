#!/usr/bin/env bash
# Every markov command that reads a file (a scenario, a trace, a study, a
# results directory) on hostile inputs: /dev/zero, random bytes, 200 MB of
# zeros, an empty file and a 200 MB JSON string, under an address-space
# limit of 2 GB (ulimit -v 2000000) and a timeout. An error exit is what these inputs
# deserve; the script fails on a Go runtime crash ("fatal error",
# "panic:", "goroutine "), a signal, a hang past the timeout, or an exit 0
# (a file that is not a scenario, trace or study is never a success).
# Issue 23. Takes about 10 s.
set -uo pipefail
cd "$(dirname "$0")/.."

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/markov" ./cmd/markov || exit 1

head -c 1048576 /dev/urandom >"$tmp/random"
head -c 200000000 /dev/zero >"$tmp/zeros"
: >"$tmp/empty"
# A JSON prefix then a 200 MB string value: read whole, it would cost
# about 12 times its size to parse; under the limit it is refused by size.
{ printf '{"system": {"processors": 4, "mttf": "'; head -c 200000000 /dev/zero | tr '\0' a; printf '"}}'; } >"$tmp/longstring"
mkdir "$tmp/results"

limit=${HOSTILE_TIMEOUT:-20}
fail=0
runs=0
check() { # input, then the command's arguments with @ for the input
  local in=$1 args=() a
  shift
  for a in "$@"; do args+=("${a//@/$in}"); done
  local err="$tmp/stderr"
  (
    ulimit -v 2000000
    exec timeout -s KILL "$limit" "$tmp/markov" "${args[@]}" >/dev/null 2>"$err"
  )
  local rc=$?
  runs=$((runs + 1))
  local what="markov ${args[*]}"
  if [ "$rc" -eq 137 ]; then
    echo "HANG ($limit s): $what" >&2
    fail=1
  elif grep -qE 'fatal error|panic:|goroutine ' "$err"; then
    echo "CRASH (exit $rc): $what" >&2
    head -c 600 "$err" >&2
    echo >&2
    fail=1
  elif [ "$rc" -eq 0 ]; then
    echo "EXIT 0 on a hostile input: $what" >&2
    fail=1
  elif [ "$rc" -gt 2 ]; then
    echo "EXIT $rc (a signal?): $what" >&2
    head -c 600 "$err" >&2
    echo >&2
    fail=1
  fi
}

for in in /dev/zero /dev/urandom "$tmp/random" "$tmp/zeros" "$tmp/empty"; do
  for cmd in optimize "uwt --interval 1h" curve availability "simulate --interval 1h" intervals policy; do
    # shellcheck disable=SC2086 # the command's words
    check "$in" $cmd --scenario @
  done
  check "$in" evaluate --trace @
  check "$in" evaluate --lanl @ --systems 1
  check "$in" trace stats --trace @
  check "$in" trace stats --lanl @ --systems 1
  check "$in" sweep run @ --out "$tmp/results"
  check "$in" sweep slurm @ --out "$tmp/results" --tasks 2
done
for cmd in optimize "uwt --interval 1h" policy; do
  # shellcheck disable=SC2086 # the command's words
  check "$tmp/longstring" $cmd --scenario @
done
# A results directory whose study.json is hostile.
for in in "$tmp/random" "$tmp/empty"; do
  cp "$in" "$tmp/results/study.json"
  check "$in" sweep merge "$tmp/results"
done

if [ "$fail" -ne 0 ]; then
  echo "hostile inputs: FAILED (of $runs runs)" >&2
  exit 1
fi
echo "hostile inputs: $runs runs, no crash, no hang, no exit 0"
