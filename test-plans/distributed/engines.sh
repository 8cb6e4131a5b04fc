#!/usr/bin/env bash
# JMeter distributed mode on one machine: K jmeter-server engines on 127.0.0.1 and a controller that
# drives them over RMI, from the stock JMeter home that test-plans/pom.xml assembles. docs/distributed.md
# explains the ports, the keystore and the properties.
#
# Usage: test-plans/distributed/engines.sh [--home DIR] [--dir DIR] COMMAND
#   keystore [--force] [--validity DAYS]          DIR/rmi_keystore.jks, alias rmi (default 7 days)
#   start [--no-ssl] [--port-base B] [--timeout S] [--prometheus-port-base P] [--property NAME=VALUE ...] K
#                                                  engines 1..K: RMI registry on B+n, engine object on
#                                                  B+100+n (B defaults to 24000); the controller's
#                                                  callbacks on B+201, B+202 without SSL, on random
#                                                  ports with SSL; waits up to S seconds (60); each
#                                                  --property is a -J of every engine (a GUI controller's
#                                                  Remote Start sends no -G properties); with
#                                                  --prometheus-port-base, engine n serves /metrics on
#                                                  127.0.0.1:P+n (docs/reporting.md)
#   run [--keep] PLAN [jmeter args...]             the controller; without --keep the engines exit after
#                                                  the run (-X), so every run gets fresh engine JVMs
#   stop                                           kills the engines this directory's start recorded
#
#   --home  JMeter home (default: the one recorded in test-plans/target/config.json by the build)
#   --dir   keystore, PIDs, logs and results (default: test-plans/target/distributed)
# Environment: RMI_KEYSTORE_PASSWORD (changeit), HEAP (JMeter's -Xms1g -Xmx1g -XX:MaxMetaspaceSize=256m),
# JVM_ARGS (added to every JVM), JAVA_HOME.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
dir=$top/test-plans/target/distributed
home=${JMETER_HOME:-}
password=${RMI_KEYSTORE_PASSWORD:-changeit}
heap=${HEAP:--Xms1g -Xmx1g -XX:MaxMetaspaceSize=256m}
java=${JAVA_HOME:+$JAVA_HOME/bin/}java
keytool=${JAVA_HOME:+$JAVA_HOME/bin/}keytool
host=127.0.0.1
ready_line="Bound to RMI registry on port"

die() {
  echo "engines.sh: $*" >&2
  exit 1
}

usage() {
  sed -n '/^# Usage:/,/^# JVM_ARGS/s/^# \{0,1\}//p' "$0" >&2
  exit 2
}

# jmeter-maven-plugin puts the home in a fresh UUID directory on every configure and records it here.
find_home() {
  if [ -n "$home" ]; then return; fi
  local config=$top/test-plans/target/config.json
  [ -f "$config" ] || die "no $config: build first (./mvnw -B -ntp -DskipTests package) or pass --home"
  home=$(sed -n 's/.*"executionID":"configuration","jmeterDirectoryPath":"\([^"]*\)".*/\1/p' "$config")
  [ -n "$home" ] || die "no JMeter home for execution 'configuration' in $config"
}

jmeter_jar() {
  find_home
  local jar
  for jar in "$home"/bin/ApacheJMeter-*.jar; do
    [ -f "$jar" ] && { echo "$jar"; return; }
  done
  die "no bin/ApacheJMeter-*.jar under $home"
}

# The build's start-up archive next to JMeter's jar (io.mqttload.sweep.StartupArchive), only for the JVM build that
# made it: the JVM would fall back quietly on another one, so say it instead. Sets archive.
archive=
archive_args() {
  local jsa=${1%/*}/mqtt-load.jsa made
  if [ ! -f "$jsa" ] || [ ! -f "$jsa.jdk" ]; then
    echo "engines.sh: JMeter starts without the start-up archive: no $jsa (the build makes it)" >&2
    return
  fi
  made=$(cat "$jsa.jdk")
  if "$java" -version 2>&1 | grep -qF "(build $made,"; then
    archive=-XX:SharedArchiveFile=$jsa
  else
    echo "engines.sh: JMeter starts without the start-up archive $jsa: made by JVM $made, this is" \
      "$("$java" -version 2>&1 | sed -n 's/.*(build \([^,]*\),.*/\1/p' | tail -1)" >&2
  fi
}

# Only a process whose command line names this directory's engine log is ours: guards against PID reuse,
# and an engine that died as the script's child (a zombie until the script exits) no longer matches.
is_our_engine() {
  local pid=$1 n=$2
  ps -p "$pid" -o args= 2>/dev/null | grep -qF -- "$dir/engine-$n.log"
}

# JMeter does not give up on a taken registry port: it binds into whatever registry answers there.
port_in_use() {
  timeout 2 bash -c "exec 3<>/dev/tcp/$host/$1" 2>/dev/null
}

live_engines() {
  local n pid rest count=0
  [ -f "$dir/engines" ] || { echo 0; return; }
  while read -r n pid rest; do
    if is_our_engine "$pid" "$n"; then count=$((count + 1)); fi
  done <"$dir/engines"
  echo "$count"
}

keystore() {
  local force=false validity=7
  while [ $# -gt 0 ]; do
    case $1 in
      --force) force=true ;;
      --validity) validity=${2:?--validity needs days}; shift ;;
      *) usage ;;
    esac
    shift
  done
  local file=$dir/rmi_keystore.jks
  if [ -f "$file" ] && ! $force; then
    echo "$file exists (--force regenerates it)"
    return
  fi
  mkdir -p "$dir"
  rm -f "$file"
  # As JMeter's bin/create-rmi-keystore.sh, plus -dname so that it does not prompt. On Java 9+ the store is
  # PKCS12 inside a .jks name; JMeter opens it with type JKS, which reads PKCS12 too (keystore.type.compat).
  "$keytool" -genkeypair -keyalg RSA -keysize 2048 -alias rmi -validity "$validity" \
    -dname "CN=JMeter RMI, OU=mqtt-load" -keystore "$file" -storepass "$password"
  echo "wrote $file (alias rmi, valid $validity days): give every engine and the controller this file"
}

