// The empty state, before the first question: what the role sees of the
// index (notes, sessions, when it was updated, which model answers),
// example questions about the entities its notes mention most, the recap
// of the last session and the way to an entity's timeline.

import { el, ui } from "./dom.js";
import { fmtDate } from "./format.js";
import { recapButton } from "./recap.js";
import { api, state, t } from "./state.js";
import { hasTimelines, setEntities, timelineFinder } from "./timeline.js";

const EXAMPLES = 3; // example questions in the empty state

let overview = null; // what the role sees of the index (GET /api/overview)
let entities = null; // the role's compendium, for example questions
let ask = null; // what an example question does, given by onExample

/** onExample sets what clicking an example question does with it. */
export function onExample(handler) {
  ask = handler;
}

/** forgetOverview drops what was fetched for the role signed out. */
export function forgetOverview() {
  overview = entities = null;
  setEntities([]);
}

/** indexUpdated is when the index last changed, as the overview says, or undefined. */
export function indexUpdated() {
  return overview?.updated;
}

/** updateOverview takes a newer overview (the watcher's), redrawn when the index changed. */
export function updateOverview(o) {
  if (o && overview && o.updated !== overview.updated) {
    overview = o;
    renderEmpty();
  } else if (o && !overview) overview = o;
}

/** loadOverview fetches what the empty state says of the signed-in role's index, and draws it. */
export async function loadOverview() {
  const store = state.store;
  let o = null;
  let es = [];
  try {
    [o, es] = await Promise.all([api.overview(), api.compendium().then((c) => c.entities || [], () => [])]);
  } catch {
    o = null; // an older server, or none: the empty state just says less
  }
  if (state.store !== store) return;
  overview = o;
  entities = es;
  setEntities(es);
  renderEmpty();
}

// Which example question an entity's kind asks.
const EXAMPLE_KIND = { pc: "exampleWho", npc: "exampleWho", god: "exampleWho", place: "exampleWhere" };

/**
 * exampleQuestions asks about the entities the notes mention most (the
 * compendium the server gave this role: a player's never names a DM-only
 * one), a person, a place and something else when there are.
 */
function exampleQuestions(entities) {
  const ranked = entities.filter((e) => e && e.name).sort((a, b) => (b.chunks || 0) - (a.chunks || 0) || a.name.localeCompare(b.name));
  const kindOf = (e) => EXAMPLE_KIND[e.kind] || "exampleWhat";
  const picked = [];
  for (const k of ["exampleWho", "exampleWhere", "exampleWhat"]) {
    const e = ranked.find((x) => !picked.includes(x) && kindOf(x) === k);
    if (e) picked.push(e);
  }
  for (const e of ranked) if (picked.length < EXAMPLES && !picked.includes(e)) picked.push(e);
  return picked.slice(0, EXAMPLES).map((e) => t(kindOf(e), e.name));
}

/** renderEmpty draws the empty state's facts of the index and example questions. */
export function renderEmpty() {
  const o = overview;
  ui.indexInfo.hidden = !o;
  ui.examples.hidden = true;
  ui.story.hidden = true;
  if (!o) return;
  const fact = (label, testid, value, extra = {}) => [el("dt", { text: label }), el("dd", { testid, ...extra, text: value })];
  ui.indexInfo.replaceChildren(
    ...fact(t("indexHolds"), "index-counts", t("indexCounts", o.notes ?? 0, o.sessions ?? 0)),
    ...fact(t("indexUpdated"), "index-updated", o.updated ? fmtDate(o.updated) : t("indexNever")),
    ...fact(t("answeredBy"), "index-model", o.model || t("extractiveModel"), { "data-model": o.model || "extractive" }),
  );
  renderStory(o);
  const questions = exampleQuestions(entities || []);
  if (!questions.length) return;
  const ul = el("ul", { class: "example-list" });
  for (const q of questions) {
    const b = el("button", { type: "button", class: "btn example", testid: "example", text: q });
    b.addEventListener("click", () => ask?.(q));
    ul.append(el("li", {}, b));
  }
  ui.examples.replaceChildren(el("p", { class: "examples-title", text: t("tryAsking") }), ul);
  ui.examples.hidden = false;
}

// renderStory offers the recap of the last session, when the notes hold
// sessions, and the timelines of the compendium's entities.
function renderStory(o) {
  const parts = [];
  if (o.sessions > 0) parts.push(recapButton());
  if (hasTimelines()) parts.push(timelineFinder());
  ui.story.replaceChildren(...parts);
  ui.story.hidden = !parts.length;
}
