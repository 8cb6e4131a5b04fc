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
. "$top/test-plans/gui-session.sh"
trap gui_stop EXIT
gui_start_display
gui_open_plan "$home" "$plan" "$(mktemp -d)/jmeter-gui.log"

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
for name in mqtt-connect mqtt-subscribe mqtt-publish mqtt-disconnect mqtt-outage mqtt-rendezvous-timer mqtt-run-end; do
  xdotool key Down
  sleep 1.5
  import -window root "$out/$name.png"
done
echo "screenshots written to $out"
