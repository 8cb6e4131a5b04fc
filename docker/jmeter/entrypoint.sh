#!/usr/bin/env bash
# The JMeter image's entry point: one image, two roles, chosen by JMETER_ROLE (docs/distributed.md, "On Kubernetes").
#
#   JMETER_ROLE=engine      jmeter-server with fixed RMI ports and an advertised host name, so a controller can reach it
#                           through a firewall or a Kubernetes Service
#   JMETER_ROLE=controller  jmeter -n -t PLAN -R ENGINE_HOSTS with a fixed callback port, then holds its results for
#                           RESULTS_HOLD_SECONDS so they can be copied out of the container
#   (no role)               the arguments are run as a command (docker-compose.yml's `jmeter-server ...`, `bash`, ...)
#
# Arguments after the role's own are passed on to JMeter (-Gname=value, -Jname=value, ...).
set -euo pipefail

fail() {
  echo "entrypoint: $*" >&2
  exit 64
}

is_port() {
  [[ "$1" =~ ^[0-9]+$ ]] && (( 10#$1 >= 1 && 10#$1 <= 65535 ))
}

require_port() {
  is_port "$2" || fail "$1 must be a TCP port (1-65535), not '$2'"
}

# Keystore passwords go into a properties file passed with -q, so they stay off the command line (ps, /proc).
rmi_options() {
  if [ "${RMI_SSL_DISABLE:-false}" = "true" ]; then
    rmi_args+=(-Jserver.rmi.ssl.disable=true)
  elif [ "${RMI_SSL_DISABLE:-false}" = "false" ]; then
    local keystore="${RMI_KEYSTORE_FILE:-}"
    [ -n "$keystore" ] || fail "RMI over SSL needs RMI_KEYSTORE_FILE (or RMI_SSL_DISABLE=true on a private network)"
    [ -r "$keystore" ] || fail "RMI_KEYSTORE_FILE '$keystore' cannot be read"
    local properties
    properties="$(mktemp "${TMPDIR:-/tmp}/rmi.XXXXXX.properties")"
    {
      echo "server.rmi.ssl.keystore.file=$keystore"
      echo "server.rmi.ssl.keystore.password=${RMI_KEYSTORE_PASSWORD:-changeit}"
      echo "server.rmi.ssl.keystore.alias=${RMI_KEYSTORE_ALIAS:-rmi}"
      echo "server.rmi.ssl.truststore.file=$keystore"
      echo "server.rmi.ssl.truststore.password=${RMI_KEYSTORE_PASSWORD:-changeit}"
    } > "$properties"
    rmi_args+=(-q "$properties")
  else
    fail "RMI_SSL_DISABLE must be true or false, not '${RMI_SSL_DISABLE}'"
  fi
}

# A StatefulSet pod is named <set>-<ordinal>: engine n = ordinal + 1, as engines.sh and docker-compose.yml count from 1.
engine_identity() {
  local number="${ENGINE_NUMBER:-}"
  if [ -z "$number" ] && [ -n "${STATEFULSET_POD_NAME:-}" ]; then
    local ordinal="${STATEFULSET_POD_NAME##*-}"
    [[ "$ordinal" =~ ^[0-9]+$ ]] || fail "STATEFULSET_POD_NAME '$STATEFULSET_POD_NAME' does not end in -<ordinal>"
    number=$(( 10#$ordinal + 1 ))
  fi
  if [ -n "$number" ]; then
    [[ "$number" =~ ^[0-9]+$ ]] && (( 10#$number <= 4095 )) || fail "the engine number must be 0-4095, not '$number'"
    engine_args+=(-Jmqttload.engineNumber=$(( 10#$number )) -Jmqttload.engineId="${ENGINE_ID:-engine-$(( 10#$number ))}")
  elif [ -n "${ENGINE_ID:-}" ]; then
    fail "ENGINE_ID without ENGINE_NUMBER: two engines with one number produce the same stream ids"
  fi
}

run_engine() {
  local server_port="${SERVER_PORT:-1099}" rmi_local_port="${RMI_LOCAL_PORT:-4000}"
  require_port SERVER_PORT "$server_port"
  require_port RMI_LOCAL_PORT "$rmi_local_port"
  local hostname="${RMI_HOSTNAME:-${HOSTNAME:-$(hostname)}}"
  local rmi_args=() engine_args=()
  rmi_options
  engine_identity
  # Every MQTT connection holds a descriptor; runtimes that leave the soft limit at 1024 (containerd 2.0) would stop
  # an engine there. Raising it to the hard limit needs no privilege.
  ulimit -Sn "$(ulimit -Hn)" 2>/dev/null || echo "entrypoint: the open files limit stays at $(ulimit -Sn)" >&2
  echo "entrypoint: engine with at most $(ulimit -Sn) open files (sockets included)"
  [ -z "${RUN_ID:-}" ] || engine_args+=(-Jmqttload.runId="$RUN_ID")
  [ -z "${ENGINES:-}" ] || engine_args+=(-Jmqttload.engines="$ENGINES")
  if [ -n "${PROMETHEUS_PORT:-}" ]; then
    require_port PROMETHEUS_PORT "$PROMETHEUS_PORT"
    # In a container /metrics must listen on every interface; the engine's default is loopback only.
    engine_args+=(-Jmqttload.prometheus.port="$PROMETHEUS_PORT" -Jmqttload.prometheus.host=0.0.0.0)
  fi
  [ -z "${PROMETHEUS_PUSHGATEWAY:-}" ] || engine_args+=(-Jmqttload.prometheus.pushgateway="$PROMETHEUS_PUSHGATEWAY")
  exec jmeter-server -Dserver_port="$server_port" -Jserver.rmi.localport="$rmi_local_port" \
    -Djava.rmi.server.hostname="$hostname" "${rmi_args[@]}" "${engine_args[@]}" "$@"
}

run_controller() {
  local plan="${PLAN:-}" engine_hosts="${ENGINE_HOSTS:-}" client_port="${CLIENT_RMI_LOCAL_PORT:-4445}"
  [ -n "$plan" ] || fail "the controller needs PLAN (a .jmx path; a bare name is looked up in /plans)"
  [ -n "$engine_hosts" ] || fail "the controller needs ENGINE_HOSTS (host:port,host:port,...)"
  # 0 (a random port) is what RMI over SSL needs in JMeter 5.6.3 (docs/distributed.md, "Ports").
  [ "$client_port" = "0" ] || require_port CLIENT_RMI_LOCAL_PORT "$client_port"
  [[ "$plan" == */* ]] || plan="/plans/$plan"
  local engine_count engines_listed
  IFS=',' read -r -a engines_listed <<< "$engine_hosts"
  engine_count="${ENGINES:-${#engines_listed[@]}}"
  local run_id="${RUN_ID:-run-$(date -u +%Y%m%d-%H%M%S)}"
  local hold_seconds="${RESULTS_HOLD_SECONDS:-0}"
  [[ "$hold_seconds" =~ ^[0-9]+$ ]] || fail "RESULTS_HOLD_SECONDS must be a whole number of seconds, not '$hold_seconds'"
  local hostname="${RMI_HOSTNAME:-${HOSTNAME:-$(hostname)}}"
  local rmi_args=()
  rmi_options
  # Engines that are still starting refuse the first calls: JMeter retries each one (bounded), then fails the run.
  local command=(jmeter -n -t "$plan" -R "$engine_hosts"
    -Djava.rmi.server.hostname="$hostname" -Jclient.rmi.localport="$client_port" "${rmi_args[@]}"
    -Jclient.tries="${ENGINE_CONNECT_TRIES:-30}" -Jclient.retries_delay=2000
    -Gmqttload.runId="$run_id" -Gmqttload.engines="$engine_count"
    -l "${RESULTS_DIR:-/results}/$run_id.jtl")
  # -X ends the engines after the run; a restarted engine is a fresh JVM with nothing left of the last run.
  [ "${STOP_ENGINES_AFTER_RUN:-true}" != "true" ] || command+=(-X)
  command+=("$@")
  echo "entrypoint: run $run_id on $engine_count engines: ${command[*]}"
  if (( 10#$hold_seconds == 0 )); then
    exec "${command[@]}"
  fi
  local jmeter_pid status=0
  "${command[@]}" &
  jmeter_pid=$!
  trap 'kill -TERM "$jmeter_pid" 2>/dev/null || true' TERM INT
  wait "$jmeter_pid" || status=$?
  # A trapped signal ends the first wait early; the second collects JMeter's own exit code.
  if kill -0 "$jmeter_pid" 2>/dev/null; then
    wait "$jmeter_pid" || status=$?
  fi
  trap - TERM INT
  echo "entrypoint: JMeter exited with $status; results in ${RESULTS_DIR:-/results} for ${hold_seconds}s (kubectl cp)"
  local hold_pid
  sleep "$hold_seconds" &
  hold_pid=$!
  trap 'kill "$hold_pid" 2>/dev/null || true' TERM INT
  wait "$hold_pid" || true
  exit "$status"
}

case "${JMETER_ROLE:-}" in
  engine) run_engine "$@" ;;
  controller) run_controller "$@" ;;
  "")
    [ "$#" -gt 0 ] || fail "set JMETER_ROLE to engine or controller, or give a command to run"
    exec "$@"
    ;;
  *) fail "JMETER_ROLE must be engine or controller, not '$JMETER_ROLE'" ;;
esac
