// The watcher: while the server watches the notes (serve --watch), the
// page asks every WATCH_POLL_MS when the index last changed, and says so.

import { ui } from "./dom.js";
import { fmtTime } from "./format.js";
import { indexUpdated, updateOverview } from "./overview.js";
import { api, t } from "./state.js";

const WATCH_POLL_MS = 12_000;
let watch = null; // the server's watcher, as GET /api/health reports it
let watchTimer = 0;

function watching(w) {
  return !!w && (w.state === "watching" || w.state === "polling");
}

/** followWatch takes the watcher's state from a health report and polls while it watches. */
export function followWatch(w) {
  watch = w || null;
  renderWatch();
  if (watching(watch) && !watchTimer) watchTimer = setTimeout(pollWatch, WATCH_POLL_MS);
}

async function pollWatch() {
  watchTimer = 0;
  try {
    const [h, o] = await Promise.all([api.health(), api.overview()]);
    updateOverview(o);
    followWatch(h.watch);
  } catch {
    // The server is away: try again later, as before.
    if (watching(watch)) watchTimer = setTimeout(pollWatch, WATCH_POLL_MS);
  }
}

/** renderWatch says, while the server watches the notes, when the index last changed. */
export function renderWatch() {
  const w = watch;
  const updated = indexUpdated() || w?.last_update;
  ui.watchStatus.hidden = !watching(w);
  if (ui.watchStatus.hidden) return;
  ui.watchStatus.dataset.state = w.state;
  ui.watchStatus.dataset.updated = updated || "";
  ui.watchStatus.textContent = updated ? t("watchUpdated", fmtTime(updated)) : t("watchWatching");
}
