#!/usr/bin/env bash
# EMQ's p2p shape (1,000 publisher/subscriber pairs, 1 msg/s per publisher, QoS 1, 16 bytes, MQTT 5) against one
# Mosquitto, offered by three generators in turn, the order rotated every round: the suite on its own schedule
# (test-plans/plans/emq-p2p.jmx with its basic preset: publishRate 1 per client), the suite in today's bursts
# (bench/emq-p2p-bursts.jmx, the plan before 1ff4d8e: 10 messages per thread every 100 ms under a Constant
# Throughput Timer) and emqtt-bench (`sub` and `pub`, 1,000 clients each on p2p/%i, as EMQ ran it). Each run warms up,
# then over a steady window reads Mosquitto's utime+stime and the generator's (its processes and their children,
# /proc/PID/stat), the context switches of all their threads, and the PUBLISH packets Mosquitto sent
# ($SYS/broker/publish/messages/sent, updated every second; the window opens and closes on a fresh update); per message
# delivered: broker CPU, client CPU, context switches. The generator runs on core 0, Mosquitto on core 1. Medians over
# the rounds and their ratios at the end.
#
# Needs Debian's mosquitto and mosquitto-clients, a build (./mvnw -B -ntp -DskipTests package; or JMETER_HOME), and
# an emqtt-bench executable (0.4.21 builds with Debian's Erlang/OTP 25 and rebar3; kept out of this repository).
# Every process ends by itself (JMeter after durationSeconds, emqtt-bench under timeout); the broker is stopped by PID.
#
# Usage: bench/p2p-shape.sh EMQTT_BENCH [rounds] [warm-up s] [window s]   (defaults 3 40 30; PORT, default a free one;
#        JVM_ARGS are added to the suite's JVM, {run} in them replaced by the run's name, e.g.
#        JVM_ARGS="-XX:StartFlightRecording=filename=/tmp/{run}.jfr,settings=profile")
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
emqtt_bench=$(realpath "${1:?usage: bench/p2p-shape.sh EMQTT_BENCH [rounds] [warm-up s] [window s]}")
rounds=${2:-3}
warm=${3:-40}
window=${4:-30}
# A port the kernel has free now: two runs at once on one fixed port measured each other's load (2026-11-29).
port=${PORT:-$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}
work=$(mktemp -d /tmp/p2p-shape.XXXXXX)
hz=$(getconf CLK_TCK)
home=${JMETER_HOME:-$(sed -n 's/.*"executionID":"configuration","jmeterDirectoryPath":"\([^"]*\)".*/\1/p' \
  "$top/test-plans/target/config.json")}
jar=$(ls "$home"/bin/ApacheJMeter-*.jar)
echo "cores: $(nproc); $(grep -m1 'model name' /proc/cpuinfo); $(java -version 2>&1 | head -1); $(/usr/sbin/mosquitto -h | head -1); $(date -u '+%F %H:%M')"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg); rounds $rounds, warm-up ${warm} s, window ${window} s; work $work"

gens=()
broker=
cleanup() {
  for pid in "${gens[@]}"; do kill "$pid" 2>/dev/null || true; done
  [ -z "$broker" ] || kill "$broker" 2>/dev/null || true
}
trap cleanup EXIT

printf 'listener %d 127.0.0.1\nallow_anonymous true\npersistence false\nmax_connections -1\nsys_interval 1\nlog_dest stderr\nlog_type error\n' \
  "$port" >"$work/mosquitto.conf"
taskset -c 1 /usr/sbin/mosquitto -c "$work/mosquitto.conf" 2>"$work/mosquitto.log" &
broker=$!

