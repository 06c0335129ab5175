#!/usr/bin/env bash
# The demo soak: the demos a user runs first, back to back, with the machine's other core kept busy,
# checking every summary and counting JVM crashes. Not part of `mvn verify`; run it before a claim
# about the embedded stack's reliability (docs/testing.md).
#
#   demo/soak.sh [ROUNDS] [FORMAT ...]     default: 30 rounds of avro-registry, protobuf-registry and json
#   SOAK_EVENTS=20000                      events per demo
#
# Every run's stdout, stderr and log are kept under target/soak/; a JVM that crashes writes its report
# (hs_err) there too, and the soak prints the report's head. Exit code 0 only if every demo was exact.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
rounds="${1:-30}"
shift || true
formats=("$@")
[ ${#formats[@]} -eq 0 ] && formats=(avro-registry protobuf-registry json)
events="${SOAK_EVENTS:-20000}"
# Build the demo artifact first, outside the clock (a build cleans target/, so the runs' folder comes after).
./rowflow --version >/dev/null || exit 1
dir="$root/target/soak/$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$dir"

# The other core busy for the whole soak, as on a shared CI machine.
( while :; do :; done ) &
busy=$!
trap 'kill $busy 2>/dev/null' EXIT

runs=0 exact=0 crashes=0 started=$(date +%s)
for round in $(seq 1 "$rounds"); do
  for format in "${formats[@]}"; do
    runs=$((runs + 1))
    run="$dir/$round-$format"
    t0=$(date +%s)
    JAVA_OPTS="-XX:ErrorFile=$dir/hs_err_pid%p.log" ROWFLOW_LOG_FILE="$run.log" \
      ./rowflow demo --format "$format" --events "$events" --json >"$run.out" 2>"$run.err"
    code=$?
    summary="$(tail -1 "$run.out")"
    if [ $code -eq 0 ] && grep -q "\"events\":$events,\"dataRows\":$events,\"indexRows\":$events,\"deadLetters\":0," <<<"$summary"; then
      exact=$((exact + 1))
      verdict="exact"
    else
      verdict="FAILED (exit $code)"
      # 134: SIGABRT, how the JVM ends after writing a crash report.
      if [ $code -eq 134 ] || grep -q 'A fatal error has been detected' "$run.out"; then
        crashes=$((crashes + 1))
        verdict="JVM CRASH (exit $code)"
      fi
    fi
    echo "soak: run $runs ($format, round $round): $verdict in $(( $(date +%s) - t0 )) s"
  done
done

echo "soak: $runs demos of $events events in $(( ($(date +%s) - started) / 60 )) min: $exact exact, $crashes JVM crashes, $((runs - exact)) failed; runs in $dir"
for report in "$dir"/hs_err_pid*.log; do
  [ -f "$report" ] || continue
  echo "soak: crash report $report:"
  sed -n '1,60p' "$report"
done
[ "$exact" -eq "$runs" ]
