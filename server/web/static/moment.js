// A moment of the notes as the story features show it (a timeline's
// entry, a recap's event): its sentence, as written there, and the
// citation that opens its passage as an answer's citations do. And what a
// view of the panel says while it loads or when it fails.

import { citeButton } from "./answer.js";
import { APIError } from "./api.js";
import { el } from "./dom.js";
import { renderInline } from "./markdown.js";
import { refreshView } from "./panel.js";
import { t } from "./state.js";

/**
 * momentText is a paragraph with m's sentence ({text, id, file, label})
 * and its citation: the passage it comes from, the sentence marked.
 */
export function momentText(m) {
  const p = el("p", { class: "moment-text", testid: "moment" });
  renderInline(p, m.text || "", null);
  if (m.id) {
    p.append(" ", citeButton({ id: m.id, label: m.label, file: m.file, text: m.text, claim: m.text }, m.label || m.file));
  }
  return p;
}

/**
 * momentList is a list (ordered when ordered) of moments, testid on each
 * item; item(m, li) may add to an item before its sentence.
 */
export function momentList(moments, { ordered = false, testid, item = null } = {}) {
  const list = el(ordered ? "ol" : "ul", { class: "moments" });
  for (const m of moments) {
    const li = el("li", { testid, "data-session": m.session ?? null, "data-evidence": m.id || null });
    item?.(m, li);
    li.append(momentText(m));
    list.append(li);
  }
  return list;
}

/**
 * section is a part of a view: a heading (h3, id for aria-labelledby) and
 * what it holds.
 */
export function section(id, title, testid, ...children) {
  return el("section", { class: "story-part", testid, "aria-labelledby": id }, el("h3", { id, text: title }), ...children);
}

/**
 * viewStatus is what a view shows while its data loads or when it
 * failed (notFound(): the message of a 404), or null when it is ready.
 */
export function viewStatus(view, notFound) {
  if (view.status === "loading") return el("p", { class: "muted", testid: "view-loading", text: t("loading") });
  if (view.status !== "error") return null;
  const err = view.error;
  let msg = err?.message || t("errorNetwork");
  if (err instanceof APIError && err.status === 404) msg = notFound();
  else if (err instanceof APIError && err.code === "network") msg = t("errorNetwork");
  return el("p", { class: "error", role: "alert", testid: "view-error", text: msg });
}

/**
 * load fetches a view's data (fetch() resolves to it), drawing the view
 * again when it comes or fails, if the panel still shows it.
 */
export function load(view, fetch) {
  view.status = "loading";
  fetch().then(
    (data) => {
      view.data = data;
      view.status = "ready";
      refreshView(view);
    },
    (err) => {
      view.error = err;
      view.status = "error";
      refreshView(view);
    },
  );
}
