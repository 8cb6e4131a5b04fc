#!/usr/bin/env bash
# The delivered-path benchmarks of docs/performance.md: pairs (synchronous QoS 1 as seed 001, asynchronous QoS 0
# and 1), fan-in and fan-out, each a raw HiveMQ-client loop beside the suite's JMeter plan, the load generator on
# core 0 and Mosquitto on core 1, each side in a JVM of its own. Both sides run at once and are measured in turn,
# the idle one stopped (SIGSTOP), alternating who goes first. Needs Debian's mosquitto.
# Usage: bench/delivered-path.sh [rounds] [warm-up seconds] [window seconds] [SHAPE ...]   (defaults 6 60 5, every
#        shape; JVM_ARGS are added to each side's JVM, {run} in them replaced by shape-side, e.g.
#        JVM_ARGS="-XX:StartFlightRecording=filename=/tmp/{run}.jfr,settings=profile")
set -euo pipefail
cd "$(dirname "$0")/.."
./mvnw -q -B -ntp -pl plugin test-compile
./mvnw -q -B -ntp -pl plugin dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/bench-classpath.txt
cp="plugin/target/test-classes:plugin/target/classes:$(cat plugin/target/bench-classpath.txt)"
echo "cores: $(nproc); $(grep -m1 'model name' /proc/cpuinfo); $(java -version 2>&1 | head -1); $(date -u +%F)"
pinned=$(mktemp -d)
printf '#!/bin/sh\nexec taskset -c 1 /usr/sbin/mosquitto "$@"\n' >"$pinned/mosquitto"
chmod +x "$pinned/mosquitto"
taskset -c 0 java -Xmx256m -Djmeter.home=plugin/target/jmeter-home -Dmqttload.mosquitto="$pinned/mosquitto" \
  -cp "$cp" io.mqttload.bench.DeliveredPathBenchmark "${1:-6}" "${2:-60}" "${3:-5}" "${@:4}" 2>&1 | grep -v -E "^\s*$|DEBUG|INFO|WARN"
