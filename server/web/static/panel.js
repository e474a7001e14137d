// The passage panel: a cited passage beside the answer (a bottom sheet on
// a phone), its cited sentence marked, and the whole note it comes from
// on demand. Passages fetched are kept until the notes are read again.

import { APIError } from "./api.js";
import { $, NARROW, el, ui } from "./dom.js";
import { noteLinks, renderInline, renderMarkdown } from "./markdown.js";
import { markSentence } from "./sentence.js";
import { api, t } from "./state.js";

let shown = null; // {ref, opener, view: "chunk" | "note", chunk, note, error}
const chunks = new Map(); // id + claim -> Promise of the chunk

/** panelOpen reports whether a passage is shown. */
export function panelOpen() {
  return !!shown;
}

/** forgetChunks drops the passages fetched: the notes were read again. */
export function forgetChunks() {
  chunks.clear();
}

function fetchChunk(id, claim = "") {
  const key = `${id}\n${claim}`;
  if (!chunks.has(key)) {
    const p = api.chunk(id, claim);
    chunks.set(key, p);
    p.catch(() => chunks.delete(key)); // a failure is not remembered
  }
  return chunks.get(key);
}

/**
 * openPassage shows, in the panel beside the answer, the passage ref names
 * ({id, label, kind, file, text, claim}): fetched, its cited sentence marked.
 * opener is the button that opened it, given the focus back on close. A
 * passage opened from a view the panel shows (a timeline's citation)
 * keeps that view to go back to, and the focus goes back on close to
 * what opened the view.
 */
export function openPassage(ref, opener) {
  const back = shown && opener && ui.panel.contains(opener) ? shown : null;
  if (!back) expand(opener);
  shown = { ref, opener: back ? back.opener : opener, from: back ? opener : null, back, view: "chunk", chunk: null, note: null, error: null };
  showPanel();
  const panel = shown;
  if (ref.kind === "memory") {
    // An entry of memory is no chunk: the panel shows the entry itself.
    panel.chunk = { label: ref.label, text: ref.text || "", file: ref.file || "" };
    renderPanel();
    return;
  }
  fetchChunk(ref.id, ref.claim).then(
    (chunk) => {
      if (shown !== panel) return;
      panel.chunk = chunk;
      renderPanel();
    },
    (err) => {
      if (shown !== panel) return;
      panel.error = err;
      renderPanel();
    },
  );
}

/**
 * openView shows in the panel a feature's view (a timeline, a recap):
 * view is {testid, eyebrow(), label(), state(), render(), backLabel()},
 * its functions drawing it in the page's language as it stands (see
 * refreshView). opener is given the focus back on close (unless it is
 * in the panel: then what opened the view shown).
 */
export function openView(view, opener) {
  // A view opened from another keeps what opened the first.
  const within = shown && opener && ui.panel.contains(opener);
  if (!within) expand(opener);
  shown = { custom: view, opener: within ? shown.opener : opener };
  showPanel();
}

/** refreshView draws view again if the panel shows it (its data came). */
export function refreshView(view) {
  if (shown?.custom === view) renderPanel();
}

// expand marks opener as what the panel shows, and the one before not.
function expand(opener) {
  const previous = shown?.opener;
  if (previous && previous !== opener) previous.setAttribute("aria-expanded", "false");
  opener?.setAttribute("aria-expanded", "true");
}

function showPanel() {
  ui.panel.hidden = false;
  ui.layout.classList.add("has-panel");
  syncPanelMode();
  renderPanel();
  ui.panel.scrollTop = 0;
  ui.panelLabel.focus({ preventScroll: NARROW.matches });
}

// goBack shows again the view a passage was opened from, the focus on
// the citation that opened it.
function goBack(p) {
  shown = p.back;
  renderPanel();
  const id = p.from?.dataset.evidence;
  const twin = id ? ui.panelBody.querySelector(`[data-testid="citation"][data-evidence="${CSS.escape(id)}"]`) : null;
  (twin || ui.panelLabel).focus();
}

