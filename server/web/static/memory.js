// Remembering and forgetting from the chat, as the terminal chat does: a
// line that asks it becomes a card that proposes the entry (saved only on
// a click) or lists the entries it may forget. Cards are never asked nor
// kept with the conversation.

import { APIError } from "./api.js";
import { ask } from "./chat.js";
import { el, reducedMotion, ui } from "./dom.js";
import { unauthorized } from "./session.js";
import { api, state, t } from "./state.js";

// A line that may ask to remember or to forget something: only those are
// sent to /api/memory/intent, which says whether they do. The server reads
// the line again: this check only spares the others a request.
export const MEMORY_LINE = /^\s*[¡¿]?\s*(recuerda|recordad|apunta|remember|olvida|forget)\b/i;

/**
 * memoryLine handles a line that may be about memory, as the terminal chat
 * does: the server says what it asks, and a card in the conversation
 * proposes the entry (saved only on a click) or lists what may be
 * forgotten. These lines are neither asked nor kept with the conversation:
 * what someone asks to forget must not stay in the browser. A line that
 * asks nothing of memory is asked as usual.
 */
export async function memoryLine(line) {
  let res;
  try {
    res = await api.memoryIntent(line);
  } catch (err) {
    // A server without the endpoint still answers the line as a question.
    if (err instanceof APIError && (err.status === 404 || err.status === 405)) return ask(line);
    if (unauthorized(err)) return;
    return addMemoryCard({ line, intent: "remember", status: "error", error: err });
  }
  if (!res || (res.intent !== "remember" && res.intent !== "forget")) return ask(line);
  const card = { line, intent: res.intent, status: "open", error: null };
  if (res.intent === "remember") {
    card.proposal = res.proposal || null;
    // The only reason a line proposes nothing: a player with no name.
    if (!card.proposal) card.status = "no-scope";
  } else card.candidates = Array.isArray(res.candidates) ? res.candidates : [];
  addMemoryCard(card);
}

function addMemoryCard(card) {
  card.id = ++state.seq;
  card.li = el("li", { class: "turn memory-turn", testid: "memory-turn" });
  state.memory.push(card);
  ui.empty.hidden = true;
  ui.conversation.append(card.li);
  renderMemoryCard(card);
  card.li.scrollIntoView({ block: "start", behavior: reducedMotion() ? "auto" : "smooth" });
}

/** memoryAction runs a card's save or forget, the card busy meanwhile. */
async function memoryAction(card, run, done) {
  if (card.status === "busy") return;
  card.status = "busy";
  card.error = null;
  renderMemoryCard(card);
  try {
    const v = await run();
    Object.assign(card, done(v));
  } catch (err) {
    card.status = "open";
    if (!unauthorized(err)) card.error = err;
  }
  if (!state.memory.includes(card)) return; // the conversation was left meanwhile
  renderMemoryCard(card);
  if (card.status !== "open" && !ui.chat.hidden) ui.input.focus({ preventScroll: true });
}

/** closeMemoryCard ends a card without a change (don't save, forget none). */
function closeMemoryCard(card, status) {
  card.status = status;
  card.error = null;
  renderMemoryCard(card);
  if (!ui.chat.hidden) ui.input.focus({ preventScroll: true });
}

function memoryErrorText(err) {
  if (!(err instanceof APIError)) return String(err && err.message ? err.message : err);
  if (err.code === "network") return t("errorNetwork");
  if (err.code === "unauthorized") return t("errorUnauthorized");
  return err.message ? `${t("errorStatus", err.status)} ${err.message}` : t("errorStatus", err.status);
}

function memoryEntry(m) {
  return `${m.id} · ${m.scope} · ${m.key}: ${m.value}`;
}

/** renderMemoryCard draws a memory card into card.li as it stands. */
export function renderMemoryCard(card) {
  const busy = card.status === "busy";
  const remember = card.intent === "remember";
  const line = el("div", { class: "bubble question", testid: "memory-line" }, el("h3", { class: "visually-hidden", text: t("you") }), el("p", { text: card.line }));
  const box = el("article", {
    class: "bubble answer memory-card",
    testid: remember ? "memory-proposal" : "memory-forget",
    "data-state": card.status,
    "data-id": card.saved?.id || card.forgotten || null,
    "aria-labelledby": `memory-h-${card.id}`,
    "aria-busy": String(busy),
  });
  const title = card.status === "error" ? t("memoryBadge") : remember ? t("memoryProposalTitle") : t("memoryForgetTitle");
  box.append(el("h3", { class: "memory-title", id: `memory-h-${card.id}`, text: title }));
  const say = (text, testid = "memory-status") => box.append(el("p", { class: "memory-text", role: "status", testid, text }));
  const row = (...buttons) => box.append(el("div", { class: "memory-actions" }, ...buttons));
  const button = (testid, text, onclick, attrs = {}) => el("button", { type: "button", class: "btn small", testid, text, disabled: busy, onclick, ...attrs });

  if (remember) {
    const p = card.proposal;
    if (card.status === "no-scope") say(t("memoryNoScope"));
    else if (card.status === "saved") {
      const m = card.saved;
      box.append(
        el(
          "p",
          { class: "memory-text", role: "status", testid: "memory-status" },
          t("memorySaved", m.id, m.scope, m.key),
          " ",
          el("code", { text: `oraculo memory verify ${m.id}` }),
          ".",
        ),
      );
    } else if (card.status === "discarded") say(t("memoryDiscarded"));
    else if (p) {
      say(t("memoryProposal"));
      box.append(
        el(
          "dl",
          { class: "facts memory-facts" },
          el("dt", { text: t("memoryScope") }),
          el("dd", { testid: "memory-scope", text: p.scope }),
          el("dt", { text: t("memoryKey") }),
          el("dd", { testid: "memory-key", text: p.key }),
          el("dt", { text: t("memoryValue") }),
          el("dd", { testid: "memory-value", text: p.value }),
        ),
      );
      row(
        button("memory-save", t("memorySave"), () =>
          memoryAction(
            card,
            () => api.addMemory({ scope: p.scope, key: p.key, value: p.value, verified: false }),
            (m) => ({ status: "saved", saved: m }),
          ),
          { class: "btn small primary" },
        ),
        button("memory-discard", t("memoryDiscard"), () => closeMemoryCard(card, "discarded")),
      );
    }
  } else if (card.status === "forgotten") say(t("memoryForgotten", card.forgotten));
  else if (card.status === "kept") say(t("memoryKept"));
  else if (!card.candidates.length) say(t("memoryForgetNone"));
  else {
    say(t("memoryForgetWhich"));
    const ul = el("ul", { class: "memory-candidates", testid: "memory-candidates" });
    for (const m of card.candidates) {
      ul.append(
        el(
          "li",
          { class: "memory-candidate", testid: "memory-candidate", "data-id": m.id },
          el("span", { class: "memory-entry", text: memoryEntry(m) }),
          button(
            "memory-forget-button",
            t("memoryForgetOne"),
            () =>
              memoryAction(
                card,
                () => api.forgetMemory(m.id),
                () => ({ status: "forgotten", forgotten: m.id }),
              ),
            { "data-id": m.id, "aria-label": t("memoryForgetLabel", m.id, m.key) },
          ),
        ),
      );
    }
    box.append(ul);
    row(button("memory-forget-none", t("memoryForgetNoneButton"), () => closeMemoryCard(card, "kept")));
  }
  if (card.error) box.append(el("div", { class: "error", role: "alert", testid: "memory-error" }, el("p", { text: memoryErrorText(card.error) })));
  card.li.replaceChildren(line, box);
}
