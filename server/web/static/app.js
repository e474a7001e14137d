// Oráculo's chat page: a conversation with the notes, streamed answers
// whose citations open the cited passage beside them, its sentence
// marked. Conversations are kept in the browser.
//
// This module wires the page's features (one module each) and starts it:
// the language, the composer's question or memory line, the keys that
// close panels, a new conversation.

import { ask, autosize, regenerate } from "./chat.js";
import { closeConversations, renderConversations } from "./conversationlist.js";
import { ui } from "./dom.js";
import { languages, translator } from "./i18n.js";
import { renderIngest } from "./ingest.js";
import { MEMORY_LINE, memoryLine, renderMemoryCard } from "./memory.js";
import { onExample, renderEmpty } from "./overview.js";
import { closePanel, panelOpen, renderPanel, trapFocus } from "./panel.js";
import { checkHealth, renderRole } from "./session.js";
import { LANG_KEY, local, state, t } from "./state.js";
import { resetConversation } from "./thread.js";
import { onRegenerate, renderTurn } from "./turn.js";
import { renderWatch } from "./watch.js";

onRegenerate(regenerate);
onExample(ask);

// ---------------------------------------------------------------- language

function applyStaticStrings() {
  document.documentElement.lang = state.lang;
  document.title = `${t("title")} · ${t("tagline")}`;
  document.querySelector('meta[name="description"]')?.setAttribute("content", t("description"));
  for (const e of document.querySelectorAll("[data-i18n]")) e.textContent = t(e.dataset.i18n);
  for (const e of document.querySelectorAll("[data-i18n-label]")) e.setAttribute("aria-label", t(e.dataset.i18nLabel));
  for (const e of document.querySelectorAll("[data-i18n-placeholder]")) e.placeholder = t(e.dataset.i18nPlaceholder);
  for (const e of document.querySelectorAll("[data-i18n-title]")) e.title = t(e.dataset.i18nTitle);
  for (const b of document.querySelectorAll("[data-lang]")) b.setAttribute("aria-pressed", String(b.dataset.lang === state.lang));
  renderRole();
}

/** setLanguage switches the page to lang, everything shown drawn again in it. */
function setLanguage(lang) {
  if (!languages.includes(lang) || lang === state.lang) return;
  state.lang = lang;
  state.t = translator(lang);
  local?.setItem(LANG_KEY, lang);
  const url = new URL(location.href);
  if (url.searchParams.has("lang")) {
    url.searchParams.set("lang", lang);
    history.replaceState(null, "", url);
  }
  applyStaticStrings();
  for (const turn of state.turns) renderTurn(turn);
  for (const card of state.memory) renderMemoryCard(card);
  renderPanel();
  renderEmpty();
  renderWatch();
  renderConversations();
  renderIngest();
}

for (const b of document.querySelectorAll("[data-lang]")) {
  b.addEventListener("click", () => setLanguage(b.dataset.lang));
}

// ---------------------------------------------------------------- the composer

ui.form.addEventListener("submit", (e) => {
  e.preventDefault();
  const q = ui.input.value;
  if (!q.trim()) {
    ui.input.focus();
    return;
  }
  ui.input.value = "";
  autosize();
  if (MEMORY_LINE.test(q)) memoryLine(q.trim());
  else ask(q);
});

ui.newConversation.addEventListener("click", () => {
  resetConversation();
  state.store?.setCurrent("");
  renderConversations();
  ui.input.value = "";
  autosize();
  if (!ui.chat.hidden) ui.input.focus();
});

// Escape closes the conversations list, else the passage panel.
document.addEventListener("keydown", (e) => {
  if (e.key === "Escape" && !ui.convPanel.hidden) {
    e.preventDefault();
    closeConversations(true);
    return;
  }
  if (e.key === "Escape" && panelOpen()) {
    e.preventDefault();
    closePanel();
    return;
  }
  trapFocus(e);
});

// ---------------------------------------------------------------- start

applyStaticStrings();
autosize();
checkHealth();
ui.input.focus({ preventScroll: true });
document.documentElement.dataset.ready = "true";
