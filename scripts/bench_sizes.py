#!/usr/bin/env python3
"""Measures BENCHMARKS.md's table of issue 31 for one oraculo binary, one
table per size. Called by scripts/bench-sizes.sh (see there for usage).

Every timed command is a child process: its wall time, CPU seconds (user +
system, from wait4) and peak RSS are taken by this script, with the 1-minute
load average read just before it started. Repeated rows give the median and
the range. Each size writes DIR/TAG-N.json (every figure) and prints a
Markdown table: the row, its goal, what was measured and whether it is met.
"""
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
Q = "¿Quién cruzó el puente de Galerna?"
SERVE_QS = [Q, "¿qué pasó con el archiduque?", "dragones en el puerto", "la torre de Galerna"]


def load():
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


def cpu_of(pid):
    """CPU seconds (user + system) a live process has used so far."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except OSError:
        return None


class Run(dict):
    """One timed command: wall, cpu, rss_mb, load, stdout, stderr lines."""


def run(cmd, stderr_lines=None, check=True, **kw):
    """Runs cmd, timing it; stderr_lines(t, line, pid) sees each stderr line
    with the seconds since the start."""
    ld = load()
    start = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)
    err = []

    def pump():
        for line in p.stderr:
            err.append(line)
            if stderr_lines:
                stderr_lines(time.monotonic() - start, line, p.pid)

    th = threading.Thread(target=pump)
    th.start()
    out = p.stdout.read()
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.monotonic() - start
    th.join()
    p.returncode = os.waitstatus_to_exitcode(status)
    if check and p.returncode != 0:
        sys.exit(f"bench-sizes: {' '.join(cmd)} failed ({p.returncode}):\n{''.join(err[-20:])}")
    return Run(wall=wall, cpu=ru.ru_utime + ru.ru_stime, rss_mb=ru.ru_maxrss / 1024, load=ld,
               out=out, err="".join(err), rc=p.returncode)


def med(runs, key):
    return statistics.median(r[key] for r in runs)


def fmt_runs(runs):
    """'W s (lo–hi), C CPU-s, M MB, load L' of repeated runs."""
    w = [r["wall"] for r in runs]
    s = f"{med(runs, 'wall'):.2f} s"
    if len(runs) > 1:
        s += f" ({min(w):.2f}–{max(w):.2f})"
    return s + f", {med(runs, 'cpu'):.2f} CPU-s, {med(runs, 'rss_mb'):.0f} MB, load {runs[0]['load']:.1f}"


def rm_index(db):
    for suffix in ("", "-wal", "-shm", ".graphs", ".ingest-lock", ".linkkey"):
        p = db + suffix
        if os.path.isdir(p):
            shutil.rmtree(p)
        elif os.path.exists(p):
            os.remove(p)


def some_note(vault):
    for root, _, files in sorted(os.walk(vault)):
        for f in sorted(files):
            if f.endswith(".md"):
                return os.path.join(root, f)
    sys.exit(f"bench-sizes: no note in {vault}")


class Size:
    def __init__(self, binary, tag, n, vault, out, reps):
        self.bin, self.tag, self.n, self.vault, self.out, self.reps = binary, tag, n, vault, out, reps
        self.notes_db = os.path.join(out, f"{tag}-{n}-notes.db")
        self.dense_db = os.path.join(out, f"{tag}-{n}.db")
        self.fig = {"size": n, "tag": tag, "binary": binary, "vault": vault}
        self.rows = []

    def o(self, *args):
        return [self.bin, *args]

    def row(self, name, goal, measured, met):
        self.rows.append((name, goal, measured, met))
        print(f"  {name}: {measured} [goal {goal}: {met}]", file=sys.stderr, flush=True)

    def ingest(self, db, embedder, on_line=None):
        args = ["ingest", "--ui-lang", "en", "--db", db]
        args += ["--embedder", embedder] if embedder else ["--embedder", "none"]
        return run(self.o(*args, self.vault), stderr_lines=on_line)

    def edits(self, db, embedder):
        """Appends a sentence to one note, re-ingests, REPS times, then puts
        the note back (also timed: an edit too)."""
        note = some_note(self.vault)
        with open(note, encoding="utf-8") as f:
            orig = f.read()
        runs = []
        try:
            for i in range(self.reps):
                with open(note, "a", encoding="utf-8") as f:
                    f.write(f"\nEl bardo añadió la línea {i} a esta sesión.\n")
                runs.append(self.ingest(db, embedder))
        finally:
            with open(note, "w", encoding="utf-8") as f:
                f.write(orig)
        runs.append(self.ingest(db, embedder))
        return runs

    def notes_rows(self):
        """Fresh ingest without an embedder against the raw FTS5 floor, then
        unchanged and edited re-ingests of that index."""
        rm_index(self.notes_db)
        fresh = self.ingest(self.notes_db, None)
        raw = run(["go", "run", "./internal/benchrun/rawfts5", self.vault,
                   os.path.join(self.out, f"raw-{self.n}.db")], cwd=REPO)
        m = re.search(r"([\d.]+) s wall, ([\d.]+) CPU-s", raw["out"])
        raw_wall, raw_cpu = float(m.group(1)), float(m.group(2))
        self.fig.update(fresh_notes=fresh, raw_fts5={"wall": raw_wall, "cpu": raw_cpu, "line": raw["out"].strip()})
        ratio = raw_wall / fresh["wall"]
        self.row("fresh ingest ÷ raw FTS5 insert (notes + compendium, no embedder)", "≥ 0.5",
                 f"{ratio:.2f} (ingest {fmt_runs([fresh])}; raw {raw_wall:.2f} s, {raw_cpu:.2f} CPU-s; "
                 f"by CPU {raw_cpu / fresh['cpu']:.2f})", "yes" if ratio >= 0.5 else "no")
        un = [self.ingest(self.notes_db, None) for _ in range(self.reps)]
        self.fig["unchanged_notes"] = un
        self.row("unchanged re-ingest", "≤ 1 s", fmt_runs(un), "yes" if med(un, "wall") <= 1 else "no")
        ed = self.edits(self.notes_db, None)
        self.fig["edit_notes"] = ed
        goal, ok = self.edit_goal(ed)
        self.row("one edited note, re-ingest (no embedder)", goal, fmt_runs(ed), ok)

    def edit_goal(self, runs):
        w, mb = med(runs, "wall"), med(runs, "rss_mb")
        if self.n >= 1_000_000:
            return "≤ 2 s, ≤ 300 MB", "yes" if w <= 2 and mb <= 300 else "no"
        if self.n <= 100_000:
            return "≤ 0.5 s", "yes" if w <= 0.5 else "no"
        return "≤ 1 s", "yes" if w <= 1 else "no"

    def bench(self, db, *args, embedder=None):
        cmd = self.o("bench", "--db", db, "--json", *args)
        if embedder:
            cmd += ["--embedder", embedder]
        r = run(cmd)
        rep = json.loads(r["out"])
        total = next(s for s in rep["search"]["stages"] if s["stage"] == "total")
        return r, rep, total

    def search_rows(self):
        """Cold CLI search against a warm one, and the keyword paths' latency."""
        cold = [run(self.o("search", "--db", self.notes_db, "--embedder", "none", "--k", "5", Q))
                for _ in range(self.reps)]
        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
            f.write(Q + "\n")
        try:
            _, rep, total = self.bench(self.notes_db, "--questions", f.name, "--n", "20", "--k", "5", embedder="none")
        finally:
            os.remove(f.name)
        warm, first = total["p50_ms"], rep["search"]["first_ms"]["total"]
        ratio = med(cold, "wall") * 1000 / warm
        self.fig.update(cold_cli=cold, warm_ms=warm, first_in_process_ms=first)
        self.row("cold first search (CLI, BM25 + entity) ÷ a warm one", "≤ 3×",
                 f"{ratio:.1f}× (CLI {fmt_runs(cold)}; first in a process {first:.1f} ms; warm {warm:.2f} ms)",
                 "yes" if ratio <= 3 else "no")
        r, rep, total = self.bench(self.notes_db, "--n", "200", embedder="none")
        self.fig["bench_keyword"] = rep
        goal = 100 if self.n >= 1_000_000 else 40
        self.row("query p50 / p95 (BM25 + entity, 200 questions)", f"p95 ≤ {goal} ms",
                 f"{total['p50_ms']:.1f} / {total['p95_ms']:.1f} ms ({r['cpu']:.1f} CPU-s for the run, load {r['load']:.1f})",
                 "yes" if total["p95_ms"] <= goal else "no")

    def raw_bm25_row(self):
        """BenchmarkBM25 on this index: Engine.Search against the same FTS5
        query issued directly."""
        r = run(["go", "test", "-run", "XXX", "-bench", "BM25", "-benchtime", "200x", "-timeout", "60m", "."],
                cwd=REPO, env={**os.environ, "ORACULO_BENCH_DB": self.notes_db})
        got = {}
        for line in r["out"].splitlines():
            m = re.search(r"/(oraculo|raw-fts5)-\d+\s+\d+\s+.*?([\d.]+) p50-ms\s+([\d.]+) p95-ms", line)
            if m:
                got[m.group(1)] = (float(m.group(2)), float(m.group(3)))
        if len(got) < 2:
            self.row("BM25 p50 ÷ raw FTS5", "≤ 1.2", "not measured: " + r["out"][-200:], "?")
            return
        ratio = got["oraculo"][0] / got["raw-fts5"][0]
        self.fig["bm25_vs_raw"] = got
        self.row("BM25 p50 ÷ raw FTS5 (BenchmarkBM25)", "≤ 1.2",
                 f"×{ratio:.2f} ({got['oraculo'][0]:.2f} / {got['raw-fts5'][0]:.2f} ms; load {r['load']:.1f})",
                 "yes" if ratio <= 1.2 else "no")

    def dense_rows(self):
        """A fresh ingest with the hashing embedder (the graph stage timed
        from its progress lines), dense search latency, serve's memory."""
        rm_index(self.dense_db)
        marks = {}

        def on_line(t, line, pid):
            if "vector graph" in line:
                if "graph_start" not in marks:
                    marks["graph_start"], marks["graph_cpu0"] = marks.get("last", (0, 0))
                marks["graph_end"], marks["graph_cpu1"] = t, cpu_of(pid)
            else:
                marks["last"] = (t, cpu_of(pid))

        on_notes = os.environ.get("DENSE_ON_NOTES") == "1" and os.path.exists(self.notes_db)
        if on_notes:
            # A copy of the notes index given the embedder: the ingest embeds
            # every chunk and builds the graph, without writing the notes again.
            for suffix in ("", "-wal", ".linkkey"):
                if os.path.exists(self.notes_db + suffix):
                    shutil.copyfile(self.notes_db + suffix, self.dense_db + suffix)
        fresh = self.ingest(self.dense_db, "hashing", on_line)
        self.fig["fresh_dense"] = fresh
        self.fig["dense_on_notes"] = on_notes
        if "graph_start" in marks and marks["graph_cpu0"] is not None and marks["graph_cpu1"] is not None:
            w = marks["graph_end"] - marks["graph_start"]
            c = marks["graph_cpu1"] - marks["graph_cpu0"]
            per = 100_000 / self.n
            self.fig["graph"] = {"wall": w, "cpu": c}
            self.row("HNSW build (1024-d), per 100k chunks", "≤ 60 s, ≤ 120 CPU-s",
                     f"{w * per:.0f} s, {c * per:.0f} CPU-s (stage: {w:.1f} s, {c:.1f} CPU-s; "
                     f"{'embedding the notes index' if on_notes else 'ingest'} {fmt_runs([fresh])})", "yes" if w * per <= 60 and c * per <= 120 else "no")
        else:
            self.row("HNSW build (1024-d)", "≤ 60 s per 100k", f"no graph stage seen (ingest {fmt_runs([fresh])})", "n/a")
        r, rep, total = self.bench(self.dense_db, "--n", "200", "--paths", "dense", embedder="hashing")
        self.fig["bench_dense"] = rep
        self.row("dense search p50 / p95 (200 questions)", "p95 ≤ 50 ms",
                 f"{total['p50_ms']:.1f} / {total['p95_ms']:.1f} ms (load {r['load']:.1f})",
                 "yes" if total["p95_ms"] <= 50 else "no")
        self.serve_row()

    def serve_row(self):
        port = os.environ.get("PORT", "18951")
        p = subprocess.Popen(self.o("serve", "--db", self.dense_db, "--embedder", "hashing",
                                    "--addr", "127.0.0.1:" + port),
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            base = f"http://127.0.0.1:{port}"
            for _ in range(600):
                try:
                    urllib.request.urlopen(base + "/api/health", timeout=1)
                    break
                except OSError:
                    time.sleep(0.2)
            for q in SERVE_QS * 2:
                req = urllib.request.Request(base + "/api/search", method="POST",
                                             data=json.dumps({"question": q, "k": 10}).encode(),
                                             headers={"Content-Type": "application/json"})
                urllib.request.urlopen(req, timeout=120).read()
            with open(f"/proc/{p.pid}/status") as f:
                st = dict(l.split(":", 1) for l in f if ":" in l)
            rss = int(st["VmRSS"].split()[0]) / 1024
            hwm = int(st["VmHWM"].split()[0]) / 1024
            anon = int(st["RssAnon"].split()[0]) / 1024
        finally:
            p.terminate()
            p.wait()
        self.fig["serve"] = {"rss_mb": rss, "hwm_mb": hwm, "anon_mb": anon}
        goal = 2048 if self.n >= 1_000_000 else 1024
        self.row("serve RSS after 8 searches (all paths, 1024-d vectors)", f"≤ {goal / 1024:.0f} GB",
                 f"{rss:.0f} MB (peak {hwm:.0f} MB; its own memory, RssAnon, {anon:.0f} MB: the rest are the index's "
                 f"and the graph's mapped pages, shared and clean)", "yes" if hwm <= goal else "no")

    def bleve_row(self):
        """The Bleve anchor, if the nested module bench/bleve is present."""
        d = os.path.join(REPO, "bench", "bleve")
        if not os.path.isdir(d):
            return
        r = run(["go", "run", ".", "--db", self.notes_db, "--n", "200", "--json"], cwd=d, check=False)
        try:
            rep = json.loads(r["out"])
        except ValueError:
            self.row("BM25 + entity against Bleve", "p50 ≤ 3×, p95 ≤ Bleve's", "not measured: " + r["err"][-300:], "?")
            return
        self.fig["bleve"] = rep
        o, b = rep["oraculo"], rep["bleve"]
        ok = o["p50_ms"] <= 3 * b["p50_ms"] and o["p95_ms"] <= b["p95_ms"]
        self.row("BM25 + entity against Bleve (es, BM25), same questions", "p50 ≤ 3× Bleve's, p95 ≤ Bleve's",
                 f"Oráculo {o['p50_ms']:.2f} / {o['p95_ms']:.2f} ms, Bleve {b['p50_ms']:.2f} / {b['p95_ms']:.2f} ms "
                 f"(×{o['p50_ms'] / b['p50_ms']:.1f} at p50; {o['cpu_s']:.1f} / {b['cpu_s']:.1f} CPU-s for the passes; "
                 f"Bleve built in {b['build']['wall_s']:.0f} s, {b['build']['cpu_s']:.0f} CPU-s, "
                 f"{b['build']['bytes'] / 1e6:.0f} MB; load {rep['loadavg_before']})",
                 "yes" if ok else "no")

    def table(self):
        lines = [f"### {self.n:,} chunks ({self.tag})", "", "| row | goal | measured | met? |", "| --- | --- | --- | --- |"]
        lines += [f"| {a} | {b} | {c} | {d} |" for a, b, c, d in self.rows]
        return "\n".join(lines) + "\n"


def main():
    if len(sys.argv) < 4:
        sys.exit("usage: scripts/bench-sizes.sh BIN TAG N [N ...]")
    binary, tag, sizes = os.path.abspath(sys.argv[1]), sys.argv[2], [int(s) for s in sys.argv[3:]]
    out = os.path.dirname(binary)
    vaults = os.environ.get("VAULTS", out)
    reps = int(os.environ.get("REPS", "3"))
    parts = os.environ.get("PARTS", "notes,search,bm25,bleve,dense").split(",")
    for n in sizes:
        vault = os.path.realpath(os.path.join(vaults, f"v{n}"))
        if not os.path.isdir(vault):
            run(["go", "run", "./internal/synth/synthvault", vault, str(n)], cwd=REPO)
        s = Size(binary, tag, n, vault, out, reps)
        print(f"== {tag} {n} chunks (load {load():.1f})", file=sys.stderr, flush=True)
        if "notes" in parts or "search" in parts or "bm25" in parts or "bleve" in parts:
            if "notes" in parts or not os.path.exists(s.notes_db):
                s.notes_rows()
        if "search" in parts:
            s.search_rows()
        if "bm25" in parts:
            s.raw_bm25_row()
        if "bleve" in parts:
            s.bleve_row()
        if "dense" in parts:
            s.dense_rows()
        elif "serve" in parts:  # serve's memory alone, on the index the dense part left
            s.serve_row()
        with open(os.path.join(out, f"{tag}-{n}.json"), "w") as f:
            json.dump(s.fig, f, indent=1, default=lambda r: {k: v for k, v in r.items() if k not in ("out", "err")})
        print(s.table(), flush=True)


if __name__ == "__main__":
    main()
