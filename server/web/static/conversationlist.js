// The conversations kept in this browser, as the page shows them: the one
// shown saved as it changes, and the list to open, rename, export or
// delete one (conversations.js keeps them).

import { APIError } from "./api.js";
import { fileNameFor, titleFor, toMarkdown } from "./conversations.js";
import { $, el, icon, ui } from "./dom.js";
import { fmtDate } from "./format.js";
import { state, t } from "./state.js";
import { newTurn, resetConversation } from "./thread.js";
import { renderTurn } from "./turn.js";

let renaming = null; // the id of the conversation being renamed

/** showConversation draws a kept conversation in place of the one shown. */
export function showConversation(conv) {
  resetConversation();
  state.conv = { id: conv.id, title: conv.title || "", created: conv.created || Date.now() };
  for (const x of conv.turns) {
    const turn = newTurn(String(x.question || ""));
    turn.status = x.status === "done" && x.answer ? "done" : x.status === "error" ? "error" : "stopped";
    turn.answer = turn.status === "done" ? x.answer : null;
    turn.draft = x.draft || "";
    if (turn.status === "error") turn.error = new APIError(x.error?.message || "", x.error?.status || 0, x.error?.code || "status");
    state.turns.push(turn);
    ui.conversation.append(turn.li);
    renderTurn(turn);
  }
  ui.empty.hidden = state.turns.length > 0;
  state.store?.setCurrent(conv.id);
}

/** saveConversation keeps the conversation shown, as it is now. */
export function saveConversation() {
  const c = state.conv;
  if (!state.store || !c || !state.turns.length) return;
  const turns = state.turns.map((x) => {
    // A question still being answered is kept as stopped: a reload ends it.
    const status = x.status === "thinking" || x.status === "streaming" ? "stopped" : x.status;
    return {
      question: x.question,
      status,
      answer: status === "done" ? x.answer : null,
      draft: status === "done" ? "" : x.draft,
      error: status === "error" ? { message: x.error?.message || "", status: x.error?.status || 0, code: x.error?.code || "" } : null,
    };
  });
  state.store.save({ id: c.id, title: c.title || titleFor(turns[0].question), created: c.created, updated: Date.now(), turns });
  state.store.setCurrent(c.id);
  renderConversations();
}

function iconButton(name, label, testid, onclick) {
  const b = el("button", { type: "button", class: "btn icon ghost", testid, "aria-label": label, title: label }, icon(name));
  b.addEventListener("click", onclick);
  return b;
}

/** renderConversations draws the list of the conversations kept. */
export function renderConversations() {
  const list = state.store?.list() || [];
  const items = list.map(conversationItem);
  if (!items.length) items.push(el("li", { class: "conv-none muted", testid: "conversations-none", text: t("noConversations") }));
  ui.convList.replaceChildren(...items);
}

function conversationItem(c) {
  const title = c.title || t("untitled");
  const li = el("li", { class: "conv-item", testid: "conversation-item", "data-id": c.id, "aria-current": state.conv?.id === c.id ? "true" : null });
  if (renaming === c.id) {
    const input = el("input", { type: "text", class: "conv-rename", testid: "rename-input", value: title, maxlength: "120", "aria-label": t("renameLabel"), spellcheck: "false" });
    const form = el("form", { class: "conv-rename-form", testid: "rename-form" }, input, el("button", { type: "submit", class: "btn small", testid: "rename-save", text: t("save") }));
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      finishRename(c.id, input.value);
    });
    input.addEventListener("keydown", (e) => {
      if (e.key !== "Escape") return;
      e.preventDefault();
      e.stopPropagation();
      finishRename(c.id, null);
    });
    li.append(form);
    queueMicrotask(() => {
      input.focus();
      input.select();
    });
    return li;
  }
  const open = el(
    "button",
    { type: "button", class: "conv-open", testid: "conversation-open" },
    el("span", { class: "conv-title", testid: "conversation-title", text: title }),
    el("span", { class: "conv-date", text: t("turns", c.turns.length) + " · " + fmtDate(c.updated) }),
  );
  open.addEventListener("click", () => openConversation(c.id));
  const actions = el(
    "span",
    { class: "conv-actions" },
    iconButton("rename", t("rename", title), "conversation-rename", () => {
      renaming = c.id;
      renderConversations();
    }),
    iconButton("export", t("export", title), "conversation-export", () => exportConversation(c.id)),
    iconButton("delete", t("delete", title), "conversation-delete", () => deleteConversation(c.id)),
  );
  li.append(open, actions);
  return li;
}

function finishRename(id, title) {
  renaming = null;
  const name = title?.replace(/\s+/g, " ").trim();
  if (name) {
    state.store?.rename(id, name);
    if (state.conv?.id === id) state.conv.title = name;
  }
  renderConversations();
  $(`[data-testid="conversation-item"][data-id="${CSS.escape(id)}"] [data-testid="conversation-rename"]`, ui.convList)?.focus();
}

function openConversation(id) {
  const conv = state.store?.get(id);
  if (!conv) return;
  showConversation(conv);
  renderConversations();
  closeConversations(false);
  ui.input.focus({ preventScroll: true });
  state.turns.at(-1)?.li.scrollIntoView({ block: "start" });
}

function deleteConversation(id) {
  state.store?.remove(id);
  if (state.conv?.id === id) resetConversation();
  renderConversations();
  ($('[data-testid="conversation-open"]', ui.convList) || ui.convToggle).focus();
}

/** exportConversation saves a conversation as a Markdown file. */
function exportConversation(id) {
  if (state.conv?.id === id) saveConversation();
  const conv = state.store?.get(id);
  if (!conv) return;
  const url = URL.createObjectURL(new Blob([toMarkdown(conv, t)], { type: "text/markdown;charset=utf-8" }));
  const a = el("a", { href: url, download: fileNameFor(conv), hidden: true });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** closeConversations hides the list, the focus back on its toggle when restoreFocus. */
export function closeConversations(restoreFocus) {
  if (ui.convPanel.hidden) return;
  ui.convPanel.hidden = true;
  ui.convToggle.setAttribute("aria-expanded", "false");
  renaming = null;
  if (restoreFocus) ui.convToggle.focus();
}

ui.convToggle.addEventListener("click", () => {
  if (!ui.convPanel.hidden) return closeConversations(false);
  renderConversations();
  ui.convPanel.hidden = false;
  ui.convToggle.setAttribute("aria-expanded", "true");
  ($('[aria-current="true"] [data-testid="conversation-open"]', ui.convList) || $('[data-testid="conversation-open"]', ui.convList))?.focus();
});

document.addEventListener("click", (e) => {
  // A click that redrew the list took its target out of the page: it was inside.
  if (ui.convPanel.hidden || !e.target.isConnected) return;
  if (!ui.convPanel.contains(e.target) && !ui.convToggle.contains(e.target)) closeConversations(false);
});
