// Asking: a question (or a turn again) is posted with the turns before it
// as history, its answer streamed into the turn as it comes, the turn
// kept with the conversation and brought into view when done.

import { saveConversation } from "./conversationlist.js";
import { newID } from "./conversations.js";
import { $, reducedMotion, ui } from "./dom.js";
import { unauthorized } from "./session.js";
import { api, state } from "./state.js";
import { newTurn, setPending, stopPending } from "./thread.js";
import { renderTurn, scheduleDraft } from "./turn.js";

const HISTORY_TURNS = 8; // earlier turns sent with a question

// historyFor is what was asked and answered before turn.
function historyFor(turn) {
  const i = state.turns.indexOf(turn);
  return state.turns
    .slice(0, i < 0 ? state.turns.length : i)
    .filter((x) => x.status === "done" && x.answer)
    .slice(-HISTORY_TURNS)
    .map((x) => ({
      question: x.question,
      answer: x.answer.answer || "",
      query: x.answer.query || x.question,
      sessions: x.answer.cited_sessions || [], // what "¿y después?" goes on from
    }));
}

/** ask asks question in the conversation shown, unless one is being answered. */
export function ask(question) {
  if (state.pending || !question.trim()) return;
  const turn = newTurn(question.trim());
  state.turns.push(turn);
  ui.empty.hidden = true;
  ui.conversation.append(turn.li);
  if (!state.conv) state.conv = { id: newID(), title: "", created: Date.now() };
  runTurn(turn);
}

/** regenerate asks a turn's question again, its answer replaced by the new one. */
export function regenerate(turn) {
  if (state.pending || !state.turns.includes(turn)) return;
  Object.assign(turn, { status: "thinking", reasoning: false, draft: "", deltas: 0, answer: null, error: null });
  runTurn(turn);
}

/** runTurn asks the turn's question, with the turns before it as history, and shows the answer as it comes. */
async function runTurn(turn) {
  renderTurn(turn);
  turn.li.scrollIntoView({ block: "start", behavior: reducedMotion() ? "auto" : "smooth" });
  saveConversation();

  const controller = new AbortController();
  const hadFocus = document.activeElement === ui.input || document.activeElement === ui.submit;
  setPending({ turn, controller });
  try {
    turn.answer = await api.ask(
      { question: turn.question, history: historyFor(turn), lang: "" },
      {
        signal: controller.signal,
        onDelta(text) {
          turn.draft += text;
          turn.deltas++;
          if (turn.status === "thinking" || turn.reasoning) {
            turn.status = "streaming";
            turn.reasoning = false;
            renderTurn(turn);
          } else scheduleDraft(turn);
        },
        onThinking() {
          if (turn.reasoning) return;
          turn.reasoning = true;
          renderTurn(turn);
        },
      },
    );
    turn.status = "done";
    ui.banner.hidden = true;
  } catch (err) {
    if (err && err.name === "AbortError") {
      turn.status = "stopped";
    } else {
      turn.status = "error";
      turn.error = err;
      unauthorized(err);
    }
  } finally {
    turn.reasoning = false;
    setPending(null);
  }
  if (!state.turns.includes(turn)) return; // the conversation was left meanwhile
  renderTurn(turn);
  saveConversation();
  if (turn.status === "done") bringIntoView(turn);
  if (hadFocus && !ui.chat.hidden) ui.input.focus({ preventScroll: true });
}

/**
 * bringIntoView scrolls so that a new answer can be read from its start:
 * the whole turn above the composer when it fits, else its start just
 * below the header.
 */
function bringIntoView(turn) {
  const top = $(".topbar").getBoundingClientRect().bottom; // sticky: always on screen
  const bottom = ui.form.getBoundingClientRect().top;
  const r = turn.li.getBoundingClientRect();
  const margin = 12;
  let by = 0;
  if (r.height <= bottom - top - 2 * margin) {
    if (r.top < top + margin) by = r.top - top - margin;
    else if (r.bottom > bottom - margin) by = r.bottom - bottom + margin;
  } else by = r.top - top - margin;
  if (Math.abs(by) >= 1) window.scrollBy({ top: by, behavior: reducedMotion() ? "auto" : "smooth" });
}

ui.input.addEventListener("keydown", (e) => {
  if (e.key === "Enter" && !e.shiftKey && !e.isComposing) {
    e.preventDefault();
    ui.form.requestSubmit();
  }
});

/** autosize fits the question box to its text. */
export function autosize() {
  ui.input.style.height = "auto";
  ui.input.style.height = `${Math.min(ui.input.scrollHeight, 200)}px`;
}
ui.input.addEventListener("input", autosize);

ui.stop.addEventListener("click", () => {
  stopPending();
  ui.input.focus();
});
