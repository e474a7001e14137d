// The DM's update: the server reads the notes again (POST /api/ingest),
// and the page follows it to the end (GET /api/ingest), its stage and
// progress shown, then the overview and the passages fetched again.

import { APIError } from "./api.js";
import { el, icon, ui } from "./dom.js";
import { loadOverview } from "./overview.js";
import { forgetChunks } from "./panel.js";
import { api, t } from "./state.js";

const INGEST_POLL_MS = 400;

let ingest = null; // {state: "running" | "done" | "error", ...}: the DM's update
let ingestRun = 0; // the update being followed; a newer number stops the older

/** stopIngest forgets the update shown, and stops following it (signing out). */
export function stopIngest() {
  ingest = null;
  ingestRun++;
  renderIngest();
}

ui.update.addEventListener("click", updateIndex);

/** updateIndex has the server read the notes again, and follows it to the end. */
async function updateIndex() {
  if (ingest?.state === "running") return;
  const run = ++ingestRun;
  ingest = { state: "running", status: null };
  renderIngest();
  try {
    await api.startIngest();
  } catch (err) {
    // One already running (started elsewhere) is followed as ours.
    const st = err instanceof APIError && err.status === 409 ? await api.ingestStatus().catch(() => null) : null;
    if (!st?.running) {
      if (run !== ingestRun) return;
      ingest = { state: "error", message: err.message || t("errorNetwork") };
      renderIngest();
      return;
    }
  }
  followIngest(run);
}

/** resumeIngest follows an update that was running when the page was loaded. */
export async function resumeIngest() {
  const st = await api.ingestStatus().catch(() => null);
  if (!st?.running || ingest?.state === "running") return;
  const run = ++ingestRun;
  ingest = { state: "running", status: st };
  renderIngest();
  followIngest(run);
}

async function followIngest(run) {
  for (;;) {
    await new Promise((r) => setTimeout(r, INGEST_POLL_MS));
    if (run !== ingestRun) return;
    let st;
    try {
      st = await api.ingestStatus();
    } catch (err) {
      if (run !== ingestRun) return;
      ingest = { state: "error", message: err.message || t("errorNetwork") };
      renderIngest();
      return;
    }
    if (run !== ingestRun) return;
    if (st.running) {
      ingest = { state: "running", status: st };
      renderIngest();
      continue;
    }
    ingest = st.error ? { state: "error", message: st.error } : { state: "done", report: st.last || {} };
    // Passages may have changed: what was fetched is fetched again.
    forgetChunks();
    renderIngest();
    loadOverview();
    return;
  }
}

const STAGE_KEYS = { read: "ingestRead", embed: "ingestEmbed", graph: "ingestGraph", annotate: "ingestAnnotate" };

/** renderIngest draws how the DM's update goes, if there is one. */
export function renderIngest() {
  const g = ingest;
  const running = g?.state === "running";
  ui.update.disabled = running;
  ui.update.setAttribute("aria-busy", String(running));
  ui.ingestStatus.hidden = !g;
  if (!g) {
    delete ui.ingestStatus.dataset.state;
    ui.ingestStatus.replaceChildren();
    return;
  }
  ui.ingestStatus.dataset.state = g.state;
  const parts = [];
  if (running) {
    const p = g.status?.progress;
    const stage = p?.stage && STAGE_KEYS[p.stage] ? t(STAGE_KEYS[p.stage]) : p?.stage || t("ingestStarting");
    const bar = el("progress", { class: "ingest-bar", testid: "ingest-progress", "aria-label": t("ingestProgress") });
    if (p?.total > 0) {
      bar.max = p.total;
      bar.value = Math.min(p.done, p.total);
    }
    parts.push(
      el("span", { class: "dots", "aria-hidden": "true" }, el("span"), el("span"), el("span")),
      el("span", { class: "ingest-text", role: "status", testid: "ingest-stage", text: stage }),
      bar,
      el("span", { class: "ingest-count", testid: "ingest-count", text: p?.total > 0 ? `${p.done}/${p.total}` : "" }),
    );
  } else {
    const r = g.report || {};
    const text = g.state === "done" ? t("ingestDone", r.indexed ?? 0, r.deleted ?? 0, r.files ?? 0) : t("ingestFailed", g.message || "");
    parts.push(el("span", { class: "ingest-text", role: g.state === "error" ? "alert" : "status", testid: "ingest-stage", text }));
    const dismiss = el("button", { type: "button", class: "btn icon ghost", testid: "ingest-dismiss", "aria-label": t("close"), title: t("close") }, icon("close"));
    dismiss.addEventListener("click", () => {
      ingest = null;
      renderIngest();
      ui.update.focus();
    });
    parts.push(dismiss);
  }
  ui.ingestStatus.replaceChildren(...parts);
}
