// How an answer was found, under the answer: the query and what was
// understood of it, the reranking, what the model was shown, the timings
// and the candidate passages, each one opening in the passage panel.

import { el } from "./dom.js";
import { fmtMs, listOf } from "./format.js";
import { openPassage } from "./panel.js";
import { t } from "./state.js";

const CANDIDATES_SHOWN = 10; // rows of the trace's table before "show all"

const PATH_KEYS = { bm25: "pathBM25", dense: "pathDense", entity: "pathEntity" };

/** sessionList writes session numbers in order, runs of three or more as ranges ("1–12, 15"). */
function sessionList(sessions) {
  const ns = [...new Set(sessions.map(Number).filter(Number.isFinite))].sort((x, y) => x - y);
  const parts = [];
  for (let i = 0; i < ns.length; ) {
    let j = i;
    while (j + 1 < ns.length && ns[j + 1] === ns[j] + 1) j++;
    if (j - i >= 2) parts.push(`${ns[i]}–${ns[j]}`);
    else for (let k = i; k <= j; k++) parts.push(String(ns[k]));
    i = j + 1;
  }
  return { n: ns.length, text: listOf(parts) };
}

/** analysisLines says what was understood of the question, one line each; none when it says nothing. */
function analysisLines(an) {
  if (!an) return [];
  const f = an.filters || {};
  const lines = [];
  const line = (kind, text) => lines.push(el("span", { class: "block", testid: "trace-analysis", "data-kind": kind, text }));
  const said = an.said || "";
  if (an.unfiltered) line("unfiltered", t("analysisUnfiltered", said));
  else if (f.sessions?.length) {
    const s = sessionList(f.sessions);
    line("sessions", t("analysisSessions", s.n, s.text, said));
  }
  if (f.folders?.length) line("folders", t("analysisFolders", listOf(f.folders)));
  if (f.tags?.length) line("tags", t("analysisTags", listOf(f.tags.map((x) => `#${String(x).replace(/^#/, "")}`))));
  if (an.kind === "arc") line("arc", t("analysisArc"));
  return lines;
}

/** renderTrace draws how an answer was found: the query, what was understood of it, the reranking, the context, the timings and the candidates. */
export function renderTrace(a) {
  const details = el("details", { class: "trace", testid: "trace" }, el("summary", { testid: "trace-toggle", text: t("trace") }));
  const dl = el("dl", { class: "facts" });
  const fact = (label, ...value) => dl.append(el("dt", { text: label }), el("dd", {}, ...value));

  const q = el("q", { testid: "trace-query", text: a.query || a.question || "" });
  fact(t("traceQuery"), q, a.follow_up ? el("span", { class: "muted block", testid: "trace-follow-up", text: t("traceFollowUp") }) : null);

  const understood = analysisLines(a.analysis);
  if (understood.length) fact(t("traceAnalysis"), ...understood);

  const r = a.rerank || {};
  const rerankText = r.reranked ? t("traceReranked", r.reranker || "?") : t("traceNotReranked", r.reranker || "none");
  fact(t("traceRerank"), el("span", { testid: "trace-rerank", text: rerankText + (r.fallback ? ` ${t("traceFallback", r.fallback)}` : "") }));

  if (a.context) fact(t("traceContext"), t("traceContextValue", { full: a.context.full ?? 0, summaries: a.context.summaries ?? 0, words: a.context.words ?? 0 }));

  const tm = a.timings || {};
  const names = t("timingNames");
  const order = ["search", "rerank", "answer", "verify", "total"].filter((k) => k in tm);
  if (order.length) fact(t("traceTimings"), order.map((k) => `${names[k] || k} ${fmtMs(tm[k])}`).join(" · "));
  details.append(dl);

  const cands = a.candidates || [];
  if (cands.length) {
    const delivered = new Map((a.evidence || []).map((e) => [e.id, e.kind]));
    details.append(el("h4", { text: t("traceCandidates") }));
    const tbody = el("tbody");
    cands.forEach((c, i) => {
      const kind = delivered.get(c.id) || "no";
      const paths = el("span", { class: "paths" });
      for (const [name, rank] of Object.entries(c.paths || {})) {
        paths.append(el("span", { class: `path path-${name}`, title: name, text: `${PATH_KEYS[name] ? t(PATH_KEYS[name]) : name} #${rank}` }), " ");
      }
      const open = el("button", { type: "button", class: "link", testid: "candidate-open", text: c.label || c.id });
      open.addEventListener("click", () => openPassage({ id: c.id, label: c.label || c.id, kind: kind === "summary" ? "summary" : "full", file: c.file }, open));
      const deliveredText = kind === "full" ? t("deliveredFull") : kind === "summary" ? t("deliveredSummary") : t("deliveredNo");
      tbody.append(
        el(
          "tr",
          { testid: "candidate", "data-delivered": kind, "data-id": c.id, hidden: i >= CANDIDATES_SHOWN },
          el("td", { class: "num", text: String(c.rank ?? "") }),
          el("td", { class: "cand-passage" }, open, el("span", { class: "file", text: c.file || "" })),
          el("td", { class: "cand-paths" }, paths),
          el("td", { class: "cand-delivered" }, el("span", { class: `badge delivered-${kind}`, text: deliveredText })),
        ),
      );
    });
    const table = el(
      "table",
      { testid: "trace-candidates" },
      el(
        "thead",
        {},
        el(
          "tr",
          {},
          el("th", { scope: "col", class: "num", text: t("colRank") }),
          el("th", { scope: "col", text: t("colPassage") }),
          el("th", { scope: "col", text: t("colPaths") }),
          el("th", { scope: "col", text: t("colDelivered") }),
        ),
      ),
      tbody,
    );
    details.append(el("div", { class: "table-wrap", tabindex: "0", role: "region", "aria-label": t("traceCandidates") }, table));
    if (cands.length > CANDIDATES_SHOWN) {
      const more = el("button", { type: "button", class: "btn small more", testid: "candidates-more", text: t("showAll", cands.length) });
      more.addEventListener("click", () => {
        for (const row of tbody.querySelectorAll("tr[hidden]")) row.hidden = false;
        more.remove();
        tbody.rows[CANDIDATES_SHOWN]?.querySelector("button")?.focus();
      });
      details.append(el("p", { class: "more-row" }, more));
    }
  }
  return details;
}