write_rmi_properties() {
  local ssl=$1 client_port=$2 file=$dir/rmi.properties
  # Passed with -q to engines and controller, which keeps the password off the command lines.
  {
    echo "# Written by engines.sh start; read by the engines and the controller."
    echo "client.rmi.localport=$client_port"
    if $ssl; then
      echo "server.rmi.ssl.keystore.file=$dir/rmi_keystore.jks"
      echo "server.rmi.ssl.keystore.password=$password"
      echo "server.rmi.ssl.keystore.alias=rmi"
      echo "server.rmi.ssl.truststore.file=$dir/rmi_keystore.jks"
      echo "server.rmi.ssl.truststore.password=$password"
    else
      echo "server.rmi.ssl.disable=true"
    fi
  } >"$file"
  chmod 600 "$file"
}

start() {
  local ssl=true base=24000 timeout=60 client_port properties=() prometheus_base=
  while [ $# -gt 1 ]; do
    case $1 in
      --no-ssl) ssl=false ;;
      --property)
        [[ ${2:-} =~ ^[A-Za-z0-9_.-]+=.*$ ]] || die "--property needs NAME=VALUE, got '${2:-}'"
        case ${2%%=*} in
          mqttload.engineId | mqttload.engineNumber) die "--property ${2%%=*}: each engine gets its own from start" ;;
          mqttload.prometheus.port) die "--property ${2%%=*}: engines on one host need a port each: --prometheus-port-base" ;;
        esac
        properties+=("-J$2"); shift ;;
      --port-base) base=${2:?--port-base needs a port}; shift ;;
      --timeout) timeout=${2:?--timeout needs seconds}; shift ;;
      --prometheus-port-base)
        [[ ${2:-} =~ ^[1-9][0-9]{0,4}$ ]] || die "--prometheus-port-base needs a port, got '${2:-}'"
        prometheus_base=$2; shift ;;
      *) usage ;;
    esac
    shift
  done
  local count=${1:-}
  [[ $count =~ ^[1-9][0-9]?$ ]] || die "start needs the number of engines, 1 to 99"
  [ "$(live_engines)" -eq 0 ] || die "engines from $dir are still running: stop them first"
  local jar n port
  jar=$(jmeter_jar)
  archive_args "$jar"
  for n in $(seq "$count"); do
    for port in $((base + n)) $((base + 100 + n)); do
      if port_in_use "$port"; then die "port $port is in use: choose another --port-base"; fi
    done
    if [ -n "$prometheus_base" ] && port_in_use $((prometheus_base + n)); then
      die "port $((prometheus_base + n)) is in use: choose another --prometheus-port-base"
    fi
  done
  mkdir -p "$dir"
  if $ssl && [ ! -f "$dir/rmi_keystore.jks" ]; then keystore; fi
  # JMeter 5.6.3 makes a new SSL server socket factory per exported listener and RMI shares a fixed port
  # only between equal factories, so with SSL a fixed client.rmi.localport fails as soon as the controller
  # exports a second listener (two engines, or a summariser next to -l): "Could not bind ... port B+202".
  if $ssl; then client_port=0; else client_port=$((base + 200)); fi
  write_rmi_properties "$ssl" "$client_port"
  : >"$dir/engines"
  for n in $(seq "$count"); do
    local registry=$((base + n)) local_port=$((base + 100 + n)) metrics=()
    [ -z "$prometheus_base" ] || metrics=("-Jmqttload.prometheus.port=$((prometheus_base + n))")
    # A stale log would show the readiness line of an earlier start.
    rm -f "$dir/engine-$n.log"
    # nohup: the engines outlive the shell that started them; exec keeps $! the JVM's PID.
    # shellcheck disable=SC2086
    (cd "$dir" && exec nohup "$java" $heap $archive ${JVM_ARGS:-} -Djava.rmi.server.hostname=$host -jar "$jar" -s \
      -j "$dir/engine-$n.log" -q "$dir/rmi.properties" \
      -Jserver_port=$registry -Jserver.rmi.localport=$local_port \
      -Jmqttload.engineId=engine-$n -Jmqttload.engineNumber=$n ${metrics[@]+"${metrics[@]}"} \
      ${properties[@]+"${properties[@]}"} \
      </dev/null >"$dir/engine-$n.out" 2>&1) &
    echo "$n $! $registry $local_port" >>"$dir/engines"
  done
  local deadline=$((SECONDS + timeout)) pid registry rest
  while read -r n pid registry rest; do
    until grep -qF "$ready_line $registry" "$dir/engine-$n.log" 2>/dev/null; do
      if ! is_our_engine "$pid" "$n"; then
        tail -n 20 "$dir/engine-$n.out" "$dir/engine-$n.log" >&2 || true
        stop >/dev/null
        die "engine $n exited before it was ready"
      fi
      if [ "$SECONDS" -ge "$deadline" ]; then
        tail -n 20 "$dir/engine-$n.log" >&2 || true
        stop >/dev/null
        die "engine $n not ready within $timeout s"
      fi
      sleep 0.2
    done
    echo "engine $n ready: pid $pid, $host:$registry ($(if $ssl; then echo SSL; else echo no SSL; fi))"
  done <"$dir/engines"
}

