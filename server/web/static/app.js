// Oráculo's chat page: a conversation with the notes, streamed answers
// whose citations open the cited passage beside them, its sentence
// marked. Conversations are kept in the browser.

import { APIError, createAPI } from "./api.js";
import { answerText, createStore, fileNameFor, newID, titleFor, toMarkdown } from "./conversations.js";
import { languages, pickLanguage, translator } from "./i18n.js";
import { linkNames, markSentence, noteLinks, renderInline, renderMarkdown } from "./markdown.js";

const TOKEN_KEY = "oraculo.token";
const LANG_KEY = "oraculo.lang";
const HISTORY_TURNS = 8; // earlier turns sent with a question
const CANDIDATES_SHOWN = 10; // rows of the trace's table before "show all"
const EXAMPLES = 3; // example questions in the empty state
const CLAIM_CHARS = 300; // of the text before a citation, sent to find its sentence
const INGEST_POLL_MS = 400;
const NARROW = window.matchMedia("(max-width: 959px)");

const $ = (sel, root = document) => root.querySelector(sel);

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v == null || v === false) continue;
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k === "testid") e.dataset.testid = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? "" : v);
  }
  e.append(...children.filter((c) => c != null && c !== false));
  return e;
}

function storage(kind) {
  try {
    return window[kind];
  } catch {
    return null; // storage disabled: the page still works, it just forgets
  }
}
const local = storage("localStorage");

const state = {
  lang: pickLanguage(location.search, local?.getItem(LANG_KEY), navigator.languages || [navigator.language]),
  t: null,
  token: local?.getItem(TOKEN_KEY) || "",
  auth: false,
  role: "",
  turns: [],
  memory: [], // the cards of "recuerda que …" / "olvida …" lines: never kept, never asked
  pending: null, // {turn, controller}
  panel: null, // {ref, opener, view: "chunk" | "note"}
  chunks: new Map(), // id + claim -> Promise of the chunk
  seq: 0,
  store: null, // the conversations of the signed-in role
  conv: null, // {id, title, created}: the conversation shown, null until its first question
  overview: null, // what the role sees of the index, for the empty state
  entities: null, // the role's compendium, for example questions
  ingest: null, // {state: "running" | "done" | "error", ...}: the DM's update
  watch: null, // the server's watcher, as GET /api/health reports it
};
state.t = translator(state.lang);
const t = (...a) => state.t(...a);

const api = createAPI(() => state.token);

const ui = {
  conversation: $('[data-testid="conversation"]'),
  empty: $('[data-testid="empty-state"]'),
  form: $('[data-testid="ask-form"]'),
  input: $('[data-testid="question-input"]'),
  submit: $('[data-testid="ask-submit"]'),
  stop: $('[data-testid="ask-stop"]'),
  chat: $('[data-testid="chat"]'),
  banner: $('[data-testid="server-banner"]'),
  role: $('[data-testid="role"]'),
  signin: $('[data-testid="signin"]'),
  signinForm: $('[data-testid="signin-form"]'),
  signinError: $('[data-testid="signin-error"]'),
  token: $('[data-testid="token-input"]'),
  signOut: $('[data-testid="sign-out"]'),
  newConversation: $('[data-testid="new-conversation"]'),
  layout: $('[data-testid="layout"]'),
  panel: $('[data-testid="passage-panel"]'),
  panelLabel: $('[data-testid="passage-label"]'),
  panelBody: $('[data-testid="passage-body"]'),
  panelClose: $('[data-testid="passage-close"]'),
  backdrop: $('[data-testid="passage-backdrop"]'),
  indexInfo: $('[data-testid="index-info"]'),
  examples: $('[data-testid="examples"]'),
  update: $('[data-testid="update-index"]'),
  ingestStatus: $('[data-testid="ingest-status"]'),
  watchStatus: $('[data-testid="watch-status"]'),
  convToggle: $('[data-testid="conversations-toggle"]'),
  convPanel: $('[data-testid="conversations"]'),
  convList: $('[data-testid="conversation-list"]'),
  icons: $("#icons"),
};

// ---------------------------------------------------------------- language

function applyStaticStrings() {
  document.documentElement.lang = state.lang;
  document.title = `${t("title")} · ${t("tagline")}`;
  for (const e of document.querySelectorAll("[data-i18n]")) e.textContent = t(e.dataset.i18n);
  for (const e of document.querySelectorAll("[data-i18n-label]")) e.setAttribute("aria-label", t(e.dataset.i18nLabel));
  for (const e of document.querySelectorAll("[data-i18n-placeholder]")) e.placeholder = t(e.dataset.i18nPlaceholder);
  for (const e of document.querySelectorAll("[data-i18n-title]")) e.title = t(e.dataset.i18nTitle);
  for (const b of document.querySelectorAll("[data-lang]")) b.setAttribute("aria-pressed", String(b.dataset.lang === state.lang));
  renderRole();
}

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
  if (state.panel) renderPanel();
  renderEmpty();
  renderWatch();
  renderConversations();
  renderIngest();
}

// ---------------------------------------------------------------- auth

function renderRole() {
  const r = state.role === "dm" ? t("roleDM") : state.role === "player" ? t("rolePlayer") : "";
  ui.role.textContent = r;
  ui.role.title = r;
  ui.role.hidden = !r;
  ui.signOut.hidden = !(state.auth && state.token);
  // Only the DM may read the notes again; the server refuses anyone else.
  ui.update.hidden = state.role !== "dm" || ui.chat.hidden;
}

