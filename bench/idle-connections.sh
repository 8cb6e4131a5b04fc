#!/usr/bin/env bash
# The RabbitMQ seed's idle connections scaled to one machine: K jmeter-server engines (engines.sh) each open
# PARTITIONS x PER connections, paced at RATE connects per second per engine, spread round robin over B Mosquitto
# processes (one process holds at most its `ulimit -n` of sockets, broker and engine alike), hold them idle for
# IDLE seconds (keep-alive PINGs only), and disconnect. Once every engine holds its connections, each engine's and
# each broker's resident memory and each engine's heap after a full GC are read, beside the same figures taken
# before the run, and printed per connection. The merged report (connects, connections lost, verdict) is the
# controller's output.
#
# Needs Debian's mosquitto and a build (./mvnw -B -ntp -DskipTests verify), or a JMeter home with the plugin in
# JMETER_HOME. Every process it starts ends by itself or is stopped by PID when it ends.
#
# Usage: bench/idle-connections.sh [engines] [partitions] [connections per partition] [brokers] [rate] [idle s] [-Gname=value ...]
#        defaults 6 20 834 6 167 60: 100,080 connections, 1,000 connects/s in all, held for a minute (3,000/s was more
#        than this 2-core machine answered in time). Arguments after the sixth go to the run as they are
#        (-GkeepAliveSeconds=300 -GdisconnectTimeoutMs=60000: docs/scenarios/rabbitmq-idle-connections.md).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
engines=${1:-6}
partitions=${2:-20}
per_partition=${3:-834}
brokers=${4:-6}
rate=${5:-167}
idle=${6:-60}
extra=("${@:7}")
port_base=${PORT_BASE:-27880}
rmi_base=${RMI_PORT_BASE:-28400}
work=$(mktemp -d /tmp/idle-connections.XXXXXX)
per_engine=$((partitions * per_partition))
total=$((engines * per_engine))
ulimit -n "$(ulimit -Hn)"
# Engines start small and grow: their resident memory then shows what the connections cost, not -Xms.
export HEAP=${HEAP:--Xms128m -Xmx2g -XX:MaxMetaspaceSize=256m}

engines_sh=("$top/test-plans/distributed/engines.sh" ${JMETER_HOME:+--home "$JMETER_HOME"} --dir "$work/engines")
pids=()
controller=
cleanup() {
  [ -z "$controller" ] || kill "$controller" 2>/dev/null || true
  "${engines_sh[@]}" stop >/dev/null 2>&1 || true
  for pid in "${pids[@]}"; do
    kill "$pid" 2>/dev/null || true
  done
}
trap cleanup EXIT

node_list=
broker_pids=()
for ((n = 1; n <= brokers; n++)); do
  port=$((port_base + n))
  printf 'per_listener_settings false\nallow_anonymous true\npersistence false\nmax_connections -1\nlog_dest stderr\nlog_type error\nlistener %d 127.0.0.1\n' \
    "$port" >"$work/broker$n.conf"
  /usr/sbin/mosquitto -c "$work/broker$n.conf" 2>"$work/broker$n.log" &
  pids+=($!)
  broker_pids+=($!)
  node_list+="${node_list:+,}b$n=127.0.0.1:$port"
done

"${engines_sh[@]}" start --no-ssl --port-base "$rmi_base" "$engines"
engine_pids=()
while read -r _ pid _; do engine_pids+=("$pid"); done <"$work/engines/engines"

rss_kib() { awk '/^VmRSS/{print $2}' "/proc/$1/status"; }
# find fails when a descriptor closes while it lists them (a connection lost): that is not this script's failure.
sockets() { { find "/proc/$1/fd" -lname 'socket:*' 2>/dev/null || true; } | wc -l; }
# Used heap in KiB after a full collection: survivors, eden and old generation as jstat reports them.
heap_kib() {
  jcmd "$1" GC.run >/dev/null
  jstat -gc "$1" | awk 'NR == 2 { printf "%d\n", $3 + $4 + $6 + $8 }'
}
snapshot() {
  local label=$1 pid i=0
  for pid in "${engine_pids[@]}"; do
    i=$((i + 1))
    echo "$label engine-$i $(sockets "$pid") $(rss_kib "$pid") $(heap_kib "$pid")"
  done
  i=0
  for pid in "${broker_pids[@]}"; do
    i=$((i + 1))
    echo "$label broker-$i $(sockets "$pid") $(rss_kib "$pid") 0"
  done
}
snapshot before >"$work/memory.txt"

