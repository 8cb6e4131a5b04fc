#!/usr/bin/env bash
# XMeter plan converter: reads a .jmx written with XMeter's MQTT samplers (emqx/mqtt-jmeter) and writes the same plan
# on this suite's elements, with a report of what became of every element and option (OUT.conversion.md).
# docs/xmeter-migration.md explains the mapping. The converter is io.mqttload.convert.XmeterConverter in the plugin
# jar and needs nothing else; this script finds the jar the build made (or the one in --jmeter-home's lib/ext).
#
# Usage: test-plans/convert/xmeter-convert.sh PLAN.jmx [-o OUT.jmx] [--jmeter-home DIR]
# Exit code: 0 converted, 1 bad input or arguments, 2 converted but something could not be (listed).
# Environment: JAVA_HOME.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
java=${JAVA_HOME:+$JAVA_HOME/bin/}java
home=

args=()
while [ $# -gt 0 ]; do
  case $1 in
    --jmeter-home)
      [ $# -ge 2 ] || { echo "xmeter-convert: --jmeter-home needs a directory" >&2; exit 1; }
      home=$2
      shift 2
      ;;
    *)
      args+=("$1")
      shift
      ;;
  esac
done

jar=
if [ -n "$home" ]; then
  for f in "$home"/lib/ext/mqtt-load-jmeter-*.jar; do
    [ -f "$f" ] && jar=$f
  done
  [ -n "$jar" ] || { echo "xmeter-convert: --jmeter-home '$home': no lib/ext/mqtt-load-jmeter-*.jar there" >&2; exit 1; }
else
  for f in "$top"/plugin/target/mqtt-load-jmeter-*.jar; do
    case $(basename "$f") in
      *-tests.jar | *-sources.jar | *-javadoc.jar | *-shaded.jar | original-*) ;;
      *) [ -f "$f" ] && jar=$f ;;
    esac
  done
  [ -n "$jar" ] || {
    echo "xmeter-convert: no plugin/target/mqtt-load-jmeter-*.jar: build first (./mvnw -B -ntp -DskipTests package)" \
      "or pass --jmeter-home" >&2
    exit 1
  }
fi

exec "$java" -Xmx256m -Djava.awt.headless=true -cp "$jar" io.mqttload.convert.XmeterConverter ${args[@]+"${args[@]}"}
