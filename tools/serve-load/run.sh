#!/usr/bin/env bash
# Load on `heatcap serve` (issue 18): wrk against heatcap's `options` and
# `parameters` of one TripleO deployment, warm, on loopback. A benchmark,
# not a test: prints p50/p99, requests/s, errors and the server's resident
# memory before and after. docs/performance.md records a run.
#
#   tools/serve-load/run.sh TREE [SECONDS] [ENV...]
#
# TREE is the deployment's directory (the 2016 tree is
# fixtures/tripleo-heat-templates-2016; a rendered 2018 tree anywhere);
# ENV are its environment files relative to TREE (default: the 2016
# deployment's). Needs a release build (cargo build --release) and wrk
# (Debian: apt-get install wrk).
set -euo pipefail
cd "$(dirname "$0")/../.."
TREE=$1; SECS=${2:-30}; shift 2 || shift $#
ENVS=("$@")
if [ ${#ENVS[@]} -eq 0 ]; then
  ENVS=(overcloud-resource-registry-puppet.yaml environments/network-isolation.yaml
        environments/storage-environment.yaml environments/puppet-pacemaker.yaml)
fi
Q=""
for e in "${ENVS[@]}"; do Q="$Q&environment=$e"; done
LOG=$(mktemp)
target/release/heatcap serve --listen 127.0.0.1:0 --root "$TREE" --max-nested-depth 7 \
  --request-timeout 600 2> "$LOG" &
PID=$!
trap 'kill $PID 2>/dev/null; wait $PID 2>/dev/null; rm -f "$LOG"' EXIT
for _ in $(seq 100); do grep -q 'listening on' "$LOG" && break; sleep 0.1; done
ADDR=$(sed -n 's|.*listening on http://\([^ ]*\).*|\1|p' "$LOG" | head -1)
rss() { awk '/VmRSS/ {print $2 " kB"}' /proc/$PID/status; }
echo "RSS at start: $(rss)"
for what in options parameters; do
  case $what in
    options) URL="http://$ADDR/heatcap/v1/options?x=1$Q" ;;
    parameters) URL="http://$ADDR/heatcap/v1/parameters?template=overcloud.yaml$Q" ;;
  esac
  S=$(date +%s.%N); curl -s -o /dev/null -w "$what first (cold) request: %{http_code} %{time_total}s\n" "$URL"
  curl -s -o /dev/null -w "$what second (warm) request: %{http_code} %{time_total}s\n" "$URL"
  echo "RSS before $what load: $(rss)"
  wrk -t2 -c4 -d"${SECS}s" --latency "$URL" | grep -E 'Latency|50%|99%|requests in|Requests/sec|Non-2xx|Socket errors'
  echo "RSS after $what load: $(rss)"
done
echo "errors in the log: $(grep -cE ' (4|5)[0-9][0-9] ' "$LOG" || true)"
