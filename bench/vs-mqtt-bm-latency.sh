#!/usr/bin/env bash
# The RabbitMQ seed's own benchmark run by the seed's own tool and by the suite, alternated, against one Mosquitto:
# 100 publisher/subscriber pairs, 10,000 messages each of 100 bytes, every publish waiting for its PUBACK (QoS 1),
# keep-alive 120 s, exactly as the seed ran `mqtt-bm-latency` (seeds/001, the ansd fork). Mosquitto has
# `set_tcp_nodelay true` (without it Nagle's algorithm holds PUBACKs ~40 ms) and `max_queued_messages 0` for both.
# The broker runs on core 1, each generator on core 0, one at a time, so each gets the same machine (PIN=0: nothing
# pinned, as a user would run them, broker and generator sharing both cores); who goes first alternates round by round. Per run: wall time and CPU (user + system, children included) of the whole process from
# its start, so start-up counts; messages delivered; each tool's own throughput figure; the broker's CPU.
#
# Needs Debian's mosquitto, a build (./mvnw -B -ntp -DskipTests package) or a JMeter home with the plugin in
# JMETER_HOME, and the tool built outside this repository (`go build -mod=mod` in a copy of ansd/mqtt-bm-latency).
# Every process it starts ends by itself or is stopped by PID when the script ends.
#
# Usage: bench/vs-mqtt-bm-latency.sh TOOL [rounds] [pairs] [messages per pair] [qos]   (defaults 3 100 10000 1)
#        JVM_ARGS are given to the suite's JVM as they are; the build's start-up archive (bin/mqtt-load.jsa) is used
#        as the quick start uses it, when the JVM that made it is this one (ARCHIVE=0: without it).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
tool=${1:?usage: bench/vs-mqtt-bm-latency.sh TOOL [rounds] [pairs] [messages per pair] [qos]}
rounds=${2:-3}
pairs=${3:-100}
count=${4:-10000}
qos=${5:-1}
[ -x "$tool" ] || { echo "not an executable: $tool" >&2; exit 2; }
for n in "$rounds" "$pairs" "$count"; do
  [[ "$n" =~ ^[1-9][0-9]*$ ]] || { echo "not a positive whole number: $n" >&2; exit 2; }
done
[[ "$qos" =~ ^[01]$ ]] || { echo "qos must be 0 or 1 (the seed's two runs), not $qos" >&2; exit 2; }

home=${JMETER_HOME:-}
if [ -z "$home" ]; then
  config="$top/test-plans/target/config.json"
  [ -f "$config" ] || { echo "no $config: build first (./mvnw -B -ntp -DskipTests package) or set JMETER_HOME" >&2; exit 2; }
  home=$(sed -n 's/.*"executionID":"configuration","jmeterDirectoryPath":"\([^"]*\)".*/\1/p' "$config")
