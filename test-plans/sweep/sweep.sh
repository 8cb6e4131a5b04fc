#!/usr/bin/env bash
# Scale sweep: runs one plan at increasing sizes (one headless JMeter run per step) and writes the
# scalability table and charts (sweep.md, sweep.json, sweep.html, *.svg, *.png). docs/sweeps.md explains
# the options and the output. The runner is io.mqttload.sweep.Sweep in the plugin jar; this script finds
# the JMeter home (the one the build assembled, or --jmeter-home) and starts it on that home's libraries.
#
# Usage: test-plans/sweep/sweep.sh --plan PLAN.jmx --steps "[label:]k=v,k=v;..." --out DIR [options]
# Every option, from the runner itself: test-plans/sweep/sweep.sh --help. Environment: JAVA_HOME.
# compare.sh starts its own runner through this script: MQTTLOAD_MAIN and MQTTLOAD_COMMAND name it.
set -euo pipefail

main=${MQTTLOAD_MAIN:-io.mqttload.sweep.Sweep}
name=${MQTTLOAD_COMMAND:-sweep}

top=$(cd "$(dirname "$0")/../.." && pwd)
java=${JAVA_HOME:+$JAVA_HOME/bin/}java
home=

args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
  case ${args[i]} in
    --jmeter-home) home=${args[i + 1]:-} ;;
  esac
done

if [ -z "$home" ]; then
  config=$top/test-plans/target/config.json
  if [ ! -f "$config" ]; then
    echo "$name: no $config: build first (./mvnw -B -ntp -DskipTests package) or pass --jmeter-home" >&2
    exit 2
  fi
  home=$(sed -n 's/.*"executionID":"configuration","jmeterDirectoryPath":"\([^"]*\)".*/\1/p' "$config")
  [ -n "$home" ] || { echo "$name: no JMeter home for execution 'configuration' in $config" >&2; exit 2; }
  set -- --jmeter-home "$home" "$@"
fi
jar=
for f in "$home"/lib/ext/mqtt-load-jmeter-*.jar; do
  [ -f "$f" ] && jar=$f
done
[ -n "$jar" ] || { echo "$name: --jmeter-home '$home': no lib/ext/mqtt-load-jmeter-*.jar there" >&2; exit 2; }

exec "$java" -Xmx256m -Djava.awt.headless=true -cp "$jar:$home/lib/*" "$main" "$@"
