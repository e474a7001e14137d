#!/usr/bin/env bash
# Measures BENCHMARKS.md's "SQLite and Weaviate side by side" rows for one
# oraculo binary on synthetic vaults of the given sizes (chunks):
#   go build -o /tmp/m/oraculo ./cmd/oraculo
#   go run ./internal/synth/synthvault /tmp/m/v10000 10000       # one vault per size, named vN
#   scripts/bench-backends.sh /tmp/m/oraculo 10000 100000
# For each size and backend: a fresh ingest (wall time, peak RSS of the
# oraculo process, and for Weaviate the server's RSS after it), an
# unchanged re-ingest, and `oraculo bench` (the same 200 questions made
# from the index with seed 1, k 10, the default paths) as JSON in
# DIR/bench-BACKEND-N.json. Weaviate runs as one node started afresh per
# size by scripts/weaviate-local.sh on 127.0.0.1:18080 (WEAVIATE_HTTP).
set -euo pipefail
BIN=$1; shift
DIR=$(dirname "$BIN")
HERE=$(cd "$(dirname "$0")" && pwd)
export WEAVIATE_HTTP=${WEAVIATE_HTTP:-18080} WEAVIATE_GRPC=${WEAVIATE_GRPC:-18551} WEAVIATE_CLUSTER=${WEAVIATE_CLUSTER:-17100}
URL=http://127.0.0.1:$WEAVIATE_HTTP
t() { /usr/bin/time -f '%e s wall, %U s user, %S s sys, %M KB peak RSS' "$@" 2>&1 >/dev/null | tail -1; }
# cpu PID: the process's user + system CPU seconds so far.
cpu() { awk -v hz="$(getconf CLK_TCK)" '{printf "%.1f", ($14 + $15) / hz}' "/proc/$1/stat"; }
# settle PID: waits until the server is idle (under 0.2 CPU seconds in 2 s;
# after an import Weaviate compacts its segments in the background) and
# prints how long that took.
settle() {
  local t=0 a b
  while [ $t -lt 600 ]; do
    a=$(cpu "$1"); sleep 2; b=$(cpu "$1"); t=$((t + 2))
    awk "BEGIN{exit !($b - $a < 0.2)}" && break
  done
  echo "$t"
}
summary() {
  python3 - "$1" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
s = r["search"]
st = {x["stage"]: x for x in s["stages"]}
parts = []
for name in ("retrieve:bm25", "retrieve:dense", "retrieve:entity", "fuse", "total"):
    if name in st:
        parts.append("%s %.2f/%.2f" % (name, st[name]["p50_ms"], st[name]["p95_ms"]))
print("  p50/p95 ms:", ", ".join(parts), "| %.0f q/s, %d no hits, first %.1f ms" % (s["queries_per_second"], s["no_hits"], s["first_ms"]["total"]))
EOF
}
for N in "$@"; do
  V=$DIR/v$N
  [ -d "$V" ] || { echo "no vault $V: go run ./internal/synth/synthvault $V $N" >&2; exit 1; }
  echo "== $N chunks"

  DB=$DIR/sqlite-$N.db
  rm -rf "$DB" "$DB-wal" "$DB-shm" "$DB.graphs"
  echo "sqlite   fresh ingest:     $(t "$BIN" ingest --quiet --db "$DB" "$V")"
  echo "sqlite   unchanged ingest: $(t "$BIN" ingest --quiet --db "$DB" "$V")"
  "$BIN" bench --db "$DB" --n 200 --json >"$DIR/bench-sqlite-$N.json"
  summary "$DIR/bench-sqlite-$N.json"
  echo "  index file: $(du -sh "$DB" | cut -f1)"

  W=$DIR/weaviate-$N
  "$HERE/weaviate-local.sh" stop "$W" >/dev/null 2>&1 || true
  rm -rf "$W"
  "$HERE/weaviate-local.sh" start "$W" 1 >/dev/null
  WF=(--backend weaviate --weaviate-url "$URL")
  P=$(cat "$W/node0/pid")
  c0=$(cpu "$P")
  echo "weaviate fresh ingest:     $(t "$BIN" ingest --quiet "${WF[@]}" "$V")"
  c1=$(cpu "$P")
  echo "  server CPU during it: $(awk "BEGIN{print $c1 - $c0}") s; server RSS after: $(grep VmRSS /proc/"$P"/status | tr -s ' ')"
  echo "weaviate unchanged ingest: $(t "$BIN" ingest --quiet "${WF[@]}" "$V")"
  c2=$(cpu "$P")
  echo "  server CPU during it: $(awk "BEGIN{print $c2 - $c1}") s"
  "$BIN" bench "${WF[@]}" --n 200 --json >"$DIR/bench-weaviate-busy-$N.json"
  echo "  bench right after the ingest (the server still compacting):"
  summary "$DIR/bench-weaviate-busy-$N.json"
  s0=$(cpu "$P")
  echo "  server busy for $(settle "$P") s more after that ($(awk "BEGIN{print $(cpu "$P") - $s0}") CPU s)"
  c2=$(cpu "$P")
  "$BIN" bench "${WF[@]}" --n 200 --json >"$DIR/bench-weaviate-$N.json"
  c3=$(cpu "$P")
  echo "  bench on the idle server:"
  summary "$DIR/bench-weaviate-$N.json"
  echo "  server CPU during bench: $(awk "BEGIN{print $c3 - $c2}") s; server RSS after: $(grep VmRSS /proc/"$P"/status | tr -s ' '), data: $(du -sh "$W/node0/data" | cut -f1)"
  "$HERE/weaviate-local.sh" stop "$W" >/dev/null
done
