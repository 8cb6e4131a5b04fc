#!/usr/bin/env bash
# The JoramMQ multi-publisher scenario at scale on one machine: K jmeter-server engines (engines.sh) drive
# PARTITIONS partitions each of PUBLISHERS devices against a distributed Mosquitto broker of NODES nodes (node 1
# the root, the others bridged upward to it), clients spread over the nodes round robin. Prints the merged
# report's node table and each broker node's CPU seconds and peak memory over the run (from /proc).
# Needs Debian's mosquitto and a build (./mvnw -B -ntp -DskipTests verify). Every process it starts ends by
# itself or is stopped by PID when it ends.
#
# Usage: bench/cluster-scale.sh [engines] [partitions per engine] [publishers per partition] [nodes] [seconds]
#        defaults 3 4 4000 3 60: 48,000 publishers at 0.1 msg/s, QoS 0, as the seed's largest multi-publisher run.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
engines=${1:-3}
partitions=${2:-4}
publishers=${3:-4000}
nodes=${4:-3}
seconds=${5:-60}
port_base=${PORT_BASE:-26880}
work=$(mktemp -d /tmp/cluster-scale.XXXXXX)
ulimit -n "$(ulimit -Hn)"

pids=()
cleanup() {
  "$top/test-plans/distributed/engines.sh" --dir "$work/engines" stop >/dev/null 2>&1 || true
  for pid in "${pids[@]}"; do
    kill "$pid" 2>/dev/null || true
  done
}
trap cleanup EXIT

node_list=
for ((n = 1; n <= nodes; n++)); do
  port=$((port_base + n))
  conf=$work/node$n.conf
  {
    echo "per_listener_settings false"
    echo "allow_anonymous true"
    echo "persistence false"
    echo "max_connections -1"
    echo "max_queued_messages 0"
    echo "set_tcp_nodelay true"
    echo "log_dest stderr"
    echo "log_type error"
    echo "listener $port 127.0.0.1"
    if ((n > 1)); then
      # A child node: everything its clients publish goes up to the root, everything the root has comes down.
      echo "connection node$n-up"
      echo "address 127.0.0.1:$((port_base + 1))"
      echo "remote_clientid bridge-node$n"
      echo "bridge_protocol_version mqttv311"
      echo "try_private true"
      echo "cleansession true"
      echo "notifications false"
      echo "topic # both 0"
    fi
  } >"$conf"
  /usr/sbin/mosquitto -c "$conf" 2>"$work/node$n.log" &
  pids+=($!)
  node_list+="${node_list:+,}node$n=127.0.0.1:$port"
done
sleep 2

"$top/test-plans/distributed/engines.sh" --dir "$work/engines" start --no-ssl "$engines"

# CPU ticks and peak resident memory of each broker node, sampled every second while the run goes.
sample() {
  while true; do
    for ((n = 1; n <= nodes; n++)); do
      pid=${pids[$((n - 1))]}
      [ -r "/proc/$pid/stat" ] || continue
      read -r -a stat <"/proc/$pid/stat"
      rss=$(awk '/VmRSS/{print $2}' "/proc/$pid/status")
      echo "$n $((stat[13] + stat[14])) $rss $(ls "/proc/$pid/fd" | wc -l)"
    done
    sleep 1
  done
}
sample >"$work/broker-samples.txt" &
sampler=$!
pids+=($sampler)

start=$(date +%s)
"$top/test-plans/distributed/engines.sh" --dir "$work/engines" run "$top/test-plans/plans/jorammq-multi-publisher.jmx" \
  -G"$top/test-plans/presets/jorammq-multi-publisher-qos0-0.1.properties" \
  -Gmqtt.nodes="$node_list" -Gmqtt.nodeAssignment=ROUND_ROBIN -Gmqtt.version=MQTT_3_1_1 \
  -Gpartitions="$partitions" -GpublishersPerPartition="$publishers" -GdurationSeconds="$seconds" \
  -Gmqttload.engines="$engines" -GrendezvousTimeoutMs=300000 -Gmqttload.runId="scale-$(date +%H%M%S)" \
  -Jmqttload.resultsDir="$work/results" | tee "$work/controller.out"
end=$(date +%s)
kill "$sampler" 2>/dev/null || true

echo "== run: ${engines} engines x ${partitions} partitions x ${publishers} publishers, ${nodes} broker nodes, $((end - start)) s"
echo "== broker nodes (from /proc, whole run)"
ticks=$(getconf CLK_TCK)
for ((n = 1; n <= nodes; n++)); do
  awk -v n="$n" -v t="$ticks" '$1 == n { if (!first) first = $2; last = $2; if ($3 > rss) rss = $3; if ($4 > fd) fd = $4 }
    END { printf "node%d: CPU %.1f s, peak RSS %.1f MiB, peak open fds %d\n", n, (last - first) / t, rss / 1024, fd }' \
    "$work/broker-samples.txt"
done
echo "work directory: $work"
