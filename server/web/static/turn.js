// One turn of the conversation drawn: the question, and the answer as it
// stands (thinking, streaming its draft, stopped, failed or done, with its
// notes, Copy and Regenerate, and how it was found).

import { citedMarkdown, renderAnswerNotes } from "./answer.js";
import { APIError } from "./api.js";
import { answerText } from "./conversations.js";
import { $, el, icon } from "./dom.js";
import { linkNames, renderMarkdown } from "./markdown.js";
import { state, t } from "./state.js";
import { linkTimelines } from "./timeline.js";
import { renderTrace } from "./trace.js";

let regenerate = null; // what Regenerate and Retry do, given by onRegenerate

/** onRegenerate sets what a turn's Regenerate and Retry buttons do with the turn. */
export function onRegenerate(handler) {
  regenerate = handler;
}

/** scheduleDraft redraws a streaming answer's draft at the next frame. */
export function scheduleDraft(turn) {
  if (turn.frame) return;
  turn.frame = requestAnimationFrame(() => {
    turn.frame = 0;
    if (turn.status !== "streaming" || !turn.textEl) return;
    const nearBottom = window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 120;
    // The draft is unverified text: its brackets are shown as written.
    turn.textEl.replaceChildren(renderMarkdown(turn.draft));
    if (nearBottom) window.scrollTo({ top: document.documentElement.scrollHeight });
  });
}

/** renderTurn draws a turn (its question, and its answer as far as it is) into turn.li. */
export function renderTurn(turn) {
  const li = turn.li;
  li.dataset.state = turn.status;
  const question = el(
    "div",
    { class: "bubble question", testid: "turn-question" },
    el("h3", { class: "visually-hidden", text: t("you") }),
    el("p", { text: turn.question }),
  );
  const busy = turn.status === "thinking" || turn.status === "streaming";
  const reasoning = busy && turn.reasoning;
  const article = el("article", {
    class: "bubble answer",
    testid: "turn-answer",
    "data-state": turn.status,
    "data-reasoning": String(reasoning),
    "data-deltas": String(turn.deltas),
    "aria-labelledby": `answer-h-${turn.id}`,
  });
  article.append(el("h3", { class: "visually-hidden", id: `answer-h-${turn.id}`, text: t("oracle") }));

  const status = el("p", { class: "status", role: "status", testid: "thinking" });
  if (busy) {
    const says = reasoning ? t("modelThinking") : turn.status === "thinking" ? t("thinking") : t("writing");
    status.append(el("span", { class: "dots", "aria-hidden": "true" }, el("span"), el("span"), el("span")), " ", says);
  }
  article.append(status);

  const text = el("div", { class: `answer-text md${turn.status === "streaming" ? " draft" : ""}`, testid: "answer-text", "aria-live": "polite", "aria-busy": String(busy) });
  turn.textEl = text;
  article.append(text);

  if (turn.status === "streaming" || turn.status === "stopped") {
    text.append(renderMarkdown(turn.draft));
  }
  if (turn.status === "stopped") {
    article.append(el("p", { class: "note", text: t("stopped") }));
  }
  if (turn.status === "error") {
    if (turn.draft) text.append(renderMarkdown(turn.draft));
    article.append(renderError(turn));
  }
  if (turn.status === "done") {
    const a = turn.answer || {};
    // Screen readers then read the answer in its own language.
    if (a.lang) text.lang = a.lang;
    text.append(citedMarkdown(a));
    // The names the answer's notes link to notes the reader may see.
    linkNames(text, a.note_links);
    // And the names of the compendium open their timeline.
    linkTimelines(text);
    article.append(...renderAnswerNotes(a));
    article.append(renderActions(turn));
    article.append(renderTrace(a));
  } else if (turn.status === "stopped") {
    article.append(renderActions(turn));
  }
  li.replaceChildren(question, article);
}

/** renderActions draws an answer's Copy (when it is done) and Regenerate buttons. */
function renderActions(turn) {
  const row = el("div", { class: "answer-actions" });
  if (turn.status === "done") {
    const copy = el(
      "button",
      { type: "button", class: "btn small quiet", testid: "copy-answer" },
      icon("copy"),
      el("span", { class: "copy-label", text: t("copy") }),
    );
    copy.addEventListener("click", async () => {
      const ok = await copyText(answerText(turn.answer));
      copy.dataset.copied = String(ok);
      $(".copy-label", copy).textContent = ok ? t("copied") : t("copyFailed");
      clearTimeout(copy.timer);
      copy.timer = setTimeout(() => {
        delete copy.dataset.copied;
        $(".copy-label", copy).textContent = t("copy");
      }, 2000);
    });
    row.append(copy);
  }
  const again = el(
    "button",
    { type: "button", class: "btn small quiet", testid: "regenerate", disabled: !!state.pending },
    icon("regenerate"),
    el("span", { text: t("regenerate") }),
  );
  again.addEventListener("click", () => regenerate?.(turn));
  row.append(again);
  return row;
}

/** copyText puts text on the clipboard, by the old way when the new one is refused. */
async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const box = el("textarea", { class: "visually-hidden", readonly: true, "aria-hidden": "true" });
    box.value = text;
    document.body.append(box);
    box.select();
    let ok = false;
    try {
      ok = document.execCommand("copy");
    } catch {
      ok = false;
    }
    box.remove();
    return ok;
  }
}

function renderError(turn) {
  const err = turn.error;
  let msg;
  if (err instanceof APIError) {
    if (err.code === "network") msg = t("errorNetwork");
    else if (err.code === "stream") msg = t("errorStream");
    else if (err.code === "unauthorized") msg = t("errorUnauthorized");
    else msg = err.message || t("errorStatus", err.status);
    if (err.code === "status" && err.message && err.status >= 400) msg = `${t("errorStatus", err.status)} ${err.message}`;
  } else {
    msg = String(err && err.message ? err.message : err);
  }
  const retry = el("button", { type: "button", class: "btn small", testid: "retry", text: t("retry") });
  retry.addEventListener("click", () => regenerate?.(turn));
  return el("div", { class: "error", role: "alert", testid: "turn-error" }, el("p", { text: msg }), retry);
}