function showSignIn(message) {
  ui.signin.hidden = false;
  ui.chat.hidden = true;
  ui.newConversation.hidden = true;
  ui.convToggle.hidden = true;
  closeConversations(false);
  ui.signinError.textContent = message || "";
  ui.signinError.hidden = !message;
  renderRole();
  ui.token.focus();
}

function hideSignIn() {
  ui.signin.hidden = true;
  ui.chat.hidden = false;
  ui.newConversation.hidden = false;
  ui.convToggle.hidden = false;
  renderRole();
  startSession();
}

async function checkHealth() {
  try {
    const h = await api.health();
    ui.banner.hidden = true;
    followWatch(h.watch);
    state.auth = !!h.auth;
    state.role = h.role || "";
    if (state.auth && !state.token) showSignIn();
    else if (state.auth && !state.role) {
      // The server names the role of a token it accepts: none, and the
      // token is wrong or was revoked.
      forgetToken();
      showSignIn(t("tokenWrong"));
    } else hideSignIn();
  } catch (err) {
    if (err instanceof APIError && err.code === "unauthorized") {
      state.auth = true;
      forgetToken();
      showSignIn(t("tokenWrong"));
      return;
    }
    ui.banner.textContent = t("serverDown");
    ui.banner.hidden = false;
  }
}

function forgetToken() {
  state.token = "";
  state.role = "";
  local?.removeItem(TOKEN_KEY);
}

ui.signinForm.addEventListener("submit", async (e) => {
  e.preventDefault();
  const token = ui.token.value.trim();
  if (!token) {
    ui.token.focus();
    return;
  }
  state.token = token;
  local?.setItem(TOKEN_KEY, token);
  ui.token.value = "";
  await checkHealth();
  if (ui.signin.hidden) ui.input.focus();
});

ui.signOut.addEventListener("click", () => {
  stopPending();
  forgetToken();
  resetConversation();
  state.store = null;
  state.overview = state.entities = state.ingest = null;
  state.ingestRun = (state.ingestRun || 0) + 1; // an update being followed is no longer
  renderIngest();
  showSignIn();
});

// ---------------------------------------------------------------- asking

// historyFor is what was asked and answered before turn.
function historyFor(turn) {
  const i = state.turns.indexOf(turn);
  return state.turns
    .slice(0, i < 0 ? state.turns.length : i)
    .filter((x) => x.status === "done" && x.answer)
    .slice(-HISTORY_TURNS)
    .map((x) => ({ question: x.question, answer: x.answer.answer || "", query: x.answer.query || x.question }));
}

function setPending(p) {
  state.pending = p;
  ui.submit.hidden = !!p;
  ui.stop.hidden = !p;
  ui.form.setAttribute("aria-busy", String(!!p));
  for (const b of document.querySelectorAll('[data-testid="regenerate"]')) b.disabled = !!p;
}

function stopPending() {
  state.pending?.controller.abort();
}

function ask(question) {
  if (state.pending || !question.trim()) return;
  const turn = newTurn(question.trim());
  state.turns.push(turn);
  ui.empty.hidden = true;
  ui.conversation.append(turn.li);
  if (!state.conv) state.conv = { id: newID(), title: "", created: Date.now() };
  runTurn(turn);
}

function newTurn(question) {
  // reasoning: the model said it is thinking, and no text came since.
  const turn = { id: ++state.seq, question, status: "thinking", reasoning: false, draft: "", deltas: 0, answer: null, error: null };
  turn.li = el("li", { class: "turn", testid: "turn" });
  return turn;
}