fi
jar=$(ls "$home"/bin/ApacheJMeter-*.jar 2>/dev/null | head -1)
[ -n "$jar" ] || { echo "no bin/ApacheJMeter-*.jar under $home" >&2; exit 2; }
# The JVM would fall back quietly on an archive made by another build: check it as the launchers do (StartupArchive).
archive_args=()
archive="$home/bin/mqtt-load.jsa"
if [ "${ARCHIVE:-1}" = 1 ]; then
  vm=$(java -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.vm.version = //p')
  if [ -f "$archive" ] && [ "$(cat "$archive.jdk" 2>/dev/null)" = "$vm" ]; then
    archive_args=("-XX:SharedArchiveFile=$archive")
  else
    echo "the suite starts without the start-up archive $archive (missing, or made by another JVM than $vm)" >&2
  fi
fi

if [ "${PIN:-1}" = 1 ]; then
  broker_cores=(taskset -c 1)
  generator_cores=(taskset -c 0)
else
  broker_cores=()
  generator_cores=()
fi
work=$(mktemp -d /tmp/vs-mqtt-bm-latency.XXXXXX)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
cat >"$work/mosquitto.conf" <<EOF
listener $port 127.0.0.1
allow_anonymous true
set_tcp_nodelay true
max_queued_messages 0
max_connections -1
persistence false
EOF
"${broker_cores[@]}" /usr/sbin/mosquitto -c "$work/mosquitto.conf" >"$work/mosquitto.log" 2>&1 &
broker=$!
generator=
cleanup() {
  if [ -n "$generator" ]; then
    pkill -P "$generator" 2>/dev/null || true
    kill "$generator" 2>/dev/null || true
  fi
  kill "$broker" 2>/dev/null || true
  wait 2>/dev/null || true
}
trap cleanup EXIT
trap 'exit 130' INT TERM
for _ in $(seq 100); do
  (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
  sleep 0.05
done
(exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null || { echo "Mosquitto did not listen on $port:" >&2; cat "$work/mosquitto.log" >&2; exit 1; }

ticks=$(getconf CLK_TCK)
broker_cpu() { awk -v t="$ticks" '{ printf "%.2f", ($14 + $15) / t }' "/proc/$broker/stat"; }
total=$((pairs * count))
echo "cores: $(nproc); $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-); $(java -version 2>&1 | head -1); $(/usr/sbin/mosquitto -h | head -1); $(date -u +%FT%TZ)"
echo "pinned: ${PIN:-1} (1: broker on core 1, generator on core 0); suite's JVM: ${archive_args[*]:-no start-up archive} ${JVM_ARGS:-}"
echo "shape: $pairs pairs x $count messages, QoS $qos, 100 bytes; $rounds rounds, alternated; $total messages a run"
printf '%-5s %-6s %8s %8s %8s %12s %12s %10s %s\n' round who wall_s cpu_s broker_s 'msg/s(wall)' 'msg/s(own)' delivered check

# One run: its wall and CPU from /usr/bin/time, the broker's CPU over it, its own throughput and delivered count.
run_tool() {
  local out="$work/$1.out"
  "${generator_cores[@]}" /usr/bin/time -f '%e %U %S' -o "$work/$1.time" "$tool" -broker "tcp://127.0.0.1:$port" \
    -clients "$pairs" -count "$count" -pubqos "$qos" -subqos "$qos" -size 100 -keepalive 120 -topic t -quiet \
    >"$out" 2>&1 &
  generator=$!
  wait "$generator" || true
  generator=
  own=$(sed -n 's/^Total Bandwidth (msg\/sec): *//p' "$out")
  delivered=$(sed -n 's/^Total Forward Success Ratio: *[0-9.]*% (\([0-9]*\)\/.*/\1/p' "$out")
  check=$([ "$delivered" = "$total" ] && echo "all delivered" || echo "DELIVERED ${delivered:-?} OF $total")
}
run_suite() {
  local out="$work/$1.out"
  # shellcheck disable=SC2086
  "${generator_cores[@]}" /usr/bin/time -f '%e %U %S' -o "$work/$1.time" java "${archive_args[@]}" ${JVM_ARGS:-} -jar "$jar" -n \
    -t "$top/test-plans/plans/mqtt-bm-latency.jmx" -q "$top/test-plans/presets/mqtt-bm-latency-qos$qos.properties" \
    -Jmqtt.host=127.0.0.1 -Jmqtt.port="$port" -Jpairs="$pairs" -JmessagesPerSample=100 -Jsamples=$((count / 100)) \
    -Jmqttload.resultsDir="$work/$1-results" -j "$work/$1-jmeter.log" -l "$work/$1.jtl" >"$out" 2>&1 &
  generator=$!
  wait "$generator" || true
  generator=
  own=$(sed -n "s/^actual rate pub:sub (msg\/s) *\([0-9.]*\).*/\1/p" "$out" | head -1)
  delivered=$(awk '$1 == "received" { print $2; exit }' "$out")
  check=$(grep -m1 -o 'NO LOSS' "$out" || grep -m1 -i '^verdict.*' "$out" || echo "no verdict: see $out")
}

for round in $(seq "$rounds"); do
  order=(tool suite)
  [ $((round % 2)) -eq 0 ] && order=(suite tool)
  for who in "${order[@]}"; do
    name="$who-$round"
    before=$(broker_cpu)
    "run_$who" "$name"
    after=$(broker_cpu)
    read -r wall user sys <"$work/$name.time"
    printf '%-5s %-6s %8.1f %8.1f %8.1f %12.0f %12s %10s %s\n' "$round" "$who" "$wall" \
      "$(echo "$user + $sys" | bc)" "$(echo "$after - $before" | bc)" "$(echo "$total / $wall" | bc -l)" \
      "${own:-?}" "${delivered:-?}" "$check"
  done
done
echo "outputs: $work"
