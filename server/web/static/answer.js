// A verified answer as the server resolved it: its text with the
// citations it kept as buttons opening the passage panel, its marks of
// unsupported sentences, and what is said of it (grounding, mode,
// removed citations, uncited sentences, warnings).

import { el } from "./dom.js";
import { renderInline, renderMarkdown } from "./markdown.js";
import { openPassage } from "./panel.js";
import { t } from "./state.js";

const CLAIM_CHARS = 300; // of the text before a citation, sent to find its sentence

// A citation group the server resolved is replaced, before the Markdown
// is rendered, by "[" + CITE_MARK + its index + "]": a bracket group that
// only answerCite turns back into the citation. The page itself never
// decides what is a citation or what it names. The server's mark after a
// sentence without support (a segment with mark "unsupported") is such a
// group too, drawn as a badge.
const CITE_MARK = "\uE000";
const CITE_TOKEN = /\[\uE000(\d+)\]/g;

/**
 * citedText returns the answer's text with its citation groups (from the
 * server's segments) replaced by tokens, and the groups in token order,
 * each with its claim: the text since the citation before it, which the
 * server reads to find the cited sentence.
 */
function citedText(a) {
  if (!Array.isArray(a.segments)) return { text: a.answer || "", groups: [] };
  let text = "";
  let since = "";
  const groups = [];
  for (const s of a.segments) {
    if (s.mark === "unsupported") {
      // Its leading space stays text; the mark ends the claim.
      const lead = s.text.match(/^\s*/)[0];
      text += `${lead}[${CITE_MARK}${groups.length}]`;
      groups.push({ ...s, unsupported: true });
      since = "";
    } else if (s.citations?.length) {
      text += `[${CITE_MARK}${groups.length}]`;
      groups.push({ ...s, claim: since.trim().slice(-CLAIM_CHARS) });
      since = "";
    } else {
      text += s.text;
      since += s.text;
    }
  }
  return { text, groups };
}

/**
 * citeButton is a citation's button: ref ({id, label, kind, file, text,
 * claim}) opens in the passage panel, written is what it shows.
 */
export function citeButton(ref, written) {
  const b = el(
    "button",
    {
      type: "button",
      class: `cite${ref.kind === "summary" ? " summary" : ""}`,
      testid: "citation",
      "data-evidence": ref.id,
      "data-label": ref.label,
      "data-kind": ref.kind || "full",
      "aria-controls": "passage",
      "aria-expanded": "false",
      "aria-label": t("citeOpen", ref.label) + (ref.kind === "summary" ? `, ${t("citeSummary")}` : ""),
    },
    written,
  );
  // The visible text ("Sesión 40 resumen", the space drawn by the flex
  // gap) stays inside the accessible name, as voice control needs (WCAG
  // 2.5.3).
  if (ref.kind === "summary") b.append(" ", el("span", { class: "cite-kind", "aria-hidden": "true", text: t("citeSummary") }));
  b.addEventListener("click", () => openPassage(ref, b));
  return b;
}

/** answerCite turns a citation token back into the group's buttons. */
function answerCite(a, groups) {
  const evidence = new Map((a.evidence || []).map((e) => [e.id, e]));
  return (inner) => {
    if (!inner.startsWith(CITE_MARK)) return null;
    const g = groups[Number(inner.slice(CITE_MARK.length))];
    if (!g) return null;
    if (g.unsupported) {
      return el("span", { class: "unsupported-mark", testid: "unsupported", title: t("unsupportedTitle"), text: t("unsupportedMark") });
    }
    const group = el("span", { class: "cite-group" });
    g.citations.forEach((c, i) => {
      if (i > 0) group.append(" ");
      const ev = c.valid !== false && c.evidence ? evidence.get(c.evidence) : null;
      group.append(
        ev
          ? citeButton({ id: ev.id, label: ev.label, kind: c.kind || ev.kind, file: ev.file, text: ev.text, claim: g.claim }, c.label)
          : el("span", { class: "cite plain", text: c.label }),
      );
    });
    return group;
  };
}

/**
 * restoreCitations puts back, as text, the citation tokens left where the
 * renderer shows text as written (tables, code).
 */
function restoreCitations(root, groups) {
  const walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const left = [];
  for (let n = walk.nextNode(); n; n = walk.nextNode()) if (n.data.includes(CITE_MARK)) left.push(n);
  for (const n of left) n.data = n.data.replace(CITE_TOKEN, (m, i) => groups[Number(i)]?.text ?? m);
  return root;
}

