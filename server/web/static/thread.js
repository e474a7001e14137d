// The conversation shown: its turns and memory cards, and the question
// being answered, which only one may be at a time.

import { el, ui } from "./dom.js";
import { renderEmpty } from "./overview.js";
import { closePanel } from "./panel.js";
import { state } from "./state.js";

/** newTurn is a turn asking question, not yet answered nor shown. */
export function newTurn(question) {
  // reasoning: the model said it is thinking, and no text came since.
  const turn = { id: ++state.seq, question, status: "thinking", reasoning: false, draft: "", deltas: 0, answer: null, error: null };
  turn.li = el("li", { class: "turn", testid: "turn" });
  return turn;
}

/** setPending records the question being answered ({turn, controller}), or none, and shows Stop meanwhile. */
export function setPending(p) {
  state.pending = p;
  ui.submit.hidden = !!p;
  ui.stop.hidden = !p;
  ui.form.setAttribute("aria-busy", String(!!p));
  for (const b of document.querySelectorAll('[data-testid="regenerate"]')) b.disabled = !!p;
}

/** stopPending stops the question being answered, if any. */
export function stopPending() {
  state.pending?.controller.abort();
}

/** resetConversation leaves the conversation shown for an empty one. */
export function resetConversation() {
  stopPending();
  closePanel(false);
  state.turns = [];
  state.memory = [];
  state.conv = null;
  ui.conversation.replaceChildren();
  ui.empty.hidden = false;
  renderEmpty();
}