# utime+stime of a process (fields 14 and 15; the name in parentheses may hold spaces).
ticks() { sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | awk '{print $12 + $13}' || echo 0; }
# The same summed over the given processes and every descendant still alive.
tree_pids() {
  ps -e -o pid=,ppid= | awk -v roots=" $* " '
    { parent[$1] = $2 } END { n = split(roots, r, " "); for (i = 1; i <= n; i++) keep[r[i]] = 1
      do { grown = 0; for (p in parent) if (!(p in keep) && (parent[p] in keep)) { keep[p] = 1; grown = 1 } } while (grown)
      for (p in keep) print p }'
}
tree_ticks() {
  local pid sum=0
  for pid in $(tree_pids "$@"); do sum=$((sum + $(ticks "$pid"))); done
  echo "$sum"
}
# Context switches (voluntary and not) of every thread of the given processes and their descendants still alive.
tree_switches() {
  local pid sum=0
  for pid in $(tree_pids "$@"); do
    sum=$((sum + $(cat /proc/"$pid"/task/*/status 2>/dev/null | awk '/ctxt_switches/ { s += $2 } END { print s + 0 }')))
  done
  echo "$sum"
}
# The next fresh value of Mosquitto's PUBLISH-sent counter (retained, so -R waits for the next update).
sent() { mosquitto_sub -p "$port" -R -C 1 -W 5 -t '$SYS/broker/publish/messages/sent'; }

suite() {
  local name=$1 plan=$2
  shift 2
  # shellcheck disable=SC2086
  (cd "$work" && exec taskset -c 0 timeout $((warm + window + 120)) java -Xmx512m ${JVM_ARGS:+${JVM_ARGS//\{run\}/$name}} \
    -jar "$jar" -n -t "$plan" -q "$top/test-plans/presets/emq-p2p-basic.properties" \
    -Jmqtt.port="$port" -JdurationSeconds=$((warm + window + 5)) -j "$work/$name.log" "$@" >"$work/$name.out" 2>&1) &
  gens=($!)
}
emqtt() {
  local common=(-p "$port" -c 1000 -i 5 -t 'p2p/%i' -q 1 -V 5 -k 300)
  taskset -c 0 timeout -s INT $((warm + window + 15)) "$emqtt_bench" sub "${common[@]}" >"$work/emqtt-sub.out" 2>&1 &
  gens=($!)
  sleep 6
  taskset -c 0 timeout -s INT $((warm + window + 5)) "$emqtt_bench" pub "${common[@]}" -I 1000 -s 16 \
    >"$work/emqtt-pub.out" 2>&1 &
  gens+=($!)
}

run() {
  local name=$1 round=$2 s0 s1 b0 b1 g0 g1 t0 t1 x0 x1 y0 y1
  case $name in
    schedule) suite "$name-$round" "$top/test-plans/plans/emq-p2p.jmx" ;;
    bursts) suite "$name-$round" "$top/bench/emq-p2p-bursts.jmx" -JmessagesPerSample=10 -JintervalMs=100 ;;
    emqtt-bench) emqtt ;;
  esac
  sleep "$warm"
  s0=$(sent); b0=$(ticks "$broker"); g0=$(tree_ticks "${gens[@]}"); t0=$(date +%s.%N)
  x0=$(tree_switches "$broker"); y0=$(tree_switches "${gens[@]}")
  sleep "$window"
  s1=$(sent); b1=$(ticks "$broker"); g1=$(tree_ticks "${gens[@]}"); t1=$(date +%s.%N)
  x1=$(tree_switches "$broker"); y1=$(tree_switches "${gens[@]}")
  for pid in "${gens[@]}"; do wait "$pid" || true; done
  gens=()
  awk -v n="$name" -v r="$round" -v d=$((s1 - s0)) -v b=$((b1 - b0)) -v g=$((g1 - g0)) -v hz="$hz" -v w="$(echo "$t1 - $t0" | bc)" \
    -v x=$((x1 - x0)) -v y=$((y1 - y0)) \
    'BEGIN { printf "%-11s round %d: delivered %7d (%6.1f msg/s)  broker %6.1f us/msg  client %6.1f us/msg  switches/msg broker %.2f client %.2f\n",
             n, r, d, d / w, b * 1e6 / hz / d, g * 1e6 / hz / d, x / d, y / d }' | tee -a "$work/results.txt"
}

order=(schedule bursts emqtt-bench)
for ((round = 1; round <= rounds; round++)); do
  for ((i = 0; i < 3; i++)); do
    run "${order[$(((i + round - 1) % 3))]}" "$round"
  done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
awk '{ gsub(/[()]/, ""); name[$1] = 1; del[$1, ++n[$1]] = $5; br[$1, n[$1]] = $9; cl[$1, n[$1]] = $12 }
  function median(a, k, m,   v, i, j, t) { for (i = 1; i <= m; i++) v[i] = a[k, i]
    for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
    return m % 2 ? v[(m + 1) / 2] : (v[m / 2] + v[m / 2 + 1]) / 2 }
  END { for (k in name) { mb[k] = median(br, k, n[k]); mc[k] = median(cl, k, n[k])
          printf "median %-11s delivered %7d  broker %6.1f us/msg  client %6.1f us/msg\n", k, median(del, k, n[k]), mb[k], mc[k] }
        printf "broker per message: schedule/emqtt-bench %.2f, bursts/emqtt-bench %.2f; client per message: schedule/bursts %.2f, emqtt-bench/bursts %.2f\n",
          mb["schedule"] / mb["emqtt-bench"], mb["bursts"] / mb["emqtt-bench"], mc["schedule"] / mc["bursts"], mc["emqtt-bench"] / mc["bursts"] }' \
  "$work/results.txt"