/** closePanel hides the passage panel, the focus back where it was when restoreFocus. */
export function closePanel(restoreFocus = true) {
  if (!shown) return;
  const { opener, ref } = shown;
  const id = ref?.id;
  opener?.setAttribute("aria-expanded", "false");
  shown = null;
  ui.panel.hidden = true;
  ui.backdrop.hidden = true;
  ui.layout.classList.remove("has-panel");
  document.documentElement.classList.remove("sheet-open");
  if (!restoreFocus) return;
  if (opener && opener.isConnected) opener.focus();
  else {
    // The answer was drawn again (a language switch): its first citation
    // of the same passage stands in for the button that opened it.
    const twin = id ? document.querySelector(`[data-testid="citation"][data-evidence="${CSS.escape(id)}"]`) : null;
    (twin || ui.input).focus();
  }
}

// On a phone the panel is a modal bottom sheet; beside the answer it is a
// plain complementary region.
function syncPanelMode() {
  const sheet = NARROW.matches && !!shown;
  ui.backdrop.hidden = !sheet;
  document.documentElement.classList.toggle("sheet-open", sheet);
  if (sheet) {
    ui.panel.setAttribute("role", "dialog");
    ui.panel.setAttribute("aria-modal", "true");
  } else {
    ui.panel.removeAttribute("role");
    ui.panel.removeAttribute("aria-modal");
  }
}
NARROW.addEventListener("change", syncPanelMode);

function headingsList(headings) {
  const ol = el("ol", { class: "crumbs", testid: "passage-headings" });
  // A heading as its reader sees it: a wikilink as its shown text.
  for (const h of headings || []) ol.append(renderInline(el("li"), h, null));
  return ol;
}

/** renderPanel draws the passage shown, if any. */
export function renderPanel() {
  const p = shown;
  if (!p) return;
  if (p.custom) {
    renderView(p.custom);
    return;
  }
  const chunk = p.chunk;
  ui.panelEyebrow.textContent = t("passage");
  ui.panelLabel.textContent = chunk?.label || p.ref.label;
  ui.panel.dataset.view = "passage";
  ui.panel.dataset.chunkId = p.ref.id;
  ui.panel.dataset.state = p.error ? "error" : chunk ? "ready" : "loading";
  const body = [];
  if (p.back) {
    const back = el("button", { type: "button", class: "btn small quiet panel-back", testid: "panel-back", text: `← ${p.back.custom.backLabel()}` });
    back.addEventListener("click", () => goBack(p));
    body.push(el("p", { class: "passage-actions top" }, back));
  }
  if (p.ref.kind === "summary") {
    body.push(
      el("p", { class: "summary-note", testid: "passage-summary" }, el("span", { class: "badge summary", text: t("summaryBadge") }), " ", t("summaryNote")),
    );
  }
  if (p.ref.kind === "memory") {
    body.push(
      el("p", { class: "summary-note", testid: "passage-memory" }, el("span", { class: "badge summary", text: t("memoryBadge") }), " ", t("memoryNote")),
    );
  }
  if (p.error) {
    const msg = p.error instanceof APIError && p.error.status === 404 ? t("notFound") : p.error.message || t("errorNetwork");
    body.push(el("p", { class: "error", role: "alert", testid: "passage-error", text: msg }));
    ui.panelBody.replaceChildren(...body);
    return;
  }
  if (!chunk) {
    body.push(el("p", { class: "muted", testid: "passage-loading", text: t("loading") }));
    ui.panelBody.replaceChildren(...body);
    return;
  }
  const meta = el("dl", { class: "passage-meta" }, el("dt", { text: t("file") }), el("dd", {}, el("span", { class: "file", testid: "passage-file", text: chunk.file || p.ref.file || "" })));
  const extra = [];
  // The session, unless the label already says which one it is.
  if (chunk.session != null && !new RegExp(`\\b${chunk.session}\\b`).test(chunk.label || "")) extra.push(t("session", chunk.session));
  if (chunk.words) extra.push(t("words", chunk.words));
  body.push(meta);
  if (chunk.headings && chunk.headings.length) body.push(headingsList(chunk.headings));
  if (extra.length) body.push(el("p", { class: "muted small", text: extra.join(" · ") }));

  if (p.view === "note") {
    body.push(renderNote(p));
  } else {
    const text = el("div", { class: "md passage-text", testid: "passage-text" }, renderMarkdown(chunk.text || "", { headingOffset: 2, noteLink: noteLinks(chunk.note_links) }));
    // The server says which sentence the citation leans on (as its
    // passage page marks it): marked here, and scrolled to below.
    if (chunk.cited) markSentence(text, chunk.cited);
    body.push(text);
  }
  const file = chunk.file || p.ref.file;
  if (file) {
    const toggle = el("button", { type: "button", class: "btn small", testid: p.view === "note" ? "passage-back" : "passage-load-note", text: p.view === "note" ? t("backToPassage") : t("loadNote") });
    toggle.addEventListener("click", () => (p.view === "note" ? showChunkView(p) : loadNote(p, file)));
    body.push(el("p", { class: "passage-actions" }, toggle));
  }
  ui.panelBody.replaceChildren(...body);
  const mark = p.view === "chunk" ? $("mark.cited", ui.panelBody) : null;
  if (mark) scrollWithinPanel(mark);
}