const GROUNDING = {
  direct: { key: "groundingDirect", mark: "✓" },
  closest: { key: "groundingClosest", mark: "≈" },
  none: { key: "groundingNone", mark: "∅" },
};

/**
 * groundingBadge says how squarely the notes answer, and for a direct
 * answer how many of its sentences cite them; null from older servers.
 */
function groundingBadge(a) {
  let g = GROUNDING[a.grounding];
  if (!g) return null;
  const n = Number(a.sentences) || 0;
  const supported = Math.min(Number(a.supported_sentences) || 0, n);
  const partial = a.grounding === "direct" && supported < n;
  if (partial) g = { key: "groundingPartial", mark: "◐" };
  const badge = el(
    "span",
    {
      class: `badge grounding grounding-${partial ? "partial" : a.grounding}`,
      testid: "grounding",
      "data-grounding": a.grounding,
      "data-sentences": String(n),
      "data-supported": String(supported),
    },
    el("span", { class: "grounding-mark", "aria-hidden": "true", text: g.mark }),
    el("span", { text: t(g.key) }),
  );
  if (a.grounding === "direct" && n > 0) {
    badge.append(el("span", { class: "grounding-count", testid: "supported-count", text: `· ${t("supportedCount", supported, n)}` }));
  }
  return badge;
}

/** FALLBACK names the text for an answer the model did not write (Answer.fallback). */
const FALLBACK = { timeout: "fallbackTimeout", error: "fallbackError" };

/** renderAnswerNotes draws what is said of an answer under it: how it was grounded and written, and what was removed, left uncited or warned. */
export function renderAnswerNotes(a) {
  const out = [];
  const meta = el("p", { class: "answer-meta", testid: "answer-mode" });
  const grounding = groundingBadge(a);
  if (grounding) meta.append(grounding, " ");
  // The grounding badge already says that the notes do not say.
  if (a.abstained) {
    if (!grounding) meta.append(el("span", { class: "badge abstained", text: t("abstained") }));
  } else if (a.mode === "extractive") meta.append(t(FALLBACK[a.fallback] || "extractive"));
  else meta.append(t("generatedBy", a.model));
  out.push(meta);

  const removed = a.removed_citations || [];
  const uncited = a.uncited || [];
  const warnings = a.warnings || [];
  const unconfirmed = (a.memory || []).filter((m) => m.use === "unconfirmed");
  if (!removed.length && !uncited.length && !warnings.length && !unconfirmed.length) return out;
  const notes = el("div", { class: "answer-notes", testid: "answer-notes" });
  if (unconfirmed.length) {
    // Memory the model was shown as not settled: never a source.
    const d = el("div", { class: "note", testid: "unconfirmed-memory" }, el("p", { text: t("unconfirmedMemory") }));
    const ul = el("ul");
    for (const m of unconfirmed) ul.append(el("li", { text: `${m.key}: ${m.value} (${m.stale ? t("memoryStale") : t("memoryHypothesis")})` }));
    d.append(ul);
    notes.append(d);
  }
  if (removed.length) {
    const p = el("p", { class: "note", testid: "removed-citations" }, t("removed", removed.length), " ");
    removed.forEach((c, i) => {
      if (i > 0) p.append(", ");
      p.append(el("del", { text: `[${c.label}]` }));
    });
    notes.append(p);
  }
  if (uncited.length) {
    const d = el("details", { class: "note", testid: "uncited" }, el("summary", { text: t("uncited", uncited.length) }));
    const ul = el("ul");
    for (const s of uncited) ul.append(renderInline(el("li"), s, null));
    d.append(ul);
    notes.append(d);
  }
  if (warnings.length) {
    const d = el("details", { class: "note", testid: "warnings" }, el("summary", { text: t("warnings") }));
    const ul = el("ul");
    for (const w of warnings) ul.append(el("li", { text: w }));
    d.append(ul);
    notes.append(d);
  }
  out.push(notes);
  return out;
}

/** citedMarkdown renders a done answer's text, its citations as the server resolved them. */
export function citedMarkdown(a) {
  const { text, groups } = citedText(a);
  return restoreCitations(renderMarkdown(text, { cite: answerCite(a, groups) }), groups);
}
