#!/usr/bin/env bash
# Builds the fuzz targets once, writes the seed corpora, then fuzzes every target (or the
# ones named) until it has run 10 million inputs or used SECONDS seconds of CPU time
# (default 3600), two targets at a time, niced. The budget is CPU time, not wall time, so
# a run shared with builds still gets its hour. Each target runs in chunks of at most ten
# minutes that continue from its corpus; a crash ends that target (a finding needs a fix
# before more fuzzing). Logs in fuzz/logs/<target>.log, a line a chunk in
# fuzz/logs/<target>.budget ("inputs cpu_seconds exit"), findings in fuzz/artifacts/<target>/.
# A target named NAME:S gets S seconds instead (to finish a budget begun by an earlier run).
# Usage: fuzz/run-all.sh [SECONDS] [TARGET[:S]...]
# FUZZ_NO_BUILD=1 skips the build (a binary put in place by hand, while other targets of
# an earlier run still fuzz from target/).
set -u
cd "$(dirname "$0")"
secs=${1:-3600}; shift || true
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(record halatafl thaayam halves halasi ruleset options setup tiles play)
# No sanitizer: the crate has no unsafe code; -a keeps debug assertions and overflow checks.
[ -n "${FUZZ_NO_BUILD:-}" ] || cargo +nightly fuzz build -s none -a || exit 1
bin=target/x86_64-unknown-linux-gnu/release
python3 seeds.py
mkdir -p logs
echo "== $(date -u +%FT%TZ) $secs s CPU or 10 M inputs: ${targets[*]}" >> logs/summary
runs_max=10000000
one() {
  local t=${1%%:*} secs=$secs runs=0 cpu=0 n c rc=0
  [ "$t" != "$1" ] && secs=${1#*:}
  mkdir -p artifacts/"$t"
  : > logs/"$t".log
  : > logs/"$t".budget
  while [ "$runs" -lt "$runs_max" ] && [ "$cpu" -lt "$secs" ]; do
    # No fork mode: it is ten times slower here (each job reloads its part of the corpus).
    /usr/bin/time -f 'cpu %U %S' -a -o logs/"$t".log \
      nice -n 19 "$bin/$t" corpus/"$t" -dict=dict/"$t".dict \
      -max_total_time=$(( secs - cpu < 600 ? secs - cpu : 600 )) \
      -runs=$(( runs_max - runs )) -rss_limit_mb=2048 -timeout=5 \
      -artifact_prefix=artifacts/"$t"/ >> logs/"$t".log 2>&1
    rc=$?
    # The last "#N" stats line of the chunk: inputs run, the corpus reload included.
    n=$(grep -aE '^#[0-9]+' logs/"$t".log | tail -1 | sed -E 's/^#([0-9]+).*/\1/')
    c=$(grep -a '^cpu ' logs/"$t".log | tail -1 | awk '{ printf "%d", $2 + $3 }')
    echo "${n:-0} ${c:-0} $rc" >> logs/"$t".budget
    runs=$(( runs + ${n:-0} )); cpu=$(( cpu + ${c:-0} ))
    [ "$rc" -ne 0 ] && break
  done
  echo "$t: $runs inputs, $cpu s CPU, last exit $rc" >> logs/summary
}
# Two lanes, each taking every other target in order, so a short target does not leave a
# core idle until its partner ends.
lane() {
  local i
  for ((i = $1; i < ${#targets[@]}; i += 2)); do one "${targets[i]}"; done
}
lane 0 &
lane 1 &
wait
