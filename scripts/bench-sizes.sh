#!/bin/bash
# Measures BENCHMARKS.md's current tables (issue 31) for one oraculo binary
# on synthetic vaults of the given sizes (chunks), one Markdown table per
# size on standard output, progress on standard error:
#   go build -o /tmp/m/oraculo ./cmd/oraculo
#   scripts/bench-sizes.sh /tmp/m/oraculo new 10000 100000 300000 1000000
# The vaults are DIR/vN ($VAULTS, default the binary's folder), made with
# internal/synth/synthvault when missing; the indexes are DIR/TAG-N-notes.db
# (no embedder) and DIR/TAG-N.db (hashing embedder, 1024-d), built afresh;
# every figure goes to DIR/TAG-N.json. Each timed command's wall time, CPU
# seconds (user + system) and peak RSS come from wait4, with the 1-minute
# load average beside; repeated rows ($REPS, default 3) give the median.
# $PARTS chooses rows (default notes,search,bm25,bleve,dense; serve alone
# measures serve's memory on the index a dense part left); a server is
# started on 127.0.0.1:$PORT (default 18951) for serve's memory.
# One note of the vault is edited and put back (the edit row).
# DENSE_ON_NOTES=1 gives a copy of the notes index the hashing embedder
# instead of a second fresh ingest (the graph row is the same stage; the
# notes are not written twice: at 1M that saves ~40 minutes).
exec python3 "$(dirname "$0")/bench_sizes.py" "$@"