# Engines told to exit (-X) leave on their own; this bounds the wait so that ports are free for the next start.
await_engines_exit() {
  local deadline=$((SECONDS + 30)) n pid rest
  while read -r n pid rest; do
    while is_our_engine "$pid" "$n"; do
      [ "$SECONDS" -lt "$deadline" ] || { echo "engine $n (pid $pid) still running: use stop" >&2; return 1; }
      sleep 0.2
    done
  done <"$dir/engines"
  rm -f "$dir/engines"
}

run() {
  local keep=false
  if [ "${1:-}" = --keep ]; then keep=true; shift; fi
  local plan=${1:-}
  [ -n "$plan" ] || usage
  shift
  [ -f "$plan" ] || die "no plan $plan"
  [ "$(live_engines)" -gt 0 ] || die "no engines running from $dir: use start first"
  local jar hosts
  jar=$(jmeter_jar)
  archive_args "$jar"
  hosts=$(awk -v host=$host '{ printf "%s%s:%s", (NR > 1 ? "," : ""), host, $3 }' "$dir/engines")
  local args=(-n -t "$plan" -R "$hosts" -j "$dir/controller.log" -q "$dir/rmi.properties")
  if ! $keep; then args+=(-X); fi
  local arg has_results=false
  for arg in "$@"; do
    case $arg in -l | --logfile) has_results=true ;; esac
  done
  if ! $has_results; then
    rm -f "$dir/controller.jtl"
    args+=(-l "$dir/controller.jtl")
  fi
  local rc=0
  # shellcheck disable=SC2086
  # -i: a log configuration without the GUI's plugin package, whose deprecation log4j prints at every start.
  "$java" $heap $archive ${JVM_ARGS:-} -Djava.rmi.server.hostname=$host -jar "$jar" -i "$top/test-plans/src/main/resources/headless-log4j2.xml" \
    "${args[@]}" "$@" || rc=$?
  if ! $keep && ! await_engines_exit && [ "$rc" -eq 0 ]; then rc=1; fi
  return "$rc"
}

stop() {
  [ -f "$dir/engines" ] || { echo "no engines recorded in $dir"; return 0; }
  local n pid rest
  while read -r n pid rest; do
    if is_our_engine "$pid" "$n"; then kill "$pid"; fi
  done <"$dir/engines"
  local deadline=$((SECONDS + 15))
  while read -r n pid rest; do
    while is_our_engine "$pid" "$n"; do
      if [ "$SECONDS" -ge "$deadline" ]; then
        kill -9 "$pid" 2>/dev/null || true
        break
      fi
      sleep 0.2
    done
    echo "engine $n (pid $pid) stopped"
  done <"$dir/engines"
  rm -f "$dir/engines"
}

while [ $# -gt 0 ]; do
  case $1 in
    --home) home=${2:?--home needs a directory}; shift 2 ;;
    --dir) dir=${2:?--dir needs a directory}; shift 2 ;;
    *) break ;;
  esac
done
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
command=${1:-}
[ $# -gt 0 ] && shift
case $command in
  keystore) keystore "$@" ;;
  start) start "$@" ;;
  run) run "$@" ;;
  stop) stop ;;
  *) usage ;;
esac