run_id=idle-$(date +%H%M%S)
"${engines_sh[@]}" run "$top/test-plans/plans/rabbitmq-idle-connections.jmx" \
  -Gmqtt.nodes="$node_list" -Gmqtt.nodeAssignment=ROUND_ROBIN -Gmqtt.port=$((port_base + 1)) \
  -Gpartitions="$partitions" -GconnectionsPerThread="$per_partition" -GconnectRate="$rate" -GidleSeconds="$idle" \
  -Gmqttload.engines="$engines" -GrendezvousTimeoutMs=600000 -Gmqttload.runId="$run_id" \
  -Jmqttload.resultsDir="$work/results" "${extra[@]}" >"$work/controller.out" 2>&1 &
controller=$!

# Held: the connects are over once no engine's socket count has moved for 5 s (a connect that timed out is not
# retried: an engine may hold fewer than it was to open; the report counts the failed ones).
connect_deadline=$((SECONDS + total / (rate * engines) + 300))
last= still=0
while :; do
  now=
  for pid in "${engine_pids[@]}"; do now+=" $(sockets "$pid")"; done
  if [ "$now" = "$last" ]; then still=$((still + 1)); else still=0; last=$now; fi
  grown=0 i=0
  for n in $now; do
    i=$((i + 1))
    before=$(awk -v e="engine-$i" '$2 == e {print $3}' "$work/memory.txt")
    [ $((n - before)) -ge $((per_engine / 2)) ] && grown=$((grown + 1))
  done
  [ "$grown" -eq "$engines" ] && [ "$still" -ge 5 ] && break
  if ! kill -0 "$controller" 2>/dev/null || [ "$SECONDS" -ge "$connect_deadline" ]; then
    echo "the engines did not settle with their connections open; see $work" >&2
    exit 1
  fi
  sleep 1
done
connected_at=$SECONDS
for pid in "${engine_pids[@]}" "${broker_pids[@]}"; do
  [ -d "/proc/$pid" ] || { echo "process $pid ended before its memory was read: give a longer idle time" >&2; exit 1; }
done
snapshot held >>"$work/memory.txt"

wait "$controller" || { echo "the controller failed; see $work/controller.out" >&2; exit 1; }
controller=
grep -E "verdict|connects|connection" "$work/controller.out" | head -20 || true

echo "== $engines engines x $partitions partitions x $per_partition connections = $total, $brokers brokers," \
  "$rate connects/s per engine, held ${idle} s; all connected $connected_at s after the engines were ready"
awk '
  $1 == "before" { s0[$2] = $3; r0[$2] = $4; h0[$2] = $5 }
  $1 == "held" { s1[$2] = $3; r1[$2] = $4; h1[$2] = $5; order[++n] = $2 }
  END {
    printf "%-10s %12s %14s %14s %12s %14s %14s %12s\n", "process", "connections", "RSS before MiB", "RSS held MiB",
      "RSS KiB/conn", "heap before MiB", "heap held MiB", "heap KiB/conn"
    for (i = 1; i <= n; i++) {
      # Connections held, from the sockets each process gained (an engine also counts its rendezvous client and
      # the RMI connections of the controller, a few in thousands).
      p = order[i]; c = s1[p] - s0[p]
      printf "%-10s %12d %14.1f %14.1f %12.2f", p, c, r0[p] / 1024, r1[p] / 1024, (r1[p] - r0[p]) / c
      if (p ~ /^engine/) printf " %14.1f %14.1f %12.2f", h0[p] / 1024, h1[p] / 1024, (h1[p] - h0[p]) / c
      printf "\n"
    }
  }' "$work/memory.txt"
echo "work directory: $work"
