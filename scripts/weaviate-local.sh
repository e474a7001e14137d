#!/usr/bin/env bash
# Runs a Weaviate cluster for Oráculo on this machine: N nodes (1 for
# development, 3 for the replicated example of docs/weaviate.md), each with
# its own ports and data folder under DIR, bound to 127.0.0.1, anonymous
# access, no vectorizer module, telemetry and profiling off, and BM25 by
# WAND rather than BlockMax WAND (USE_INVERTED_SEARCHABLE=false: in v1.35.2
# BlockMax WAND drops recently written matches, weaviate#11780).
#
#   scripts/weaviate-local.sh start DIR [N]    # N = 1 (default) or more
#   scripts/weaviate-local.sh stop DIR
#   scripts/weaviate-local.sh status DIR
#
# Node i (0-based) answers REST on 8080+i and gRPC on 50051+i; its cluster
# ports are 7100+10*i .. 7104+10*i. Override the bases with WEAVIATE_HTTP,
# WEAVIATE_GRPC and WEAVIATE_CLUSTER. The server binary is $WEAVIATE_BIN,
# else weaviate-server in PATH, else $(go env GOPATH)/bin/weaviate-server
# (go install github.com/weaviate/weaviate/cmd/weaviate-server@v1.35.2).
# Data stays in DIR/nodeI/data across stops: a restarted node keeps it.
set -euo pipefail

usage() { sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
[ $# -ge 2 ] || usage
CMD=$1 DIR=$2 N=${3:-1}
HTTP=${WEAVIATE_HTTP:-8080} GRPC=${WEAVIATE_GRPC:-50051} CLUSTER=${WEAVIATE_CLUSTER:-7100}

binary() {
  if [ -n "${WEAVIATE_BIN:-}" ]; then echo "$WEAVIATE_BIN"; return; fi
  if command -v weaviate-server >/dev/null 2>&1; then command -v weaviate-server; return; fi
  local gp; gp=$(go env GOPATH 2>/dev/null || true)
  if [ -n "$gp" ] && [ -x "$gp/bin/weaviate-server" ]; then echo "$gp/bin/weaviate-server"; return; fi
  echo "weaviate-server not found: go install github.com/weaviate/weaviate/cmd/weaviate-server@v1.35.2" >&2
  exit 1
}

ready() { curl -fsS -o /dev/null "http://127.0.0.1:$1/v1/.well-known/ready" 2>/dev/null; }

start() {
  case $N in ''|*[!0-9]*) echo "node count $N is not a number" >&2; exit 2 ;; esac
  [ "$N" -ge 1 ] || { echo "node count must be at least 1" >&2; exit 2; }
  local bin; bin=$(binary)
  mkdir -p "$DIR"
  local join=""
  for ((i = 0; i < N; i++)); do join+="${join:+,}node$i:$((CLUSTER + 10 * i + 3))"; done
  for ((i = 0; i < N; i++)); do
    local d="$DIR/node$i" c=$((CLUSTER + 10 * i))
    mkdir -p "$d/data"
    if [ -f "$d/pid" ] && kill -0 "$(cat "$d/pid")" 2>/dev/null; then
      echo "node$i already running (pid $(cat "$d/pid"))"; continue
    fi
    (
      export PERSISTENCE_DATA_PATH="$d/data" AUTHENTICATION_ANONYMOUS_ACCESS_ENABLED=true \
        DEFAULT_VECTORIZER_MODULE=none ENABLE_MODULES="" DISABLE_TELEMETRY=true \
        GO_PROFILING_DISABLE=true PROMETHEUS_MONITORING_ENABLED=false \
        USE_INVERTED_SEARCHABLE=false \
        QUERY_MAXIMUM_RESULTS=10000 LOG_LEVEL=warning LOG_FORMAT=text \
        GRPC_PORT=$((GRPC + i)) CLUSTER_HOSTNAME=node$i CLUSTER_IN_LOCALHOST=true \
        CLUSTER_BIND_ADDR=127.0.0.1 CLUSTER_ADVERTISE_ADDR=127.0.0.1 \
        CLUSTER_GOSSIP_BIND_PORT=$c CLUSTER_DATA_BIND_PORT=$((c + 1)) \
        RAFT_PORT=$((c + 3)) RAFT_INTERNAL_RPC_PORT=$((c + 4)) \
        RAFT_JOIN="$join" RAFT_BOOTSTRAP_EXPECT="$N"
      [ "$i" -gt 0 ] && export CLUSTER_JOIN="127.0.0.1:$CLUSTER"
      cd "$d"
      nohup "$bin" --scheme http --host 127.0.0.1 --port $((HTTP + i)) \
        --read-timeout 600s --write-timeout 600s >>"$d/weaviate.log" 2>&1 &
      echo $! >"$d/pid"
    )
    # The first node must gossip before the others join, or they give up.
    if [ "$i" -eq 0 ] && [ "$N" -gt 1 ]; then sleep 2; fi
  done
  for ((i = 0; i < N; i++)); do
    local t=0
    until ready $((HTTP + i)); do
      t=$((t + 1))
      if [ $t -gt 120 ]; then
        echo "node$i not ready after 60 s; the end of $DIR/node$i/weaviate.log:" >&2
        tail -n 20 "$DIR/node$i/weaviate.log" >&2
        exit 1
      fi
      sleep 0.5
    done
    echo "node$i ready: http://127.0.0.1:$((HTTP + i)) (pid $(cat "$DIR/node$i/pid"))"
  done
}

stop() {
  local any=0
  for d in "$DIR"/node*; do
    [ -f "$d/pid" ] || continue
    any=1
    local pid; pid=$(cat "$d/pid")
    if kill -0 "$pid" 2>/dev/null; then
      kill "$pid"
      for _ in $(seq 60); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
      kill -0 "$pid" 2>/dev/null && kill -9 "$pid"
      echo "$(basename "$d") stopped"
    fi
    rm -f "$d/pid"
  done
  [ $any -eq 1 ] || echo "no nodes under $DIR"
}

status() {
  for d in "$DIR"/node*; do
    [ -f "$d/pid" ] && kill -0 "$(cat "$d/pid")" 2>/dev/null && echo "$(basename "$d") running (pid $(cat "$d/pid"))" || echo "$(basename "$d") stopped"
  done
}

case $CMD in
  start) start ;;
  stop) stop ;;
  status) status ;;
  *) usage ;;
esac