/** regenerate asks a turn's question again, its answer replaced by the new one. */
function regenerate(turn) {
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
      if (err instanceof APIError && err.code === "unauthorized") {
        state.auth = true;
        forgetToken();
        showSignIn(t("tokenWrong"));
      }
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

ui.input.addEventListener("keydown", (e) => {
  if (e.key === "Enter" && !e.shiftKey && !e.isComposing) {
    e.preventDefault();
    ui.form.requestSubmit();
  }
});

function autosize() {
  ui.input.style.height = "auto";
  ui.input.style.height = `${Math.min(ui.input.scrollHeight, 200)}px`;
}
ui.input.addEventListener("input", autosize);

ui.stop.addEventListener("click", () => {
  stopPending();
  ui.input.focus();
});

function resetConversation() {
  stopPending();
  closePanel(false);
  state.turns = [];
  state.memory = [];
  state.conv = null;
  ui.conversation.replaceChildren();
  ui.empty.hidden = false;
  renderEmpty();
}

ui.newConversation.addEventListener("click", () => {
  resetConversation();
  state.store?.setCurrent("");
  renderConversations();
  ui.input.value = "";
  autosize();
  if (!ui.chat.hidden) ui.input.focus();
});

for (const b of document.querySelectorAll("[data-lang]")) {
  b.addEventListener("click", () => setLanguage(b.dataset.lang));
}

// ---------------------------------------------------------------- remember and forget

// A line that may ask to remember or to forget something: only those are
// sent to /api/memory/intent, which says whether they do. The server reads
// the line again: this check only spares the others a request.
const MEMORY_LINE = /^\s*[¡¿]?\s*(recuerda|recordad|apunta|remember|olvida|forget)\b/i;

/**
 * memoryLine handles a line that may be about memory, as the terminal chat
 * does: the server says what it asks, and a card in the conversation
 * proposes the entry (saved only on a click) or lists what may be
 * forgotten. These lines are neither asked nor kept with the conversation:
 * what someone asks to forget must not stay in the browser. A line that
 * asks nothing of memory is asked as usual.
 */
async function memoryLine(line) {
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

/** unauthorized sends the user to sign in again when err says the token is no good. */
function unauthorized(err) {
  if (!(err instanceof APIError && err.code === "unauthorized")) return false;
  state.auth = true;
  forgetToken();
  showSignIn(t("tokenWrong"));
  return true;
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

function renderMemoryCard(card) {
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

// ---------------------------------------------------------------- rendering a turn

function reducedMotion() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

function scheduleDraft(turn) {
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

// A citation group the server resolved is replaced, before the Markdown
// is rendered, by "[" + CITE_MARK + its index + "]": a bracket group that
// only answerCite turns back into the citation. The page itself never
// decides what is a citation or what it names. The server's mark after a
// sentence without support (a segment with mark "unsupported") is such a
// group too, drawn as a badge.
const CITE_MARK = "\uE000";
const CITE_TOKEN = /\[\uE000(\d+)\]/g;

/**
 * citedText returns the answer's text with its citation groups (from the
 * server's segments) replaced by tokens, and the groups in token order,
 * each with its claim: the text since the citation before it, which the
 * server reads to find the cited sentence.
 */
function citedText(a) {
  if (!Array.isArray(a.segments)) return { text: a.answer || "", groups: [] };
  let text = "";
  let since = "";
  const groups = [];
  for (const s of a.segments) {
    if (s.mark === "unsupported") {
      // Its leading space stays text; the mark ends the claim.
      const lead = s.text.match(/^\s*/)[0];
      text += `${lead}[${CITE_MARK}${groups.length}]`;
      groups.push({ ...s, unsupported: true });
      since = "";
    } else if (s.citations?.length) {
      text += `[${CITE_MARK}${groups.length}]`;
      groups.push({ ...s, claim: since.trim().slice(-CLAIM_CHARS) });
      since = "";
    } else {
      text += s.text;
      since += s.text;
    }
  }
  return { text, groups };
}

function citeButton(ref, written) {
  const b = el(
    "button",
    {
      type: "button",
      class: `cite${ref.kind === "summary" ? " summary" : ""}`,
      testid: "citation",
      "data-evidence": ref.id,
      "data-label": ref.label,
      "data-kind": ref.kind || "full",
      "aria-controls": "passage",
      "aria-expanded": "false",
      "aria-label": t("citeOpen", ref.label) + (ref.kind === "summary" ? ` (${t("citeSummary")})` : ""),
    },
    written,
  );
  if (ref.kind === "summary") b.append(el("span", { class: "cite-kind", "aria-hidden": "true", text: t("citeSummary") }));
  b.addEventListener("click", () => openPassage(ref, b));
  return b;
}

/** answerCite turns a citation token back into the group's buttons. */
function answerCite(a, groups) {
  const evidence = new Map((a.evidence || []).map((e) => [e.id, e]));
  return (inner) => {
    if (!inner.startsWith(CITE_MARK)) return null;
    const g = groups[Number(inner.slice(CITE_MARK.length))];
    if (!g) return null;
    if (g.unsupported) {
      return el("span", { class: "unsupported-mark", testid: "unsupported", title: t("unsupportedTitle"), text: t("unsupportedMark") });
    }
    const group = el("span", { class: "cite-group" });
    g.citations.forEach((c, i) => {
      if (i > 0) group.append(" ");
      const ev = c.valid !== false && c.evidence ? evidence.get(c.evidence) : null;
      group.append(
        ev
          ? citeButton({ id: ev.id, label: ev.label, kind: c.kind || ev.kind, file: ev.file, text: ev.text, claim: g.claim }, c.label)
          : el("span", { class: "cite plain", text: c.label }),
      );
    });
    return group;
  };
}

/**
 * restoreCitations puts back, as text, the citation tokens left where the
 * renderer shows text as written (tables, code).
 */
function restoreCitations(root, groups) {
  const walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const left = [];
  for (let n = walk.nextNode(); n; n = walk.nextNode()) if (n.data.includes(CITE_MARK)) left.push(n);
  for (const n of left) n.data = n.data.replace(CITE_TOKEN, (m, i) => groups[Number(i)]?.text ?? m);
  return root;
}

function renderTurn(turn) {
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
    const { text: cited, groups } = citedText(a);
    text.append(restoreCitations(renderMarkdown(cited, { cite: answerCite(a, groups) }), groups));
    // The names the answer's notes link to notes the reader may see.
    linkNames(text, a.note_links);
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
  again.addEventListener("click", () => regenerate(turn));
  row.append(again);
  return row;
}

/** icon is a copy of one of the page's icons (index.html's template). */
function icon(name) {
  return $(`[data-icon="${name}"]`, ui.icons.content).cloneNode(true);
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
  retry.addEventListener("click", () => regenerate(turn));
  return el("div", { class: "error", role: "alert", testid: "turn-error" }, el("p", { text: msg }), retry);
}

const GROUNDING = {
  direct: { key: "groundingDirect", mark: "✓" },
  closest: { key: "groundingClosest", mark: "≈" },
  none: { key: "groundingNone", mark: "∅" },
};

/**
 * groundingBadge says how squarely the notes answer, and for a direct
 * answer how many of its sentences cite them; null from older servers.
 */
function groundingBadge(a) {
  let g = GROUNDING[a.grounding];
  if (!g) return null;
  const n = Number(a.sentences) || 0;
  const supported = Math.min(Number(a.supported_sentences) || 0, n);
  const partial = a.grounding === "direct" && supported < n;
  if (partial) g = { key: "groundingPartial", mark: "◐" };
  const badge = el(
    "span",
    {
      class: `badge grounding grounding-${partial ? "partial" : a.grounding}`,
      testid: "grounding",
      "data-grounding": a.grounding,
      "data-sentences": String(n),
      "data-supported": String(supported),
    },
    el("span", { class: "grounding-mark", "aria-hidden": "true", text: g.mark }),
    el("span", { text: t(g.key) }),
  );
  if (a.grounding === "direct" && n > 0) {
    badge.append(el("span", { class: "grounding-count", testid: "supported-count", text: `· ${t("supportedCount", supported, n)}` }));
  }
  return badge;
}

/** FALLBACK names the text for an answer the model did not write (Answer.fallback). */
const FALLBACK = { timeout: "fallbackTimeout", error: "fallbackError" };

function renderAnswerNotes(a) {
  const out = [];
  const meta = el("p", { class: "answer-meta", testid: "answer-mode" });
  const grounding = groundingBadge(a);
  if (grounding) meta.append(grounding, " ");
  // The grounding badge already says that the notes do not say.
  if (a.abstained) {
    if (!grounding) meta.append(el("span", { class: "badge abstained", text: t("abstained") }));
  } else if (a.mode === "extractive") meta.append(t(FALLBACK[a.fallback] || "extractive"));
  else meta.append(t("generatedBy", a.model));
  out.push(meta);

  const removed = a.removed_citations || [];
  const uncited = a.uncited || [];
  const warnings = a.warnings || [];
  const unconfirmed = (a.memory || []).filter((m) => m.use === "unconfirmed");
  if (!removed.length && !uncited.length && !warnings.length && !unconfirmed.length) return out;
  const notes = el("div", { class: "answer-notes", testid: "answer-notes" });
  if (unconfirmed.length) {
    // Memory the model was shown as not settled: never a source.
    const d = el("div", { class: "note", testid: "unconfirmed-memory" }, el("p", { text: t("unconfirmedMemory") }));
    const ul = el("ul");
    for (const m of unconfirmed) ul.append(el("li", { text: `${m.key}: ${m.value} (${m.stale ? t("memoryStale") : t("memoryHypothesis")})` }));
    d.append(ul);
    notes.append(d);
  }
  if (removed.length) {
    const p = el("p", { class: "note", testid: "removed-citations" }, t("removed", removed.length), " ");
    removed.forEach((c, i) => {
      if (i > 0) p.append(", ");
      p.append(el("del", { text: `[${c.label}]` }));
    });
    notes.append(p);
  }
  if (uncited.length) {
    const d = el("details", { class: "note", testid: "uncited" }, el("summary", { text: t("uncited", uncited.length) }));
    const ul = el("ul");
    for (const s of uncited) ul.append(renderInline(el("li"), s, null));
    d.append(ul);
    notes.append(d);
  }
  if (warnings.length) {
    const d = el("details", { class: "note", testid: "warnings" }, el("summary", { text: t("warnings") }));
    const ul = el("ul");
    for (const w of warnings) ul.append(el("li", { text: w }));
    d.append(ul);
    notes.append(d);
  }
  out.push(notes);
  return out;
}

function fmtMs(v) {
  const n = Number(v) || 0;
  return t("ms", n.toLocaleString(state.lang, { maximumFractionDigits: n < 10 ? 1 : 0 }));
}

const PATH_KEYS = { bm25: "pathBM25", dense: "pathDense", entity: "pathEntity" };

/** sessionList writes session numbers in order, runs of three or more as ranges ("1–12, 15"). */
function sessionList(sessions) {
  const ns = [...new Set(sessions.map(Number).filter(Number.isFinite))].sort((x, y) => x - y);
  const parts = [];
  for (let i = 0; i < ns.length; ) {
    let j = i;
    while (j + 1 < ns.length && ns[j + 1] === ns[j] + 1) j++;
    if (j - i >= 2) parts.push(`${ns[i]}–${ns[j]}`);
    else for (let k = i; k <= j; k++) parts.push(String(ns[k]));
    i = j + 1;
  }
  return { n: ns.length, text: listOf(parts) };
}

function listOf(items) {
  try {
    return new Intl.ListFormat(state.lang, { type: "conjunction" }).format(items);
  } catch {
    return items.join(", ");
  }
}

/** analysisLines says what was understood of the question, one line each; none when it says nothing. */
function analysisLines(an) {
  if (!an) return [];
  const f = an.filters || {};
  const lines = [];
  const line = (kind, text) => lines.push(el("span", { class: "block", testid: "trace-analysis", "data-kind": kind, text }));
  const said = an.said || "";
  if (an.unfiltered) line("unfiltered", t("analysisUnfiltered", said));
  else if (f.sessions?.length) {
    const s = sessionList(f.sessions);
    line("sessions", t("analysisSessions", s.n, s.text, said));
  }
  if (f.folders?.length) line("folders", t("analysisFolders", listOf(f.folders)));
  if (f.tags?.length) line("tags", t("analysisTags", listOf(f.tags.map((x) => `#${String(x).replace(/^#/, "")}`))));
  if (an.kind === "arc") line("arc", t("analysisArc"));
  return lines;
}

function renderTrace(a) {
  const details = el("details", { class: "trace", testid: "trace" }, el("summary", { testid: "trace-toggle", text: t("trace") }));
  const dl = el("dl", { class: "facts" });
  const fact = (label, ...value) => dl.append(el("dt", { text: label }), el("dd", {}, ...value));

  const q = el("q", { testid: "trace-query", text: a.query || a.question || "" });
  fact(t("traceQuery"), q, a.follow_up ? el("span", { class: "muted block", testid: "trace-follow-up", text: t("traceFollowUp") }) : null);

  const understood = analysisLines(a.analysis);
  if (understood.length) fact(t("traceAnalysis"), ...understood);

  const r = a.rerank || {};
  const rerankText = r.reranked ? t("traceReranked", r.reranker || "?") : t("traceNotReranked", r.reranker || "none");
  fact(t("traceRerank"), el("span", { testid: "trace-rerank", text: rerankText + (r.fallback ? ` ${t("traceFallback", r.fallback)}` : "") }));

  if (a.context) fact(t("traceContext"), t("traceContextValue", { full: a.context.full ?? 0, summaries: a.context.summaries ?? 0, words: a.context.words ?? 0 }));

  const tm = a.timings || {};
  const names = t("timingNames");
  const order = ["search", "rerank", "answer", "verify", "total"].filter((k) => k in tm);
  if (order.length) fact(t("traceTimings"), order.map((k) => `${names[k] || k} ${fmtMs(tm[k])}`).join(" · "));
  details.append(dl);

  const cands = a.candidates || [];
  if (cands.length) {
    const delivered = new Map((a.evidence || []).map((e) => [e.id, e.kind]));
    details.append(el("h4", { text: t("traceCandidates") }));
    const tbody = el("tbody");
    cands.forEach((c, i) => {
      const kind = delivered.get(c.id) || "no";
      const paths = el("span", { class: "paths" });
      for (const [name, rank] of Object.entries(c.paths || {})) {
        paths.append(el("span", { class: `path path-${name}`, title: name, text: `${PATH_KEYS[name] ? t(PATH_KEYS[name]) : name} #${rank}` }), " ");
      }
      const open = el("button", { type: "button", class: "link", testid: "candidate-open", text: c.label || c.id });
      open.addEventListener("click", () => openPassage({ id: c.id, label: c.label || c.id, kind: kind === "summary" ? "summary" : "full", file: c.file }, open));
      const deliveredText = kind === "full" ? t("deliveredFull") : kind === "summary" ? t("deliveredSummary") : t("deliveredNo");
      tbody.append(
        el(
          "tr",
          { testid: "candidate", "data-delivered": kind, "data-id": c.id, hidden: i >= CANDIDATES_SHOWN },
          el("td", { class: "num", text: String(c.rank ?? "") }),
          el("td", { class: "cand-passage" }, open, el("span", { class: "file", text: c.file || "" })),
          el("td", { class: "cand-paths" }, paths),
          el("td", { class: "cand-delivered" }, el("span", { class: `badge delivered-${kind}`, text: deliveredText })),
        ),
      );
    });
    const table = el(
      "table",
      { testid: "trace-candidates" },
      el(
        "thead",
        {},
        el(
          "tr",
          {},
          el("th", { scope: "col", class: "num", text: t("colRank") }),
          el("th", { scope: "col", text: t("colPassage") }),
          el("th", { scope: "col", text: t("colPaths") }),
          el("th", { scope: "col", text: t("colDelivered") }),
        ),
      ),
      tbody,
    );
    details.append(el("div", { class: "table-wrap", tabindex: "0", role: "region", "aria-label": t("traceCandidates") }, table));
    if (cands.length > CANDIDATES_SHOWN) {
      const more = el("button", { type: "button", class: "btn small more", testid: "candidates-more", text: t("showAll", cands.length) });
      more.addEventListener("click", () => {
        for (const row of tbody.querySelectorAll("tr[hidden]")) row.hidden = false;
        more.remove();
        tbody.rows[CANDIDATES_SHOWN]?.querySelector("button")?.focus();
      });
      details.append(el("p", { class: "more-row" }, more));
    }
  }
  return details;
}

// ---------------------------------------------------------------- the passage panel

function fetchChunk(id, claim = "") {
  const key = `${id}\n${claim}`;
  if (!state.chunks.has(key)) {
    const p = api.chunk(id, claim);
    state.chunks.set(key, p);
    p.catch(() => state.chunks.delete(key)); // a failure is not remembered
  }
  return state.chunks.get(key);
}

function openPassage(ref, opener) {
  const previous = state.panel?.opener;
  if (previous && previous !== opener) previous.setAttribute("aria-expanded", "false");
  opener?.setAttribute("aria-expanded", "true");
  state.panel = { ref, opener, view: "chunk", chunk: null, note: null, error: null };
  ui.panel.hidden = false;
  ui.layout.classList.add("has-panel");
  syncPanelMode();
  renderPanel();
  ui.panelLabel.focus({ preventScroll: NARROW.matches });
  const panel = state.panel;
  if (ref.kind === "memory") {
    // An entry of memory is no chunk: the panel shows the entry itself.
    panel.chunk = { label: ref.label, text: ref.text || "", file: ref.file || "" };
    renderPanel();
    return;
  }
  fetchChunk(ref.id, ref.claim).then(
    (chunk) => {
      if (state.panel !== panel) return;
      panel.chunk = chunk;
      renderPanel();
    },
    (err) => {
      if (state.panel !== panel) return;
      panel.error = err;
      renderPanel();
    },
  );
}

function closePanel(restoreFocus = true) {
  if (!state.panel) return;
  const { opener, ref } = state.panel;
  const id = ref.id;
  opener?.setAttribute("aria-expanded", "false");
  state.panel = null;
  ui.panel.hidden = true;
  ui.backdrop.hidden = true;
  ui.layout.classList.remove("has-panel");
  document.documentElement.classList.remove("sheet-open");
  if (!restoreFocus) return;
  if (opener && opener.isConnected) opener.focus();
  else {
    // The answer was drawn again (a language switch): its first citation
    // of the same passage stands in for the button that opened it.
    const twin = document.querySelector(`[data-testid="citation"][data-evidence="${CSS.escape(id)}"]`);
    (twin || ui.input).focus();
  }
}

// On a phone the panel is a modal bottom sheet; beside the answer it is a
// plain complementary region.
function syncPanelMode() {
  const sheet = NARROW.matches && !!state.panel;
  ui.backdrop.hidden = !sheet;
  document.documentElement.classList.toggle("sheet-open", sheet);
  if (sheet) {
    ui.panel.setAttribute("role", "dialog");
    ui.panel.setAttribute("aria-modal", "true");
  } else {
    ui.panel.removeAttribute("role");
    ui.panel.removeAttribute("aria-modal");
  }
}
NARROW.addEventListener("change", syncPanelMode);

function headingsList(headings) {
  const ol = el("ol", { class: "crumbs", testid: "passage-headings" });
  // A heading as its reader sees it: a wikilink as its shown text.
  for (const h of headings || []) ol.append(renderInline(el("li"), h, null));
  return ol;
}

function renderPanel() {
  const p = state.panel;
  if (!p) return;
  const chunk = p.chunk;
  ui.panelLabel.textContent = chunk?.label || p.ref.label;
  ui.panel.dataset.chunkId = p.ref.id;
  ui.panel.dataset.state = p.error ? "error" : chunk ? "ready" : "loading";
  const body = [];
  if (p.ref.kind === "summary") {
    body.push(
      el("p", { class: "summary-note", testid: "passage-summary" }, el("span", { class: "badge summary", text: t("summaryBadge") }), " ", t("summaryNote")),
    );
  }
  if (p.ref.kind === "memory") {
    body.push(
      el("p", { class: "summary-note", testid: "passage-memory" }, el("span", { class: "badge summary", text: t("memoryBadge") }), " ", t("memoryNote")),
    );
  }
  if (p.error) {
    const msg = p.error instanceof APIError && p.error.status === 404 ? t("notFound") : p.error.message || t("errorNetwork");
    body.push(el("p", { class: "error", role: "alert", testid: "passage-error", text: msg }));
    ui.panelBody.replaceChildren(...body);
    return;
  }
  if (!chunk) {
    body.push(el("p", { class: "muted", testid: "passage-loading", text: t("loading") }));
    ui.panelBody.replaceChildren(...body);
    return;
  }
  const meta = el("dl", { class: "passage-meta" }, el("dt", { text: t("file") }), el("dd", {}, el("span", { class: "file", testid: "passage-file", text: chunk.file || p.ref.file || "" })));
  const extra = [];
  // The session, unless the label already says which one it is.
  if (chunk.session != null && !new RegExp(`\\b${chunk.session}\\b`).test(chunk.label || "")) extra.push(t("session", chunk.session));
  if (chunk.words) extra.push(t("words", chunk.words));
  body.push(meta);
  if (chunk.headings && chunk.headings.length) body.push(headingsList(chunk.headings));
  if (extra.length) body.push(el("p", { class: "muted small", text: extra.join(" · ") }));

  if (p.view === "note") {
    body.push(renderNote(p));
  } else {
    const text = el("div", { class: "md passage-text", testid: "passage-text" }, renderMarkdown(chunk.text || "", { headingOffset: 2, noteLink: noteLinks(chunk.note_links) }));
    // The server says which sentence the citation leans on (as its
    // passage page marks it): marked here, and scrolled to below.
    if (chunk.cited) markSentence(text, chunk.cited);
    body.push(text);
  }
  const file = chunk.file || p.ref.file;
  if (file) {
    const toggle = el("button", { type: "button", class: "btn small", testid: p.view === "note" ? "passage-back" : "passage-load-note", text: p.view === "note" ? t("backToPassage") : t("loadNote") });
    toggle.addEventListener("click", () => (p.view === "note" ? showChunkView(p) : loadNote(p, file)));
    body.push(el("p", { class: "passage-actions" }, toggle));
  }
  ui.panelBody.replaceChildren(...body);
  const mark = p.view === "chunk" ? $("mark.cited", ui.panelBody) : null;
  if (mark) scrollWithinPanel(mark);
}

/** scrollWithinPanel scrolls the passage panel (not the page) so that e sits in the middle of what it shows. */
function scrollWithinPanel(e) {
  const box = ui.panel.getBoundingClientRect();
  const head = $(".passage-head", ui.panel).getBoundingClientRect().bottom;
  const r = e.getBoundingClientRect();
  const middle = head + (box.bottom - head) / 2;
  ui.panel.scrollTop += r.top + r.height / 2 - middle;
}

function renderNote(p) {
  const section = el("section", { class: "note-view", testid: "passage-note", "aria-labelledby": "note-title" });
  if (p.noteError) {
    section.append(el("p", { class: "error", role: "alert", text: p.noteError.message || t("errorNetwork") }));
    return section;
  }
  if (!p.note) {
    section.append(el("p", { class: "muted", text: t("loading") }));
    return section;
  }
  section.append(el("h3", { id: "note-title", tabindex: "-1", text: t("noteTitle", p.note.title || p.note.file) }));
  for (const c of p.note.chunks || []) {
    const current = c.id === p.ref.id;
    const part = el("article", { class: `note-chunk${current ? " current" : ""}`, "data-id": c.id, "aria-current": current ? "true" : null });
    part.append(el("p", { class: "note-chunk-label", text: c.label }));
    part.append(el("div", { class: "md" }, renderMarkdown(c.text || "", { headingOffset: 3, noteLink: noteLinks(p.note.note_links) })));
    section.append(part);
  }
  return section;
}

async function loadNote(p, file) {
  p.view = "note";
  renderPanel();
  if (!p.note) {
    try {
      p.note = await api.note(file);
    } catch (err) {
      p.noteError = err;
    }
    if (state.panel !== p || p.view !== "note") return;
    renderPanel();
  }
  const title = $("#note-title", ui.panelBody);
  const current = $(".note-chunk.current", ui.panelBody);
  title?.focus({ preventScroll: true });
  (current || title)?.scrollIntoView({ block: "start" });
}

function showChunkView(p) {
  p.view = "chunk";
  renderPanel();
  ui.panelLabel.focus();
}

ui.panelClose.addEventListener("click", () => closePanel());
ui.backdrop.addEventListener("click", () => closePanel());

document.addEventListener("keydown", (e) => {
  if (e.key === "Escape" && !ui.convPanel.hidden) {
    e.preventDefault();
    closeConversations(true);
    return;
  }
  if (e.key === "Escape" && state.panel) {
    e.preventDefault();
    closePanel();
    return;
  }
  // Keep Tab inside the bottom sheet while it covers the page.
  if (e.key === "Tab" && state.panel && NARROW.matches) {
    const focusables = [...ui.panel.querySelectorAll('button, [href], summary, [tabindex]:not([tabindex="-1"])')].filter((x) => !x.closest("[hidden]"));
    if (!focusables.length) return;
    const first = focusables[0];
    const last = focusables[focusables.length - 1];
    if (!ui.panel.contains(document.activeElement)) {
      e.preventDefault();
      first.focus();
    } else if (e.shiftKey && (document.activeElement === first || document.activeElement === ui.panelLabel)) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault();
      first.focus();
    }
  }
});

// ---------------------------------------------------------------- conversations kept

/**
 * startSession opens the conversations of the role the server named, the
 * last one shown again, and what the empty state says of the index.
 */
function startSession() {
  const role = state.role || "local";
  if (state.store && state.storeRole === role) return;
  state.storeRole = role;
  state.store = createStore(local, role);
  resetConversation();
  const id = state.store.current();
  const conv = id ? state.store.get(id) : null;
  if (conv) showConversation(conv);
  renderConversations();
  loadOverview();
  if (state.role === "dm") resumeIngest();
}

/** showConversation draws a kept conversation in place of the one shown. */
function showConversation(conv) {
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
function saveConversation() {
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

function fmtDate(v) {
  const d = new Date(v);
  if (Number.isNaN(d.getTime())) return "";
  try {
    return new Intl.DateTimeFormat(state.lang, { dateStyle: "medium", timeStyle: "short" }).format(d);
  } catch {
    return d.toLocaleString();
  }
}

function iconButton(name, label, testid, onclick) {
  const b = el("button", { type: "button", class: "btn icon ghost", testid, "aria-label": label, title: label }, icon(name));
  b.addEventListener("click", onclick);
  return b;
}

function renderConversations() {
  const list = state.store?.list() || [];
  const items = list.map(conversationItem);
  if (!items.length) items.push(el("li", { class: "conv-none muted", testid: "conversations-none", text: t("noConversations") }));
  ui.convList.replaceChildren(...items);
}

function conversationItem(c) {
  const title = c.title || t("untitled");
  const li = el("li", { class: "conv-item", testid: "conversation-item", "data-id": c.id, "aria-current": state.conv?.id === c.id ? "true" : null });
  if (state.renaming === c.id) {
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
      state.renaming = c.id;
      renderConversations();
    }),
    iconButton("export", t("export", title), "conversation-export", () => exportConversation(c.id)),
    iconButton("delete", t("delete", title), "conversation-delete", () => deleteConversation(c.id)),
  );
  li.append(open, actions);
  return li;
}

function finishRename(id, title) {
  state.renaming = null;
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

function closeConversations(restoreFocus) {
  if (ui.convPanel.hidden) return;
  ui.convPanel.hidden = true;
  ui.convToggle.setAttribute("aria-expanded", "false");
  state.renaming = null;
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

// ---------------------------------------------------------------- the empty state

async function loadOverview() {
  const store = state.store;
  let overview = null;
  let entities = [];
  try {
    [overview, entities] = await Promise.all([api.overview(), api.compendium().then((c) => c.entities || [], () => [])]);
  } catch {
    overview = null; // an older server, or none: the empty state just says less
  }
  if (state.store !== store) return;
  state.overview = overview;
  state.entities = entities;
  renderEmpty();
}

// Which example question an entity's kind asks.
const EXAMPLE_KIND = { pc: "exampleWho", npc: "exampleWho", god: "exampleWho", place: "exampleWhere" };

/**
 * exampleQuestions asks about the entities the notes mention most (the
 * compendium the server gave this role: a player's never names a DM-only
 * one), a person, a place and something else when there are.
 */
function exampleQuestions(entities) {
  const ranked = entities.filter((e) => e && e.name).sort((a, b) => (b.chunks || 0) - (a.chunks || 0) || a.name.localeCompare(b.name));
  const kindOf = (e) => EXAMPLE_KIND[e.kind] || "exampleWhat";
  const picked = [];
  for (const k of ["exampleWho", "exampleWhere", "exampleWhat"]) {
    const e = ranked.find((x) => !picked.includes(x) && kindOf(x) === k);
    if (e) picked.push(e);
  }
  for (const e of ranked) if (picked.length < EXAMPLES && !picked.includes(e)) picked.push(e);
  return picked.slice(0, EXAMPLES).map((e) => t(kindOf(e), e.name));
}

function renderEmpty() {
  const o = state.overview;
  ui.indexInfo.hidden = !o;
  ui.examples.hidden = true;
  if (!o) return;
  const fact = (label, testid, value, extra = {}) => [el("dt", { text: label }), el("dd", { testid, ...extra, text: value })];
  ui.indexInfo.replaceChildren(
    ...fact(t("indexHolds"), "index-counts", t("indexCounts", o.notes ?? 0, o.sessions ?? 0)),
    ...fact(t("indexUpdated"), "index-updated", o.updated ? fmtDate(o.updated) : t("indexNever")),
    ...fact(t("answeredBy"), "index-model", o.model || t("extractiveModel"), { "data-model": o.model || "extractive" }),
  );
  const questions = exampleQuestions(state.entities || []);
  if (!questions.length) return;
  const ul = el("ul", { class: "example-list" });
  for (const q of questions) {
    const b = el("button", { type: "button", class: "btn example", testid: "example", text: q });
    b.addEventListener("click", () => ask(q));
    ul.append(el("li", {}, b));
  }
  ui.examples.replaceChildren(el("p", { class: "examples-title", text: t("tryAsking") }), ul);
  ui.examples.hidden = false;
}

// ---------------------------------------------------------------- the DM's update

ui.update.addEventListener("click", updateIndex);

/** updateIndex has the server read the notes again, and follows it to the end. */
async function updateIndex() {
  if (state.ingest?.state === "running") return;
  const run = (state.ingestRun = (state.ingestRun || 0) + 1);
  state.ingest = { state: "running", status: null };
  renderIngest();
  try {
    await api.startIngest();
  } catch (err) {
    // One already running (started elsewhere) is followed as ours.
    const st = err instanceof APIError && err.status === 409 ? await api.ingestStatus().catch(() => null) : null;
    if (!st?.running) {
      if (run !== state.ingestRun) return;
      state.ingest = { state: "error", message: err.message || t("errorNetwork") };
      renderIngest();
      return;
    }
  }
  followIngest(run);
}

/** resumeIngest follows an update that was running when the page was loaded. */
async function resumeIngest() {
  const st = await api.ingestStatus().catch(() => null);
  if (!st?.running || state.ingest?.state === "running") return;
  const run = (state.ingestRun = (state.ingestRun || 0) + 1);
  state.ingest = { state: "running", status: st };
  renderIngest();
  followIngest(run);
}

async function followIngest(run) {
  for (;;) {
    await new Promise((r) => setTimeout(r, INGEST_POLL_MS));
    if (run !== state.ingestRun) return;
    let st;
    try {
      st = await api.ingestStatus();
    } catch (err) {
      if (run !== state.ingestRun) return;
      state.ingest = { state: "error", message: err.message || t("errorNetwork") };
      renderIngest();
      return;
    }
    if (run !== state.ingestRun) return;
    if (st.running) {
      state.ingest = { state: "running", status: st };
      renderIngest();
      continue;
    }
    state.ingest = st.error ? { state: "error", message: st.error } : { state: "done", report: st.last || {} };
    // Passages may have changed: what was fetched is fetched again.
    state.chunks.clear();
    renderIngest();
    loadOverview();
    return;
  }
}

const STAGE_KEYS = { read: "ingestRead", embed: "ingestEmbed", graph: "ingestGraph", annotate: "ingestAnnotate" };

function renderIngest() {
  const g = state.ingest;
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
      state.ingest = null;
      renderIngest();
      ui.update.focus();
    });
    parts.push(dismiss);
  }
  ui.ingestStatus.replaceChildren(...parts);
}

// ---------------------------------------------------------------- the watcher

// While the server watches the notes (serve --watch), the page asks every
// WATCH_POLL_MS when the index last changed, and says so.
const WATCH_POLL_MS = 12_000;
let watchTimer = 0;

function watching(w) {
  return !!w && (w.state === "watching" || w.state === "polling");
}

/** followWatch takes the watcher's state from a health report and polls while it watches. */
function followWatch(w) {
  state.watch = w || null;
  renderWatch();
  if (watching(state.watch) && !watchTimer) watchTimer = setTimeout(pollWatch, WATCH_POLL_MS);
}

async function pollWatch() {
  watchTimer = 0;
  try {
    const [h, o] = await Promise.all([api.health(), api.overview()]);
    if (o && state.overview && o.updated !== state.overview.updated) {
      state.overview = o;
      renderEmpty();
    } else if (o && !state.overview) state.overview = o;
    followWatch(h.watch);
  } catch {
    // The server is away: try again later, as before.
    if (watching(state.watch)) watchTimer = setTimeout(pollWatch, WATCH_POLL_MS);
  }
}

function renderWatch() {
  const w = state.watch;
  const updated = state.overview?.updated || w?.last_update;
  ui.watchStatus.hidden = !watching(w);
  if (ui.watchStatus.hidden) return;
  ui.watchStatus.dataset.state = w.state;
  ui.watchStatus.dataset.updated = updated || "";
  ui.watchStatus.textContent = updated ? t("watchUpdated", fmtTime(updated)) : t("watchWatching");
}

function fmtTime(v) {
  const d = new Date(v);
  if (Number.isNaN(d.getTime())) return "";
  try {
    return new Intl.DateTimeFormat(state.lang, { hour: "2-digit", minute: "2-digit" }).format(d);
  } catch {
    return d.toLocaleTimeString();
  }
}

// ---------------------------------------------------------------- start

applyStaticStrings();
autosize();
checkHealth();
ui.input.focus({ preventScroll: true });
document.documentElement.dataset.ready = "true";
