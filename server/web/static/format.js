// Dates, times, durations and lists written in the page's language.

import { state, t } from "./state.js";

// formatDate writes the date v with options, "" for no date, as
// fallback(date) does where Intl cannot.
function formatDate(v, options, fallback) {
  const d = new Date(v);
  if (Number.isNaN(d.getTime())) return "";
  try {
    return new Intl.DateTimeFormat(state.lang, options).format(d);
  } catch {
    return fallback(d);
  }
}

/** fmtDate writes a date and time, "" for no date. */
export const fmtDate = (v) => formatDate(v, { dateStyle: "medium", timeStyle: "short" }, (d) => d.toLocaleString());

/** fmtTime writes the hour and minute of a date, "" for no date. */
export const fmtTime = (v) => formatDate(v, { hour: "2-digit", minute: "2-digit" }, (d) => d.toLocaleTimeString());

/** fmtMs writes a duration in milliseconds. */
export function fmtMs(v) {
  const n = Number(v) || 0;
  return t("ms", n.toLocaleString(state.lang, { maximumFractionDigits: n < 10 ? 1 : 0 }));
}

/** listOf joins items as a sentence does ("a, b y c"). */
export function listOf(items) {
  try {
    return new Intl.ListFormat(state.lang, { type: "conjunction" }).format(items);
  } catch {
    return items.join(", ");
  }
}
