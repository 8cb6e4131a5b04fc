#!/usr/bin/env bash
# The stress capacity search (test-plans/search/stress-max-rate-qos1.args) with a fresh JMeter JVM per step
# against the same search with --warm-engine (one local jmeter-server for every step), alternated round by round
# (fresh first in odd rounds, warm first in even ones), each search against a fresh Mosquitto: its answer, its wall
# time, the CPU of every JMeter JVM it started and of their JIT compiler threads (C1/C2 CompilerThread, read from
# /proc/PID/task/*/stat every 0.5 s: a JVM's last 0.5 s can be missed), the largest share of a core the
# compilers took in any 1-s interval, and what they took inside the steps' measured windows (each window from its
# engine summary's timeline). docs/performance.md has the results. Needs a build (the JMeter home of
# test-plans/target) and Debian's mosquitto.
# Mosquitto and the steps as in docs/scenarios/stress-max-rate.md's searches: a fresh broker per search
# (max_queued_messages 0, set_tcp_nodelay, max_connections -1), shorter steps than the presets', and the machine's
# saturation not judged (--max-saturated 100: broker and engine share the two cores by construction).
# Usage: bench/warm-search.sh [rounds] [step seconds] [confirm seconds] [warm-up seconds] [OUT]
#        (defaults 3 10 30 3 target/warm-search); more search options in SEARCH_ARGS.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
step=${2:-10}
confirm=${3:-30}
warmup=${4:-3}
out=$(mkdir -p "${5:-target/warm-search}" && cd "${5:-target/warm-search}" && pwd)
echo "cores: $(nproc); $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2); $(java -version 2>&1 | head -1); $(date -u '+%F %H:%M') UTC; load $(cut -d' ' -f1-3 /proc/loadavg)"

# Samples the JVMs whose command line names DIR, and the broker, until the sweep (PID) ends; prints one JSON line.
poll() {
  python3 - "$@" <<'EOF'
import json, os, sys, time
sweep, broker, mark, series = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], open(sys.argv[4], "w")
tick = os.sysconf("SC_CLK_TCK")
def cpu(stat):
    f = stat[stat.rindex(")") + 2:].split()
    return (int(f[11]) + int(f[12])) / tick
def read(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return None
jvm, jit, prev, peak, pids = {}, {}, None, 0.0, set()
while True:
    alive = os.path.exists(f"/proc/{sweep}")
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) == sweep:
            continue
        cmd = read(f"/proc/{pid}/cmdline")
        if not cmd or mark not in cmd or "java" not in cmd.split("\0")[0]:
            continue
        s = read(f"/proc/{pid}/stat")
        if s:
            jvm[pid] = cpu(s)
            pids.add(pid)
        c = 0.0
        try:
            tasks = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue
        for t in tasks:
            ts = read(f"/proc/{pid}/task/{t}/stat")
            if ts and "CompilerThre" in ts[ts.index("(") + 1:ts.rindex(")")]:
                c += cpu(ts)
        jit[pid] = max(c, jit.get(pid, 0.0))
    series.write(json.dumps({"t": time.time(), "jit": jit, "cpu": jvm}) + "\n")
    now, total = time.monotonic(), sum(jit.values())
    if prev and now - prev[0] >= 1.0:
        peak = max(peak, (total - prev[1]) / (now - prev[0]))
        prev = (now, total)
    elif not prev:
        prev = (now, total)
    if not alive:
        break
    time.sleep(0.5)
b = read(f"/proc/{broker}/stat")
print(json.dumps({"jvms": len(pids), "jvmCpu": round(sum(jvm.values()), 1), "jitCpu": round(sum(jit.values()), 1),
                  "jitPeakCores": round(peak, 2), "brokerCpu": round(cpu(b), 1) if b else None}))
EOF
}

search() {
  local mode=$1 round=$2 dir=$out/$1-$2 port warm=()
  [ "$mode" = warm ] && warm=(--warm-engine --engine-warm-up "$warmup")
  rm -rf "$dir" && mkdir -p "$dir"
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  printf 'listener %s 127.0.0.1\nallow_anonymous true\nmax_queued_messages 0\nset_tcp_nodelay true\nmax_connections -1\n' \
    "$port" >"$dir/mosquitto.conf"
  /usr/sbin/mosquitto -c "$dir/mosquitto.conf" >"$dir/mosquitto.out" 2>&1 &
  local broker=$! t0 t1 rc=0
  sleep 0.5
  t0=$(date +%s.%N)
  # shellcheck disable=SC2086
  test-plans/sweep/sweep.sh @test-plans/search/stress-max-rate-qos1.args --step-seconds "$step" \
    --confirm-seconds "$confirm" --warmup-seconds "$warmup" --max-saturated 100 --step-timeout 300 ${SEARCH_ARGS:-} \
    "${warm[@]+"${warm[@]}"}" -Jmqtt.port="$port" -Jmqttload.progressSeconds=0 --broker-pid "$broker" \
    --broker-name mosquitto --sweep-id "$mode-$round" --out "$dir/search" >"$dir/console.txt" 2>&1 &
  local sweep=$!
  poll "$sweep" "$broker" "$dir/search" "$dir/cpu-series.jsonl" >"$dir/cpu.json"
  wait "$sweep" || rc=$?
  t1=$(date +%s.%N)
  kill "$broker"
  wait "$broker" 2>/dev/null || true
  python3 - "$mode" "$round" "$rc" "$t0" "$t1" "$dir" <<'EOF'
import glob, json, sys
mode, rnd, rc, t0, t1, d = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4]), float(sys.argv[5]), sys.argv[6]
c = json.load(open(f"{d}/cpu.json"))
rows = [json.loads(l) for l in open(f"{d}/cpu-series.jsonl")]
def at(t, key):
    # Every JVM's last reading at or before t (an ended JVM keeps its last): the sum is monotone.
    best = {}
    for r in rows:
        if r["t"] > t:
            break
        best = r[key]
    return sum(best.values())
jit_w = cpu_w = secs = 0.0
for f in glob.glob(f"{d}/search/step-*/summary-*.json"):
    s = json.load(open(f))
    tl = s.get("timeline", {}).get("seconds", [])
    if tl and s.get("measuredSeconds"):
        end = tl[-1]["timeMillis"] / 1000
        start = end - s["measuredSeconds"]
        jit_w += at(end, "jit") - at(start, "jit")
        cpu_w += at(end, "cpu") - at(start, "cpu")
        secs += end - start
try:
    cap = json.load(open(f"{d}/search/capacity.json"))
    answer, steps = cap.get("sustained"), len(cap["steps"])
except OSError:
    answer, steps = None, 0
print(f"{mode:5} round {rnd}: exit {rc}, answer {answer} msg/s in {steps} steps, wall {t1 - t0:.0f} s, "
      f"{c['jvms']} JVMs CPU {c['jvmCpu']} s of which JIT compilers {c['jitCpu']} s (peak {c['jitPeakCores']:.2f}"
      f" of a core), broker CPU {c['brokerCpu']} s; in the {secs:.0f} s of measured windows JIT compilers"
      f" {jit_w / max(secs, 1e-9):.3f} of a core, JMeter JVMs {cpu_w / max(secs, 1e-9):.2f} cores")
EOF
}

for round in $(seq "$rounds"); do
  if [ $((round % 2)) -eq 1 ]; then order="fresh warm"; else order="warm fresh"; fi
  for mode in $order; do
    search "$mode" "$round" | tee -a "$out/results.txt"
  done
done
