// The state the page's features share: who is signed in, in which
// language, and the conversation shown. Each feature keeps the rest of
// its state to itself (the passage panel, the conversations list, the
// empty state's overview, the DM's update, the watcher).

import { createAPI } from "./api.js";
import { pickLanguage, translator } from "./i18n.js";

/** TOKEN_KEY and LANG_KEY name what the page keeps in localStorage. */
export const TOKEN_KEY = "oraculo.token";
export const LANG_KEY = "oraculo.lang";

function storage(kind) {
  try {
    return window[kind];
  } catch {
    return null; // storage disabled: the page still works, it just forgets
  }
}

/** local is the browser's localStorage, or null when it is disabled. */
export const local = storage("localStorage");

/** state is what more than one feature reads or changes. */
export const state = {
  lang: pickLanguage(location.search, local?.getItem(LANG_KEY), navigator.languages || [navigator.language]),
  t: null, // the translator of lang
  token: local?.getItem(TOKEN_KEY) || "",
  auth: false, // the server asks for a token
  role: "",
  store: null, // the conversations of the signed-in role
  conv: null, // {id, title, created}: the conversation shown, null until its first question
  turns: [], // its questions and answers
  memory: [], // the cards of "recuerda que …" / "olvida …" lines: never kept, never asked
  pending: null, // {turn, controller}: the question being answered
  seq: 0, // the last id given to a turn or a card
};
state.t = translator(state.lang);

/** t translates a message into the page's language (see i18n.js). */
export const t = (...a) => state.t(...a);

/** api is the JSON API's client, sending the signed-in token. */
export const api = createAPI(() => state.token);
