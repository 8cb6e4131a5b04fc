#!/usr/bin/env bash
# Scale sweep: runs one plan at increasing sizes (one headless JMeter run per step) and writes the
# scalability table and charts (sweep.md, sweep.json, sweep.html, *.svg, *.png). docs/sweeps.md explains
# the options and the output. The runner is io.mqttload.sweep.Sweep in the plugin jar; this script finds
# the JMeter home (the one the build assembled, or --jmeter-home) and starts it on that home's libraries.
#
# Usage: test-plans/sweep/sweep.sh --plan PLAN.jmx --steps "[label:]k=v,k=v;..." --out DIR [options]
#   --steps "partitions=1;partitions=2"    one step per ';', properties of a step separated by ','
#   --step-file FILE                        a Java properties file is one step (repeatable; label = file name)
#   --clients-property NAME                 the step property that labels each step (clients are measured)
#   --broker-pid N | --broker-process NAME  adds an MQTT Broker Monitor: broker CPU and memory per step
#   --broker-name NAME, --broker-engine RE  its broker name; with --remote, the engine next to the broker
#   --remote HOST:PORT,...                  drive jmeter-server engines (-R); step properties go as -G and -J
#   -Jk=v, -Gk=v, -q FILE                   passed to JMeter for every step
#   --jvm-arg ARG, --heap "ARGS"            the JMeter JVM (heap default -Xms1g -Xmx1g -XX:MaxMetaspaceSize=256m)
#   --step-timeout SECONDS                  a step still running then is stopped and recorded as timed out (3600)
#   --on-failure continue|stop              after a failed step (exit code, no report, verdict not NO_LOSS)
#   --sweep-id ID                           run ids are ID-s1, ID-s2, ... (default sweep-<date>-<time>)
#   --jmeter-home DIR                       default: test-plans/target/config.json of the build
# Exit code: 0 every step NO_LOSS, 1 a step failed, 2 bad arguments. Environment: JAVA_HOME.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
java=${JAVA_HOME:+$JAVA_HOME/bin/}java
home=

args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
  case ${args[i]} in
    -h | --help)
      sed -n '/^# Usage:/,/^# Exit code/s/^# \{0,1\}//p' "$0"
      exit 0
      ;;
    --jmeter-home) home=${args[i + 1]:-} ;;
  esac
done

if [ -z "$home" ]; then
  config=$top/test-plans/target/config.json
  if [ ! -f "$config" ]; then
    echo "sweep: no $config: build first (./mvnw -B -ntp -DskipTests package) or pass --jmeter-home" >&2
    exit 2
  fi
  home=$(sed -n 's/.*"executionID":"configuration","jmeterDirectoryPath":"\([^"]*\)".*/\1/p' "$config")
  [ -n "$home" ] || { echo "sweep: no JMeter home for execution 'configuration' in $config" >&2; exit 2; }
  set -- --jmeter-home "$home" "$@"
fi
jar=
for f in "$home"/lib/ext/mqtt-load-jmeter-*.jar; do
  [ -f "$f" ] && jar=$f
done
[ -n "$jar" ] || { echo "sweep: --jmeter-home '$home': no lib/ext/mqtt-load-jmeter-*.jar there" >&2; exit 2; }

exec "$java" -Xmx256m -Djava.awt.headless=true -cp "$jar:$home/lib/*" io.mqttload.sweep.Sweep "$@"
