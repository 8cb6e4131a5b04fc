#!/usr/bin/env bash
# Comparison: runs two or more sides of one plan in interleaved rounds (or reads kept results) and writes the figures
# compared with 95 % intervals and verdicts (compare.md, compare.json, compare.html, compare-junit.xml);
# docs/comparing.md explains it. The runner is io.mqttload.compare.Compare in the plugin jar, which runs each side
# through the sweep runner; sweep.sh finds the JMeter home and starts it.
#
# Usage: test-plans/compare/compare.sh --plan PLAN.jmx --side A: --side B:mqtt.port=1884 --out DIR [options]
# Its options: compare.sh --help; the sweep runner's (sweep.sh --help) go to every run. Environment: JAVA_HOME.
set -euo pipefail

MQTTLOAD_MAIN=io.mqttload.compare.Compare MQTTLOAD_COMMAND=compare exec "$(dirname "$0")/../sweep/sweep.sh" "$@"
