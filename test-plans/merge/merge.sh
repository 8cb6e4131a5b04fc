#!/usr/bin/env bash
# The merged run report from engine summary files: for engines that ran without a controller (a fleet started with
# mqttload.engineNumber=auto, a hosted JMeter service, Kubernetes Jobs), the same report a controller's MQTT Run Report
# writes. docs/distributed.md ("Engines without a controller") explains it. The command is
# io.mqttload.sweep.MergeSummaries in the plugin jar; this script finds the JMeter home (the one the build assembled,
# or JMETER_HOME) and runs it on that home's libraries.
#
# Usage: test-plans/merge/merge.sh [--out DIR] [--influx-url URL] FILE|DIR...   (--help lists every option)
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
java=${JAVA_HOME:+$JAVA_HOME/bin/}java
home=${JMETER_HOME:-}

if [ -z "$home" ]; then
  config=$top/test-plans/target/config.json
  if [ ! -f "$config" ]; then
    echo "merge: no $config: build first (./mvnw -B -ntp -DskipTests package) or set JMETER_HOME" >&2
    exit 2
  fi
  home=$(sed -n 's/.*"executionID":"configuration","jmeterDirectoryPath":"\([^"]*\)".*/\1/p' "$config")
  [ -n "$home" ] || { echo "merge: no JMeter home for execution 'configuration' in $config" >&2; exit 2; }
fi
jar=
for f in "$home"/lib/ext/mqtt-load-jmeter-*.jar; do
  [ -f "$f" ] && jar=$f
done
[ -n "$jar" ] || { echo "merge: JMETER_HOME '$home': no lib/ext/mqtt-load-jmeter-*.jar there" >&2; exit 2; }

exec "$java" -Xmx1g -Djava.awt.headless=true -cp "$jar:$home/lib/*" io.mqttload.sweep.MergeSummaries "$@"
