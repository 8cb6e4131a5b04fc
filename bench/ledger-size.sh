#!/usr/bin/env bash
# The summary's size against its publish streams, format 3 beside format 4 (docs/performance.md). No broker needed.
# Usage: bench/ledger-size.sh [repetitions] [stream counts, comma-separated]
set -euo pipefail
cd "$(dirname "$0")/.."
repetitions=${1:-3}
sizes=${2:-160000,1000000}
./mvnw -q -B -ntp -pl plugin test-compile
./mvnw -q -B -ntp -pl plugin dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/bench-classpath.txt
cp="plugin/target/test-classes:plugin/target/classes:$(cat plugin/target/bench-classpath.txt)"
echo "== machine"
echo "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC'); commit: $(git rev-parse --short HEAD)"
lscpu | grep -E '^(Model name|CPU\(s\)|Thread\(s\) per core|CPU max MHz)' || true
echo "nproc: $(nproc); memory: $(free -g | awk '/Mem:/{print $2}') GiB; $(java -version 2>&1 | head -1)"
echo "load before: $(uptime)"
echo "== summary size and time, $repetitions repetitions"
java -Xms2g -Xmx8g -XX:+UseG1GC -cp "$cp" io.mqttload.bench.LedgerSizeBenchmark "$repetitions" "$sizes"
echo "load after: $(uptime)"
