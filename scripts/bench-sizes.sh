#!/bin/bash
# Measures the command-line rows of BENCHMARKS.md's issue 14 table for one
# oraculo binary on synthetic vaults of the given sizes (chunks):
#   go build -o /tmp/m/oraculo ./cmd/oraculo
#   go run ./internal/synth/synthvault /tmp/m/v1000 1000     # one vault per size, named vN
#   scripts/bench-sizes.sh /tmp/m/oraculo new 1000 10000 100000
# Each index is built afresh as DIR/TAG-N.db (DIR is the binary's folder).
# A server is started on 127.0.0.1:18951 for the serve row.
set -u
BIN=$1; TAG=$2; shift 2
DIR=$(dirname "$BIN"); PORT=${PORT:-18951}
Q="¿Quién cruzó el puente de Galerna?"
t() { /usr/bin/time -f '%e s %U u %S s %M KB' "$@" 2>&1 >/dev/null | tail -1; }
for N in "$@"; do
  V=$DIR/v$N; DB=$DIR/$TAG-$N.db
  rm -rf "$DB" "$DB-wal" "$DB-shm" "$DB.graphs"
  echo "== $TAG $N chunks"
  echo "fresh ingest:                    $(t "$BIN" ingest --quiet --db "$DB" --embedder hashing "$V")"
  echo "first dense search (all paths):  $(t "$BIN" search --db "$DB" --embedder hashing --k 5 "$Q")"
  echo "first dense search (again):      $(t "$BIN" search --db "$DB" --embedder hashing --k 5 "$Q")"
  echo "BM25-only search:                $(t "$BIN" search --db "$DB" --embedder hashing --paths bm25 --k 5 "$Q")"
  echo "unchanged re-ingest:             $(t "$BIN" ingest --quiet --db "$DB" --embedder hashing "$V")"
  echo "unchanged re-ingest (again):     $(t "$BIN" ingest --quiet --db "$DB" --embedder hashing "$V")"
  "$BIN" serve --db "$DB" --embedder hashing --addr 127.0.0.1:$PORT >/dev/null 2>&1 &
  PID=$!
  for i in $(seq 100); do curl -s -o /dev/null http://127.0.0.1:$PORT/api/health && break; sleep 0.2; done
  for q in "$Q" "¿qué pasó con el archiduque?" "dragones en el puerto" "la torre de Galerna"; do
    curl -s -o /dev/null -X POST -H 'Content-Type: application/json' -d "{\"question\":\"$q\",\"k\":10}" http://127.0.0.1:$PORT/api/search
  done
  echo "serve after 4 searches:          $(grep -E '^(Rss|Pss|Pss_Anon|Pss_File):' /proc/$PID/smaps_rollup | tr -s ' ' | tr '\n' ' ')"
  kill $PID; wait $PID 2>/dev/null
done
