#!/usr/bin/env bash
# The start-up benchmark of docs/performance.md ("Start-up"): a 1-second plan (quickstart-p2p.jmx with one pair, one
# publisher and its subscriber, one sample: a second of its schedule, 100 msg/s) run headless (java -jar
# ApacheJMeter.jar -n, as the quick start, the sweep and the engines start it) against Debian's Mosquitto, from the JMeter home the build assembled.
# Per run: wall time and the JMeter JVM's CPU (utime+stime from /proc) from the launch to the end of the first
# publish sample (its JTL timestamp + elapsed: 10 messages sent and acknowledged at QoS 1), and to the process's
# exit (/usr/bin/time). The JVM configurations alternate within every round, their order rotated round by round;
# medians and ratios against the first at the end. On a shared machine CPU seconds are the steadier figure: wall
# time waits for cores that others use.
# Usage: bench/startup.sh [rounds] [CONFIG ...]   (default 7 rounds; configurations: scan base cds cds-c1)
#   scan    base on a copy of the home whose plugin jar lacks JMeter-Skip-Class-Scanning (before issue 43: JMeter
#           loads each of its classes looking for functions)
#   base    the JVM arguments the sweep gives JMeter (-Xms1g -Xmx1g -XX:MaxMetaspaceSize=256m)
#   cds     base with the build's start-up archive (-XX:SharedArchiveFile=<home>/bin/mqtt-load.jsa)
#   c1      base with the client compiler only (-XX:TieredStopAtLevel=1, as the test-plans ITs' engines)
#   cds-c1  both
# Build first (./mvnw -B -ntp -DskipTests package). Needs Debian's mosquitto and /usr/bin/time.
set -euo pipefail
cd "$(dirname "$0")/.."
top=$(pwd)
rounds=${1:-7}
shift || true
configs=("$@")
[ ${#configs[@]} -gt 0 ] || configs=(scan base cds cds-c1)

config=$top/test-plans/target/config.json
[ -f "$config" ] || { echo "startup.sh: no $config: build first" >&2; exit 2; }
home=$(sed -n 's/.*"executionID":"configuration","jmeterDirectoryPath":"\([^"]*\)".*/\1/p' "$config")
jar=$(ls "$home"/bin/ApacheJMeter-*.jar)
archive=$home/bin/mqtt-load.jsa
[ -f "$archive" ] || { echo "startup.sh: no $archive: build without -Dstartup.archive.skip" >&2; exit 2; }
hz=$(getconf CLK_TCK)
echo "cores: $(nproc); $(grep -m1 'model name' /proc/cpuinfo); $(java -version 2>&1 | sed -n 3p); $(date -u '+%F %H:%M') UTC"
echo "load: $(cut -d' ' -f1-3 /proc/loadavg); archive $(du -m "$archive" | cut -f1) MB; $rounds rounds of ${configs[*]}"

work=$(mktemp -d)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
/usr/sbin/mosquitto -p "$port" >"$work/mosquitto.log" 2>&1 &
broker=$!
trap 'kill $broker 2>/dev/null || true; rm -rf "$work"' EXIT
sleep 0.5
scan_jar=$jar
if [[ " ${configs[*]} " == *" scan "* ]]; then
  cp -r "$home" "$work/scan-home"
  scan_jar=$work/scan-home/bin/${jar##*/}
  rm -f "$work"/scan-home/bin/mqtt-load.jsa*
  python3 -c '
import shutil, sys, zipfile
src = sys.argv[1]
shutil.move(src, src + ".orig")
with zipfile.ZipFile(src + ".orig") as a, zipfile.ZipFile(src, "w", zipfile.ZIP_DEFLATED) as b:
    for i in a.infolist():
        data = a.read(i)
        if i.filename == "META-INF/MANIFEST.MF":
            data = b"".join(l for l in data.splitlines(True) if not l.startswith(b"JMeter-Skip-Class-Scanning"))
        b.writestr(i, data)
' "$work"/scan-home/lib/ext/mqtt-load-jmeter-*.jar
  rm "$work"/scan-home/lib/ext/*.orig
fi

flags() {
  local f=(-Xms1g -Xmx1g -XX:MaxMetaspaceSize=256m)
  case $1 in
    base | scan) ;;
    cds) f+=("-XX:SharedArchiveFile=$archive") ;;
    c1) f+=(-XX:TieredStopAtLevel=1) ;;
    cds-c1) f+=("-XX:SharedArchiveFile=$archive" -XX:TieredStopAtLevel=1) ;;
    *) echo "startup.sh: unknown configuration '$1' (base, cds, c1, cds-c1)" >&2; exit 2 ;;
  esac
  echo "${f[@]}"
}

# One run: prints "first-wall first-cpu end-wall end-cpu" in seconds.
run() {
  local name=$1 dir=$work/$1-$2 t0 tp jp first_cpu= first_end= line
  mkdir -p "$dir"
  # shellcheck disable=SC2046
  t0=$(date +%s%N)
  local j=$jar
  [ "$name" != scan ] || j=$scan_jar
  /usr/bin/time -f "%e %U %S" -o "$dir/time" java $(flags "$name") -jar "$j" -n \
    -t "$top/test-plans/plans/quickstart-p2p.jmx" -l "$dir/r.jtl" -j "$dir/jmeter.log" \
    -Jjmeter.save.saveservice.output_format=csv -Jjmeter.save.saveservice.autoflush=true \
    -Jmqtt.host=127.0.0.1 -Jmqtt.port="$port" -Jpairs=1 -Jsamples=1 \
    -Jmqttload.warmupSeconds=0 -Jmqttload.resultsDir="$dir" -Jmqttload.runId="$name-$2" >"$dir/out" 2>&1 &
  tp=$!
  jp=
  while kill -0 $tp 2>/dev/null; do
    [ -n "$jp" ] || jp=$(pgrep -P $tp java || true)
    if [ -z "$first_cpu" ] && [ -n "$jp" ] && [ -f "$dir/r.jtl" ] && grep -q ',MQTT Publish,' "$dir/r.jtl"; then
      first_cpu=$(awk -v hz="$hz" '{print ($14 + $15) / hz}' "/proc/$jp/stat" 2>/dev/null || echo nan)
    fi
    sleep 0.02
  done
  wait $tp || { echo "startup.sh: $name run $2 failed; $(tail -3 "$dir/out")" >&2; exit 1; }
  line=$(grep -m1 ',MQTT Publish,' "$dir/r.jtl")
  first_end=$(echo "$line" | awk -F, -v t0="$t0" '{printf "%.3f", ($1 + $2 - t0 / 1e6) / 1000}')
  read -r e u s <"$dir/time"
  echo "$first_end ${first_cpu:-nan} $e $(echo "$u + $s" | bc)"
}

for ((r = 0; r < rounds; r++)); do
  n=${#configs[@]}
  for ((i = 0; i < n; i++)); do
    c=${configs[(i + r) % n]}
    res=$(run "$c" "$r")
    echo "$c $res" >>"$work/results"
    printf 'round %d %-7s first message %6.2f s wall %5.2f s CPU; end %6.2f s wall %5.2f s CPU\n' "$r" "$c" $res
  done
done

echo
echo "medians over $rounds rounds (ratio to ${configs[0]}):"
python3 - "$work/results" "${configs[@]}" <<'EOF'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
cols = ["first message wall", "first message CPU", "end wall", "end CPU"]
med = {c: [statistics.median(float(r[i + 1]) for r in rows if r[0] == c) for i in range(4)] for c in sys.argv[2:]}
base = med[sys.argv[2]]
print("| configuration | " + " | ".join(cols) + " |")
print("| --- | " + " | ".join("---" for _ in cols) + " |")
for c, m in med.items():
    print(f"| {c} | " + " | ".join(f"{v:.2f} s ({v / b:.2f})" for v, b in zip(m, base)) + " |")
EOF
