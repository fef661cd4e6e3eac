#!/usr/bin/env bash
# Runs every fuzz target for SECONDS seconds each (default 3600), two at a time, niced,
# after writing the seed corpora; logs in fuzz/logs/, findings in fuzz/artifacts/<target>/.
# Usage: fuzz/run-all.sh [SECONDS] [TARGET...]
set -u
cd "$(dirname "$0")"
secs=${1:-3600}; shift || true
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(record halatafl thaayam halves halasi ruleset options setup tiles play)
python3 seeds.py
mkdir -p logs
one() {
  local t=$1 dict=dict/$1.dict
  mkdir -p artifacts/$t
  nice -n 19 cargo +nightly fuzz run -s none -a "$t" corpus/"$t" -- \
    -dict="$dict" -max_total_time="$secs" -runs=10000000 -rss_limit_mb=2048 -timeout=5 \
    -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
    -artifact_prefix=artifacts/"$t"/ > logs/"$t".log 2>&1
}
for ((i = 0; i < ${#targets[@]}; i += 2)); do
  one "${targets[i]}" &
  [ $((i + 1)) -lt ${#targets[@]} ] && one "${targets[i+1]}" &
  wait
done
