// The timeline panel: an entity's story in session order (GET
// /api/timeline), opened from its name in an answer or, in the empty
// state, from the compendium. Each session that mentions it, with its
// in-game date when the notes give one, the sentence that says most of it
// and the citation that opens the passage; its first and last appearance,
// the sessions it was absent, and apart the notes about it that are no
// session. What the reader's role may see only: the server decides.

import { el, icon } from "./dom.js";
import { indexWord } from "./markdown.js";
import { load, momentList, section, viewStatus } from "./moment.js";
import { openView } from "./panel.js";
import { api, t } from "./state.js";

const MIN_NAME = 3; // shorter names are not looked for in answers
const NAME = /\p{Lu}/u; // a name has a capital letter (as the links to notes)
// Where a name in an answer is not looked for.
const SKIP = "button, code, pre, .cite-group, .md-link, .timeline-name";

let entities = []; // the role's compendium, whose names answers show

/** setEntities takes the role's compendium, and marks its names in the answers shown. */
export function setEntities(list) {
  entities = Array.isArray(list) ? list.filter((e) => e && typeof e.name === "string" && e.name) : [];
  for (const root of document.querySelectorAll('[data-testid="turn-answer"][data-state="done"] [data-testid="answer-text"]')) linkTimelines(root);
}

/** hasTimelines reports whether an entity of the compendium appears in a session. */
export function hasTimelines() {
  return entities.some((e) => e.sessions?.length);
}

// names lists the names and aliases of the entities that appear in a
// session, longest first.
function names() {
  const out = [];
  for (const e of entities) {
    if (!e.sessions?.length) continue;
    for (const n of [e.name, ...(e.aliases || [])]) {
      if (typeof n === "string" && n.length >= MIN_NAME && NAME.test(n)) out.push({ text: n, entity: e.name });
    }
  }
  return out.sort((a, b) => b.text.length - a.text.length);
}

// findName is where name first stands in root's text as whole words,
// outside code, citations, links written out and names already marked.
function findName(root, name) {
  const walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    if (n.parentElement?.closest(SKIP)) continue;
    for (let i = indexWord(n.data, name, 0); i >= 0; i = indexWord(n.data, name, i + 1)) {
      if (!/:\/\//.test(n.data.slice(0, i).split(/\s/).pop())) return [n, i];
    }
  }
  return null;
}

/**
 * linkTimelines gives, in root (a rendered answer), the first mention of
 * each entity of the compendium a button beside it that opens its
 * timeline; a name that links to its note keeps its link, the button
 * after it. It returns root.
 */
export function linkTimelines(root) {
  for (const b of root.querySelectorAll(".timeline-open")) b.remove();
  for (const s of root.querySelectorAll(".timeline-name")) s.replaceWith(...s.childNodes);
  root.normalize();
  const done = new Set();
  for (const n of names()) {
    if (done.has(n.entity)) continue;
    const at = findName(root, n.text);
    if (!at) continue;
    done.add(n.entity);
    const name = at[0].splitText(at[1]);
    name.splitText(n.text.length);
    const span = el("span", { class: "timeline-name" });
    name.replaceWith(span);
    span.append(name);
    (span.closest("a") || span).after(timelineButton(n.entity));
  }
  return root;
}

function timelineButton(name) {
  const label = t("timelineOf", name);
  const b = el(
    "button",
    { type: "button", class: "timeline-open", testid: "timeline-open", "data-entity": name, "aria-label": label, title: label, "aria-controls": "passage", "aria-expanded": "false" },
    icon("timeline"),
  );
  b.addEventListener("click", () => openTimeline(name, b));
  return b;
}

/** openTimeline shows in the panel the timeline of the entity name names; opener gets the focus back. */
export function openTimeline(name, opener) {
  const view = { testid: "timeline", status: "loading", data: null, error: null };
  view.eyebrow = () => t("timelineTitle");
  view.label = () => view.data?.name || name;
  view.state = () => view.status;
  view.backLabel = () => t("backToTimeline");
  view.render = () => renderTimeline(view, name);
  openView(view, opener);
  load(view, () => api.timeline(name));
}

