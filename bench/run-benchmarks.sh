#!/usr/bin/env bash
# Runs the benchmarks of docs/performance.md on this machine and prints their results.
# Needs Debian's mosquitto. Usage: bench/run-benchmarks.sh [connections] [repetitions]
set -euo pipefail
cd "$(dirname "$0")/.."
connections=${1:-19000}
repetitions=${2:-3}
./mvnw -q -B -ntp -pl plugin test-compile
./mvnw -q -B -ntp -pl plugin dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/bench-classpath.txt
cp="plugin/target/test-classes:plugin/target/classes:$(cat plugin/target/bench-classpath.txt)"
jvm=(-Xms2g -Xmx4g -XX:+UseG1GC -Djmeter.home=plugin/target/jmeter-home)
echo "== machine"
echo "cores: $(nproc); $(grep -m1 'model name' /proc/cpuinfo); memory: $(free -g | awk '/Mem:/{print $2}') GiB; open files: $(ulimit -n)"
echo "kernel: $(uname -r); $(java -version 2>&1 | head -1); $(/usr/sbin/mosquitto -h 2>/dev/null | head -1)"
echo "== connections"
java "${jvm[@]}" -cp "$cp" io.mqttload.bench.ConnectionsBenchmark "$connections" 19 4000 2>&1 | grep -v -E "^\s*$|DEBUG"
echo "== throughput (load generator on core 0, Mosquitto on core 1)"
# On two cores, generator and broker preempting each other made the side-by-side ratio swing by
# +-10% between runs; one core each keeps raw loop and suite on equal, repeatable terms.
pinned=$(mktemp -d)
printf '#!/bin/sh\nexec taskset -c 1 /usr/sbin/mosquitto "$@"\n' > "$pinned/mosquitto"
chmod +x "$pinned/mosquitto"
taskset -c 0 java "${jvm[@]}" -Dmqttload.mosquitto="$pinned/mosquitto" -cp "$cp" \
  io.mqttload.bench.ThroughputBenchmark "$repetitions" 2>&1 | grep -E "QoS|throughput benchmark"