// renderView draws a feature's view in the panel.
function renderView(view) {
  ui.panelEyebrow.textContent = view.eyebrow();
  ui.panelLabel.textContent = view.label();
  ui.panel.dataset.view = view.testid;
  delete ui.panel.dataset.chunkId;
  ui.panel.dataset.state = view.state();
  ui.panelBody.replaceChildren(...view.render());
}

/** scrollWithinPanel scrolls the passage panel (not the page) so that e sits in the middle of what it shows. */
function scrollWithinPanel(e) {
  const box = ui.panel.getBoundingClientRect();
  const head = $(".passage-head", ui.panel).getBoundingClientRect().bottom;
  const r = e.getBoundingClientRect();
  const middle = head + (box.bottom - head) / 2;
  ui.panel.scrollTop += r.top + r.height / 2 - middle;
}

function renderNote(p) {
  const section = el("section", { class: "note-view", testid: "passage-note", "aria-labelledby": "note-title" });
  if (p.noteError) {
    section.append(el("p", { class: "error", role: "alert", text: p.noteError.message || t("errorNetwork") }));
    return section;
  }
  if (!p.note) {
    section.append(el("p", { class: "muted", text: t("loading") }));
    return section;
  }
  section.append(el("h3", { id: "note-title", tabindex: "-1", text: t("noteTitle", p.note.title || p.note.file) }));
  for (const c of p.note.chunks || []) {
    const current = c.id === p.ref.id;
    const part = el("article", { class: `note-chunk${current ? " current" : ""}`, "data-id": c.id, "aria-current": current ? "true" : null });
    part.append(el("p", { class: "note-chunk-label", text: c.label }));
    part.append(el("div", { class: "md" }, renderMarkdown(c.text || "", { headingOffset: 3, noteLink: noteLinks(p.note.note_links) })));
    section.append(part);
  }
  return section;
}

async function loadNote(p, file) {
  p.view = "note";
  renderPanel();
  if (!p.note) {
    try {
      p.note = await api.note(file);
    } catch (err) {
      p.noteError = err;
    }
    if (shown !== p || p.view !== "note") return;
    renderPanel();
  }
  const title = $("#note-title", ui.panelBody);
  const current = $(".note-chunk.current", ui.panelBody);
  title?.focus({ preventScroll: true });
  (current || title)?.scrollIntoView({ block: "start" });
}

function showChunkView(p) {
  p.view = "chunk";
  renderPanel();
  ui.panelLabel.focus();
}

ui.panelClose.addEventListener("click", () => closePanel());
ui.backdrop.addEventListener("click", () => closePanel());

/** trapFocus keeps Tab inside the bottom sheet while it covers the page. */
export function trapFocus(e) {
  if (e.key !== "Tab" || !shown || !NARROW.matches) return;
  const focusables = [...ui.panel.querySelectorAll('button, [href], summary, [tabindex]:not([tabindex="-1"])')].filter((x) => !x.closest("[hidden]"));
  if (!focusables.length) return;
  const first = focusables[0];
  const last = focusables[focusables.length - 1];
  if (!ui.panel.contains(document.activeElement)) {
    e.preventDefault();
    first.focus();
  } else if (e.shiftKey && (document.activeElement === first || document.activeElement === ui.panelLabel)) {
    e.preventDefault();
    last.focus();
  } else if (!e.shiftKey && document.activeElement === last) {
    e.preventDefault();
    first.focus();
  }
}
