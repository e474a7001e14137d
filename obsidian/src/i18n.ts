// The plugin's words in Spanish and English, chosen by Obsidian's own
// language: Spanish for any "es" variant, English for everything else.

/** Lang is a language the plugin speaks. */
export type Lang = "es" | "en";

/** langOf maps Obsidian's language code ("es", "es-419", "en-GB"...) to the plugin's. */
export function langOf(code: string | null | undefined): Lang {
  return (code ?? "").trim().toLowerCase().startsWith("es") ? "es" : "en";
}

const en = {
  viewTitle: "Oráculo",
  placeholder: "Ask your notes… (Ctrl+Enter)",
  ask: "Ask",
  stop: "Stop",
  newConversation: "New conversation",
  thinking: "Thinking…",
  searching: "Searching your notes…",
  sources: "Sources",
  scope: "Only in {path}",
  clearScope: "Ask the whole vault",
  unsupported: "unsupported",
  abstained: "Your notes do not say.",
  removed: "{n} citation(s) removed: they named no passage shown to the model.",
  notFound: "“{path}” is not in this vault.",
  openFailed: "Could not open the passage: {error}",
  askAbout: "Ask Oráculo about this note",
  askAboutActive: "Ask about the current note",
  openView: "Open Oráculo",
  settingsURL: "Server URL",
  settingsURLDesc: "Where `oraculo serve` listens, e.g. http://127.0.0.1:8080.",
  settingsToken: "Token",
  settingsTokenDesc: "A token from `oraculo token add NAME --role dm|player`; empty when the server has no tokens. The token's role decides what you see.",
  settingsTest: "Test connection",
  settingsTestDesc: "Checks that the server answers and what role the token has.",
  testing: "Testing…",
  okRole: "Connected to Oráculo {version}: role {role}.",
  okOpen: "Connected to Oráculo {version}: no tokens, you see everything (DM).",
  unreachable: "The server is unreachable at {url}: is `oraculo serve` running? ({detail})",
  cors: "The server answers, but not to Obsidian's pages: answers will arrive whole instead of streaming. Start it with `oraculo serve --cors app://obsidian.md` to stream them.",
  badToken: "The server refused the token: check it (`oraculo token list`).",
  noToken: "The server requires a token: paste one in the settings.",
  notOraculo: "{url} answered, but not as Oráculo does (HTTP {status}).",
  errorPrefix: "Error: {error}",
  roleDM: "DM",
  rolePlayer: "player",
};

/** Key names a message of the plugin. */
export type Key = keyof typeof en;

const es: Record<Key, string> = {
  viewTitle: "Oráculo",
  placeholder: "Pregunta a tus notas… (Ctrl+Intro)",
  ask: "Preguntar",
  stop: "Parar",
  newConversation: "Nueva conversación",
  thinking: "Pensando…",
  searching: "Buscando en tus notas…",
  sources: "Fuentes",
  scope: "Solo en {path}",
  clearScope: "Preguntar a todo el vault",
  unsupported: "sin fuente",
  abstained: "Tus notas no lo dicen.",
  removed: "{n} cita(s) eliminada(s): no nombraban ningún pasaje mostrado al modelo.",
  notFound: "«{path}» no está en este vault.",
  openFailed: "No se pudo abrir el pasaje: {error}",
  askAbout: "Preguntar a Oráculo sobre esta nota",
  askAboutActive: "Preguntar sobre la nota actual",
  openView: "Abrir Oráculo",
  settingsURL: "URL del servidor",
  settingsURLDesc: "Donde escucha `oraculo serve`, p. ej. http://127.0.0.1:8080.",
  settingsToken: "Token",
  settingsTokenDesc: "Un token de `oraculo token add NOMBRE --role dm|player`; vacío si el servidor no usa tokens. Su rol decide lo que ves.",
  settingsTest: "Probar conexión",
  settingsTestDesc: "Comprueba que el servidor responde y qué rol tiene el token.",
  testing: "Probando…",
  okRole: "Conectado a Oráculo {version}: rol {role}.",
  okOpen: "Conectado a Oráculo {version}: sin tokens, ves todo (DM).",
  unreachable: "No se alcanza el servidor en {url}: ¿está en marcha `oraculo serve`? ({detail})",
  cors: "El servidor responde, pero no a las páginas de Obsidian: las respuestas llegarán enteras en vez de ir apareciendo. Arráncalo con `oraculo serve --cors app://obsidian.md` para verlas aparecer.",
  badToken: "El servidor rechazó el token: revísalo (`oraculo token list`).",
  noToken: "El servidor exige un token: pega uno en los ajustes.",
  notOraculo: "{url} respondió, pero no como Oráculo (HTTP {status}).",
  errorPrefix: "Error: {error}",
  roleDM: "DM",
  rolePlayer: "jugador",
};

const messages: Record<Lang, Record<Key, string>> = { en, es };

/** t is the message key in lang, each {name} replaced by vars[name]. */
export function t(lang: Lang, key: Key, vars: Record<string, string | number> = {}): string {
  return messages[lang][key].replace(/\{(\w+)\}/g, (m, name: string) => (name in vars ? String(vars[name]) : m));
}

/** keys lists every message key, for the tests that compare the languages. */
export function keys(lang: Lang): string[] {
  return Object.keys(messages[lang]).sort();
}
