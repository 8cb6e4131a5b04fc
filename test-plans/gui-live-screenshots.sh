#!/usr/bin/env bash
# Runs a plan in the real JMeter GUI under Xvfb against a Mosquitto of its own, with the MQTT Run Report selected as a
# user would, and saves the panel while the run goes and after it ended into docs/screenshots/: the quick-start plan
# run in the GUI, then multi-publisher.jmx on two jmeter-server engines (Run > Remote Start All).
# Usage: test-plans/gui-live-screenshots.sh <JMeter 5.6.3 home with the plugin jar in lib/ext>
# Needs Debian's xvfb, xdotool, imagemagick (for `import`) and mosquitto.
set -euo pipefail
home=$(cd "${1:?usage: $0 <JMeter home>}" && pwd)
top=$(cd "$(dirname "$0")/.." && pwd)
out=$top/docs/screenshots
work=$(mktemp -d)
# Copies: JMeter saves the plan it has open when a run starts, which would rewrite the repository's plans.
cp "$top/test-plans/plans/quickstart-p2p.jmx" "$top/test-plans/plans/multi-publisher.jmx" "$work/"
plan=$work/quickstart-p2p.jmx
mkdir -p "$out"
port=$((20000 + RANDOM % 20000))
printf 'listener %d 127.0.0.1\nallow_anonymous true\n' "$port" >"$work/mosquitto.conf"
/usr/sbin/mosquitto -c "$work/mosquitto.conf" >"$work/mosquitto.log" 2>&1 &
broker_pid=$!
. "$top/test-plans/gui-session.sh"
engines() {
  "$top/test-plans/distributed/engines.sh" --home "$home" --dir "$work/distributed" "$@"
}
trap 'gui_stop; engines stop >/dev/null 2>&1 || true; kill "$broker_pid" 2>/dev/null || true; rm -rf "$work"' EXIT
gui_start_display
# 25 s of publishing (250 samples of 100 ms), the first 5 s a warm-up.
gui_open_plan "$home" "$plan" "$work/jmeter-gui.log" -Jmqtt.port="$port" -Jsamples=250 -Jmqttload.warmupSeconds=5 \
  -Jmqttload.resultsDir="$work/results"
# The plan opens with its first child (MQTT Connection) selected; Down selects the MQTT Run Report.
xdotool mousemove 117 85 click 1
sleep 1
xdotool key Down
sleep 1
xdotool key ctrl+r
sleep 18
import -window root "$out/mqtt-run-report-live.png"
# The run ends after its 25 s and the drain; the panel then shows the merged report.
for _ in $(seq 60); do
  ls "$work"/results/report-*.html >/dev/null 2>&1 && break
  sleep 1
done
sleep 3
import -window root "$out/mqtt-run-report-ended.png"
gui_close_plan

# Distributed: two engines without SSL on loopback, given the plan's properties at their start (the GUI's Remote
# Start sends no -G properties; the run id it gives itself).
engines start --no-ssl --port-base 24500 --property mqtt.port="$port" --property mqttload.engines=2 \
  --property durationSeconds=15 --property mqttload.resultsDir="$work/engine-results" 2 >/dev/null
gui_open_plan "$home" "$work/multi-publisher.jmx" "$work/jmeter-gui-distributed.log" \
  -Djava.rmi.server.hostname=127.0.0.1 -Jremote_hosts=127.0.0.1:24501,127.0.0.1:24502 -Jserver.rmi.ssl.disable=true \
  -Jmqttload.resultsDir="$work/distributed-results"
# The Run Report is the plan's fourth element.
xdotool mousemove 117 85 click 1
sleep 1
for _ in 1 2 3; do
  xdotool key Down
  sleep 0.7
done
xdotool key ctrl+shift+r
# The engines take the plan over RMI before they start: the screenshot is taken a few seconds into their run.
for _ in $(seq 60); do
  grep -q "MQTT run .* started on engine" "$work/distributed/engine-1.log" 2>/dev/null && break
  sleep 1
done
sleep 8
import -window root "$out/mqtt-run-report-distributed.png"
for _ in $(seq 60); do
  ls "$work"/distributed-results/report-*.html >/dev/null 2>&1 && break
  sleep 1
done
sleep 3
import -window root "$out/mqtt-run-report-distributed-ended.png"
echo "screenshots written to $out"