function renderTimeline(view, name) {
  const status = viewStatus(view, () => t("timelineUnknown", name));
  if (status && view.status === "error" && view.error?.status === 404) return [status, ...suggestions(name)];
  if (status) return [status];
  const d = view.data;
  const sessions = Array.isArray(d.sessions) ? d.sessions : [];
  // The server says which absences are gaps; an older shape, each entry.
  const gaps = Array.isArray(d.gaps) ? new Map(d.gaps.map((g) => [g.before, g.absent])) : null;
  const absent = (m) => (gaps ? gaps.get(m.session) : m.absent_before) || 0;
  const list = sessions.length
    ? momentList(sessions, { ordered: true, testid: "timeline-entry", item: (m, li) => entryHead(m, li, absent(m)) })
    : el("p", { class: "muted", testid: "timeline-none", text: t("timelineNone") });
  const out = [facts(d), section("timeline-sessions-h", t("timelineSessions"), "timeline-sessions", list)];
  if (d.notes?.length) {
    const notes = momentList(d.notes, { testid: "timeline-note" });
    out.push(section("timeline-notes-h", t("timelineNotes"), "timeline-notes", el("p", { class: "muted small", text: t("timelineNotesHint") }), notes));
  }
  return out;
}

// fold is s for a lookup: lower case, no accents.
const fold = (s) => s.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();

// suggestions offers, for a name no entity has, the timelines of those
// whose name or an alias holds it (or is held in it).
function suggestions(name) {
  const q = fold(name);
  const near = entities.filter((e) => e.sessions?.length && [e.name, ...(e.aliases || [])].some((n) => typeof n === "string" && n.length >= MIN_NAME && (fold(n).includes(q) || q.includes(fold(n)))));
  if (!near.length) return [];
  const ul = el("ul", { class: "near-list" });
  near.sort((a, b) => a.name.localeCompare(b.name));
  for (const e of near.slice(0, 5)) {
    const b = el("button", { type: "button", class: "btn small", testid: "timeline-near", text: e.name });
    b.addEventListener("click", () => openTimeline(e.name, b));
    ul.append(el("li", {}, b));
  }
  return [el("p", { class: "muted", text: t("timelineNear") }), ul];
}

// entryHead starts a session's entry: the sessions it was absent before,
// and which session it is, with its date and how often it is named.
function entryHead(m, li, absent) {
  if (absent > 0) li.append(el("p", { class: "gap", testid: "timeline-gap", "data-absent": absent, text: t("absent", absent) }));
  const head = el("h4", { class: "moment-head", testid: "timeline-session", text: [t("session", m.session), m.date].filter(Boolean).join(" · ") });
  if (m.mentions > 1) head.append(el("span", { class: "mentions", text: ` · ${t("mentions", m.mentions)}` }));
  li.append(head);
}

// facts are the timeline's first and last appearance, and the entity's other names.
function facts(d) {
  const dl = el("dl", { class: "story-facts", testid: "timeline-facts" });
  const fact = (label, value, testid) => dl.append(el("dt", { text: label }), el("dd", { testid, text: value }));
  if (d.first_session != null) fact(t("timelineFirst"), t("session", d.first_session), "timeline-first");
  if (d.last_session != null) fact(t("timelineLast"), t("session", d.last_session), "timeline-last");
  const aliases = (d.aliases || []).filter((a) => a && a !== d.name);
  if (aliases.length) fact(t("timelineAliases"), aliases.join(", "), "timeline-aliases");
  return dl;
}

/**
 * timelineFinder is the empty state's way to a timeline: a name or alias
 * typed (the compendium's names suggested as one types) opens its
 * timeline.
 */
export function timelineFinder() {
  const input = el("input", { id: "timeline-name", type: "text", list: "timeline-names", autocomplete: "off", spellcheck: "false", testid: "timeline-name", placeholder: t("timelinePlaceholder") });
  const sorted = entities.filter((e) => e.sessions?.length).map((e) => e.name).sort((a, b) => a.localeCompare(b));
  const options = el("datalist", { id: "timeline-names" }, ...sorted.map((n) => el("option", { value: n })));
  const submit = el("button", { type: "submit", class: "btn", testid: "timeline-submit", "aria-controls": "passage", "aria-expanded": "false", text: t("timelineShow") });
  const form = el("form", { class: "timeline-find", testid: "timeline-find", novalidate: true }, el("label", { for: "timeline-name", text: t("timelineFind") }), el("div", { class: "row" }, input, submit), options);
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const name = input.value.trim();
    if (name) openTimeline(name, submit);
    else input.focus();
  });
  return form;
}
