#!/usr/bin/env bash
# Builds the fuzz targets once, writes the seed corpora, then runs every target (or the
# ones named) for SECONDS seconds each (default 3600) or 10 million inputs, two at a time,
# niced. Logs in fuzz/logs/<target>.log, findings in fuzz/artifacts/<target>/.
# Usage: fuzz/run-all.sh [SECONDS] [TARGET...]
set -u
cd "$(dirname "$0")"
secs=${1:-3600}; shift || true
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(record halatafl thaayam halves halasi ruleset options setup tiles play)
# No sanitizer: the crate has no unsafe code; -a keeps debug assertions and overflow checks.
cargo +nightly fuzz build -s none -a || exit 1
bin=target/x86_64-unknown-linux-gnu/release
python3 seeds.py
mkdir -p logs
one() {
  local t=$1
  mkdir -p artifacts/"$t"
  nice -n 19 "$bin/$t" corpus/"$t" -dict=dict/"$t".dict \
    -max_total_time="$secs" -runs=10000000 -rss_limit_mb=2048 -timeout=5 \
    -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
    -artifact_prefix=artifacts/"$t"/ > logs/"$t".log 2>&1
}
for ((i = 0; i < ${#targets[@]}; i += 2)); do
  one "${targets[i]}" &
  [ $((i + 1)) -lt ${#targets[@]} ] && one "${targets[i+1]}" &
  wait
done
