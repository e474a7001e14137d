// The session: the server's health says whether it asks for a token and
// which role a token has; the page signs in and out, and opens the
// conversations and the overview of the role signed in.

import { APIError } from "./api.js";
import { createStore } from "./conversations.js";
import { closeConversations, renderConversations, showConversation } from "./conversationlist.js";
import { ui } from "./dom.js";
import { resumeIngest, stopIngest } from "./ingest.js";
import { forgetOverview, loadOverview } from "./overview.js";
import { TOKEN_KEY, api, local, state, t } from "./state.js";
import { resetConversation, stopPending } from "./thread.js";
import { followWatch } from "./watch.js";

let storeRole = ""; // the role whose conversations state.store keeps

/** renderRole shows the role signed in, Sign out and, to the DM, Update index. */
export function renderRole() {
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
  if (message) ui.token.setAttribute("aria-invalid", "true");
  else ui.token.removeAttribute("aria-invalid");
  renderRole();
  ui.token.focus();
}

function hideSignIn() {
  ui.signin.hidden = true;
  ui.token.removeAttribute("aria-invalid");
  ui.chat.hidden = false;
  ui.newConversation.hidden = false;
  ui.convToggle.hidden = false;
  renderRole();
  startSession();
}

/** checkHealth asks the server who is signed in, and opens the page or the sign-in form. */
export async function checkHealth() {
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
    if (unauthorized(err)) return;
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
  forgetOverview();
  stopIngest(); // an update being followed is no longer
  showSignIn();
});

/** unauthorized sends the user to sign in again when err says the token is no good. */
export function unauthorized(err) {
  if (!(err instanceof APIError && err.code === "unauthorized")) return false;
  state.auth = true;
  forgetToken();
  showSignIn(t("tokenWrong"));
  return true;
}

/**
 * startSession opens the conversations of the role the server named, the
 * last one shown again, and what the empty state says of the index.
 */
function startSession() {
  const role = state.role || "local";
  if (state.store && storeRole === role) return;
  storeRole = role;
  state.store = createStore(local, role);
  resetConversation();
  const id = state.store.current();
  const conv = id ? state.store.get(id) : null;
  if (conv) showConversation(conv);
  renderConversations();
  loadOverview();
  if (state.role === "dm") resumeIngest();
}
