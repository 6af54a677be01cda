#!/usr/bin/env bash
# The integration test of "markov sweep" on a real (single-node) Slurm:
#
#  1. a small study run as a 4-task job array merges to the same CSV and
#     JSON, byte for byte, as the single-process run;
#  2. a slower study run as a 2-task job array, with array task 1 cancelled
#     once it has written its first result: merge reports the missing tasks
#     and fails; resubmitting task 1 alone completes the study, with nothing
#     lost or duplicated, and the merged table equals the local run's.
#
# It starts Slurm with scripts/slurm-local.sh (installing it if it can) and
# stops it at the end. Exit status 0 passed, 1 failed, 3 skipped (Slurm
# cannot be installed here).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/sweep-slurm-test.XXXXXX")
export SLURM_LOCAL_DIR=$work/slurm
export SLURM_LOCAL_PORT=${SLURM_LOCAL_PORT:-6837}
export SLURM_CONF=$SLURM_LOCAL_DIR/slurm.conf
started=
cleanup() {
  if [ -n "$started" ]; then
    "$root/scripts/slurm-local.sh" stop || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

rc=0
"$root/scripts/slurm-local.sh" start >/dev/null || rc=$?
if [ "$rc" = 3 ]; then
  echo "sweep-slurm-test: SKIPPED: Slurm is not available and cannot be installed here" >&2
  exit 3
elif [ "$rc" != 0 ]; then
  echo "sweep-slurm-test: FAILED to start Slurm" >&2
  tail -20 "$SLURM_LOCAL_DIR"/log/*.log >&2 || true
  exit 1
fi
started=1

(cd "$root" && go build -o "$work/markov" ./cmd/markov)
markov=$work/markov
data=$root/sweep/testdata

fail() {
  echo "sweep-slurm-test: FAILED: $*" >&2
  exit 1
}

# wait_job ID: wait until no task of the job is queued or running.
wait_job() {
  for _ in $(seq 1200); do
    if [ -z "$(squeue -h -j "$1" 2>/dev/null)" ]; then
      return 0
    fi
    sleep 0.25
  done
  fail "job $1 still in the queue after 5 minutes"
}

submit() { # submit STUDY TASKS DIR: print the job id
  "$markov" sweep slurm "$1" --tasks "$2" --out "$3" --submit | sed -n 's/^submitted job //p'
}

same() { # same DIR1 DIR2: the merged tables are byte-identical
  cmp "$1/merged.csv" "$2/merged.csv" || fail "merged.csv of $1 and $2 differ"
  cmp "$1/merged.json" "$2/merged.json" || fail "merged.json of $1 and $2 differ"
}

# 1. A 4-task array against the single-process run.
"$markov" sweep run "$data/small-study.json" --out "$work/small-local" >/dev/null
"$markov" sweep merge "$work/small-local" >/dev/null
job=$(submit "$data/small-study.json" 4 "$work/small-array")
[ -n "$job" ] || fail "no job id from sbatch"
wait_job "$job"
for k in 0 1 2 3; do
  [ -s "$work/small-array/results-$k-of-4.jsonl" ] || fail "array task $k wrote no results: $(cat "$work"/small-array/slurm-*_"$k".out 2>/dev/null)"
done
"$markov" sweep merge "$work/small-array" >/dev/null
same "$work/small-local" "$work/small-array"
echo "sweep-slurm-test: 4-task array = single process, byte for byte ($(($(wc -l <"$work/small-local/merged.csv") - 1)) tasks)"

# 2. Kill one task of a 2-task array mid-way, then rerun it.
"$markov" sweep run "$data/slow-study.json" --out "$work/slow-local" >/dev/null
"$markov" sweep merge "$work/slow-local" >/dev/null
out=$work/slow-array
job=$(submit "$data/slow-study.json" 2 "$out")
[ -n "$job" ] || fail "no job id from sbatch"
for _ in $(seq 1200); do
  [ -s "$out/results-1-of-2.jsonl" ] && break
  sleep 0.05
done
[ -s "$out/results-1-of-2.jsonl" ] || fail "array task 1 wrote no result within a minute"
scancel "${job}_1"
wait_job "$job"
shard1=$(sed -n 's/.*"task":\([0-9]*\),"id".*/\1/p' "$out/results-1-of-2.jsonl" | wc -l)
# Every task is done in slow-local: this only counts shard 1's tasks.
all1=$("$markov" sweep run "$data/slow-study.json" --shard 1/2 --out "$work/slow-local" | sed -n 's/.*: \([0-9]*\) tasks,.*/\1/p')
if [ "$shard1" -ge "$all1" ]; then
  fail "array task 1 finished its $all1 tasks before it was cancelled; the test did not kill it mid-way"
fi
if "$markov" sweep merge "$out" >"$work/merge.out" 2>&1; then
  fail "merge succeeded with shard 1 cancelled after $shard1 of $all1 tasks"
fi
grep -q "tasks missing" "$work/merge.out" || fail "merge did not list the missing tasks: $(cat "$work/merge.out")"
echo "sweep-slurm-test: cancelled array task 1 after $shard1 of its $all1 tasks; merge lists the missing ones"
job2=$(sbatch --parsable --array=1 "$out/sweep.sbatch")
wait_job "$job2"
grep -q "$shard1 already done" "$out"/slurm-"${job2}"_1.out || fail "the rerun did not resume: $(cat "$out"/slurm-"${job2}"_1.out)"
"$markov" sweep merge "$out" >/dev/null
same "$work/slow-local" "$out"
lines=$(cat "$out"/results-*.jsonl | wc -l)
tasks=$(($(wc -l <"$work/slow-local/merged.csv") - 1))
[ "$lines" = "$tasks" ] || fail "$lines result lines for $tasks tasks"
echo "sweep-slurm-test: rerun of task 1 resumed and completed the study: $tasks tasks, each once, = single process"
echo "sweep-slurm-test: PASSED"
