# Sourced by the GUI screenshot scripts: an Xvfb display and the real JMeter GUI on a plan, sized and placed the
# same way every time (1366x768, a common laptop screen) so that the scripts can select tree nodes by position. Both
# end with the calling script.
# Needs Debian's xvfb and xdotool.

# Starts Xvfb on a free display number and waits until it answers.
gui_start_display() {
  display=:$((90 + RANDOM % 9))
  Xvfb "$display" -screen 0 1366x768x24 -nolisten tcp >/dev/null 2>&1 &
  xvfb_pid=$!
  export DISPLAY=$display
  for _ in $(seq 100); do
    xdotool getdisplaygeometry >/dev/null 2>&1 && break
    sleep 0.1
  done
}

# gui_open_plan <JMeter home> <plan> <log file> [JMeter arguments...]: opens the plan, waits for its window, sizes it.
gui_open_plan() {
  local home=$1 plan=$2 log=$3
  shift 3
  java -Duser.language=en -Duser.region=US -jar "$home"/bin/ApacheJMeter-*.jar -t "$plan" -j "$log" "$@" \
    >/dev/null 2>&1 &
  jmeter_pid=$!
  window=$(timeout 120 xdotool search --sync --name "$(basename "$plan" .jmx)" | head -1)
  # The window appears before the plan is laid out; the pauses let Swing paint.
  sleep 5
  xdotool windowsize "$window" 1366 768
  xdotool windowmove "$window" 0 0
  sleep 2
}

# Ends the JMeter the last gui_open_plan started; the display stays for the next one.
gui_close_plan() {
  if [ -n "${jmeter_pid:-}" ]; then
    kill "$jmeter_pid" 2>/dev/null || true
    wait "$jmeter_pid" 2>/dev/null || true
  fi
  jmeter_pid=
}

gui_stop() {
  if [ -n "${jmeter_pid:-}" ]; then kill "$jmeter_pid" 2>/dev/null || true; fi
  if [ -n "${xvfb_pid:-}" ]; then kill "$xvfb_pid" 2>/dev/null || true; fi
}
