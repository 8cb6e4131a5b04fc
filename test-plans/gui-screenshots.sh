#!/usr/bin/env bash
# Opens test-plans/gui-elements.jmx in the real JMeter GUI under Xvfb and saves a screenshot of each
# MQTT element's panel into docs/screenshots/, selecting the tree nodes as a user would.
# Usage: test-plans/gui-screenshots.sh <JMeter 5.6.3 home with the plugin jar in lib/ext>
# Needs Debian's xvfb, xdotool and imagemagick (for `import`).
set -euo pipefail
home=${1:?usage: $0 <JMeter home>}
top=$(cd "$(dirname "$0")/.." && pwd)
plan=$top/test-plans/gui-elements.jmx
out=$top/docs/screenshots
mkdir -p "$out"
display=:$((90 + RANDOM % 9))
Xvfb "$display" -screen 0 1400x1000x24 -nolisten tcp >/dev/null 2>&1 &
xvfb_pid=$!
jmeter_pid=
cleanup() {
  if [ -n "$jmeter_pid" ]; then kill "$jmeter_pid" 2>/dev/null || true; fi
  kill "$xvfb_pid" 2>/dev/null || true
}
trap cleanup EXIT
export DISPLAY=$display
for _ in $(seq 100); do
  xdotool getdisplaygeometry >/dev/null 2>&1 && break
  sleep 0.1
done

java -Duser.language=en -Duser.region=US -jar "$home"/bin/ApacheJMeter-*.jar -t "$plan" \
  -j "$(mktemp -d)/jmeter-gui.log" >/dev/null 2>&1 &
jmeter_pid=$!
window=$(timeout 120 xdotool search --sync --name "gui-elements" | head -1)
# The window appears before the plan is laid out; the pauses below let Swing paint.
sleep 5
xdotool windowsize "$window" 1400 1000
xdotool windowmove "$window" 0 0
sleep 2

# JMeter opens a plan with its first child selected: the MQTT Connection config element.
xdotool mousemove 117 85 click 1
sleep 1
import -window root "$out/mqtt-connection.png"
# Down selects the plan-level elements in turn.
for name in mqtt-metrics mqtt-run-report mqtt-broker-monitor; do
  xdotool key Down
  sleep 1.5
  import -window root "$out/$name.png"
done
# Down selects the Thread Group, Right expands it; each further Down selects the next element.
xdotool key Down
xdotool key Right
for name in mqtt-connect mqtt-subscribe mqtt-publish mqtt-disconnect mqtt-rendezvous-timer mqtt-run-end; do
  xdotool key Down
  sleep 1.5
  import -window root "$out/$name.png"
done
echo "screenshots written to $out"
