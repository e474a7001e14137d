// The recap of a session in the panel (GET /api/recap): the last session
// the reader may see, its events in order, each with the citation that
// opens its passage, and what was left open in it. The empty state
// offers it.

import { el } from "./dom.js";
import { load, momentList, section, viewStatus } from "./moment.js";
import { openView } from "./panel.js";
import { api, t } from "./state.js";

/** openRecap shows in the panel the recap of session (the last one when none); opener gets the focus back. */
export function openRecap(opener, session) {
  const view = { testid: "recap", status: "loading", data: null, error: null };
  view.eyebrow = () => t("recapTitle");
  view.label = () => (view.data ? [t("session", view.data.session), view.data.date].filter(Boolean).join(" · ") : t("recapLast"));
  view.state = () => view.status;
  view.backLabel = () => t("backToRecap");
  view.render = () => renderRecap(view);
  openView(view, opener);
  load(view, () => api.recap(session));
}

function renderRecap(view) {
  const status = viewStatus(view, () => t("recapNone"));
  if (status) return [status];
  const d = view.data;
  const out = [];
  if (d.files?.length) out.push(el("p", { class: "muted small", testid: "recap-files", text: `${t("file")}: ${d.files.join(", ")}` }));
  const events = Array.isArray(d.events) ? d.events : [];
  out.push(
    section(
      "recap-events-h",
      t("recapEvents"),
      "recap-events",
      events.length ? momentList(events, { ordered: true, testid: "recap-event" }) : el("p", { class: "muted", text: t("recapNoEvents") }),
    ),
  );
  const open = Array.isArray(d.open) ? d.open : [];
  out.push(
    section(
      "recap-open-h",
      t("recapLeftOpen"),
      "recap-open",
      open.length ? momentList(open, { testid: "recap-open-item" }) : el("p", { class: "muted", text: t("recapNothingOpen") }),
    ),
  );
  return out;
}

/** recapButton is the empty state's "Recap of the last session". */
export function recapButton() {
  const b = el("button", { type: "button", class: "btn story-entry", testid: "recap-button", "aria-controls": "passage", "aria-expanded": "false", text: t("recapOpen") });
  b.addEventListener("click", () => openRecap(b));
  return b;
}
