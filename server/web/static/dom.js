// The page's fixed elements (index.html's, by their data-testid) and the
// small DOM builders every feature draws with.

/** $ is the first element under root that sel matches, or null. */
export const $ = (sel, root = document) => root.querySelector(sel);

/** NARROW matches a phone's width: the passage panel is then a bottom sheet. */
export const NARROW = window.matchMedia("(max-width: 959px)");

/**
 * el builds an element: attrs sets its class ("class"), text ("text"),
 * data-testid ("testid"), listeners ("onclick", …) and attributes (null
 * or false leave one out), and children are appended.
 */
export function el(tag, attrs = {}, ...children) {
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

/** ui holds the page's fixed elements. */
export const ui = {
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
  panelEyebrow: $('[data-testid="passage-eyebrow"]'),
  panelLabel: $('[data-testid="passage-label"]'),
  panelBody: $('[data-testid="passage-body"]'),
  panelClose: $('[data-testid="passage-close"]'),
  backdrop: $('[data-testid="passage-backdrop"]'),
  indexInfo: $('[data-testid="index-info"]'),
  examples: $('[data-testid="examples"]'),
  story: $('[data-testid="story-entries"]'),
  update: $('[data-testid="update-index"]'),
  ingestStatus: $('[data-testid="ingest-status"]'),
  watchStatus: $('[data-testid="watch-status"]'),
  convToggle: $('[data-testid="conversations-toggle"]'),
  convPanel: $('[data-testid="conversations"]'),
  convList: $('[data-testid="conversation-list"]'),
  icons: $("#icons"),
};

/** icon is a copy of one of the page's icons (index.html's template). */
export function icon(name) {
  return $(`[data-icon="${name}"]`, ui.icons.content).cloneNode(true);
}

/** reducedMotion reports whether the reader asked for less motion. */
export function reducedMotion() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}
