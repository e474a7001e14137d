// Every string the page shows, in Spanish and English. A value is a string
// or a function of the values it needs.

const dictionary = {
  es: {
    title: "Oráculo",
    tagline: "Pregunta a tus notas",
    skip: "Saltar a la pregunta",
    newConversation: "Nueva conversación",
    language: "Idioma",
    signOut: "Cerrar sesión",
    roleDM: "Máster",
    rolePlayer: "Jugador",
    conversation: "Conversación",
    empty: "Pregunta lo que quieras sobre tus notas: quién es alguien, qué pasó en una sesión, dónde quedó un objeto. Cada afirmación lleva su cita.",
    question: "Tu pregunta",
    placeholder: "Pregunta a tus notas…",
    ask: "Preguntar",
    stop: "Detener",
    hintKeys: "Intro envía · Mayús+Intro, nueva línea",
    you: "Tú",
    oracle: "Oráculo",
    thinking: "Buscando en tus notas…",
    modelThinking: "El modelo está pensando…",
    writing: "Escribiendo…",
    stopped: "Detenido. La respuesta quedó a medias y no se ha verificado.",
    retry: "Reintentar",
    errorNetwork: "No se pudo contactar con el servidor.",
    errorStatus: (s) => `El servidor respondió con un error (${s}).`,
    errorStream: "La respuesta se cortó antes de terminar.",
    errorUnauthorized: "Hace falta un token válido.",
    serverDown: "El servidor no responde; las preguntas pueden fallar.",
    tokenTitle: "Acceso",
    tokenIntro: "Este servidor pide un token. Pídeselo a quien lo administra.",
    tokenLabel: "Token de acceso",
    tokenSubmit: "Entrar",
    tokenWrong: "El token no es válido o ha caducado.",
    citeOpen: (label) => `Abrir la cita ${label}`,
    citeSummary: "resumen",
    abstained: "El oráculo no encontró en tus notas con qué responder.",
    groundingDirect: "Respondido por las notas",
    groundingClosest: "Solo lo más cercano que tienen las notas",
    groundingNone: "Las notas no lo dicen",
    extractive: "Respuesta extractiva: frases literales de tus notas, sin modelo de lenguaje.",
    generatedBy: (m) => (m ? `Redactada por ${m}; citas comprobadas.` : "Redactada por el modelo; citas comprobadas."),
    removed: (n) => (n === 1 ? "Se quitó 1 cita que no correspondía a ningún pasaje entregado:" : `Se quitaron ${n} citas que no correspondían a ningún pasaje entregado:`),
    uncited: (n) => (n === 1 ? "1 frase sin cita" : `${n} frases sin cita`),
    warnings: "Avisos",
    trace: "Cómo se encontró",
    traceQuery: "Búsqueda",
    traceFollowUp: "Pregunta de seguimiento: se buscó junto con la anterior.",
    traceAnalysis: "Lectura",
    analysisSessions: (n, list, said) => (n === 1 ? `Solo la sesión ${list}` : `Solo las sesiones ${list}`) + (said ? ` («${said}»)` : ""),
    analysisFolders: (list) => `Solo las carpetas ${list}`,
    analysisTags: (list) => `Solo las etiquetas ${list}`,
    analysisUnfiltered: (said) => `Nada en ${said ? `«${said}»` : "esas sesiones"} coincidía: se buscó en todas las notas`,
    analysisArc: "Pregunta sobre una trayectoria",
    traceRerank: "Reordenación",
    traceReranked: (r) => `${r}: candidatos reordenados.`,
    traceNotReranked: (r) => `${r}: se mantuvo el orden de la búsqueda.`,
    traceFallback: (f) => `Motivo: ${fallbackEs(f)}.`,
    traceContext: "Contexto",
    traceContextValue: (c) => `${c.full} pasajes completos, ${c.summaries} resúmenes, ${c.words} palabras.`,
    traceTimings: "Tiempos",
    traceCandidates: "Candidatos",
    showAll: (n) => `Mostrar los ${n} candidatos`,
    colRank: "#",
    colPassage: "Pasaje",
    colPaths: "Encontrado por",
    colDelivered: "Entregado",
    pathBM25: "palabras",
    pathDense: "significado",
    pathEntity: "entidad",
    deliveredFull: "completo",
    deliveredSummary: "resumen",
    deliveredNo: "no",
    ms: (n) => `${n} ms`,
    timingNames: { search: "búsqueda", rerank: "reordenación", answer: "respuesta", verify: "verificación", total: "total" },
    passage: "Pasaje citado",
    close: "Cerrar",
    loading: "Cargando…",
    file: "Nota",
    summaryBadge: "Resumen",
    summaryNote: "El modelo vio solo un resumen de este pasaje; aquí está el texto completo.",
    loadNote: "Ver la nota completa",
    backToPassage: "Volver al pasaje",
    noteTitle: (t) => `Nota completa: ${t}`,
    notFound: "No se encontró el pasaje.",
    words: (n) => `${n} palabras`,
    session: (n) => `Sesión ${n}`,
  },
  en: {
    title: "Oráculo",
    tagline: "Ask your notes",
    skip: "Skip to the question",
    newConversation: "New conversation",
    language: "Language",
    signOut: "Sign out",
    roleDM: "GM",
    rolePlayer: "Player",
    conversation: "Conversation",
    empty: "Ask anything about your notes: who someone is, what happened in a session, where an item ended up. Every claim comes with its citation.",
    question: "Your question",
    placeholder: "Ask your notes…",
    ask: "Ask",
    stop: "Stop",
    hintKeys: "Enter sends · Shift+Enter, new line",
    you: "You",
    oracle: "Oráculo",
    thinking: "Searching your notes…",
    modelThinking: "The model is thinking…",
    writing: "Writing…",
    stopped: "Stopped. The answer is incomplete and was not verified.",
    retry: "Retry",
    errorNetwork: "Could not reach the server.",
    errorStatus: (s) => `The server answered with an error (${s}).`,
    errorStream: "The answer was cut off before it finished.",
    errorUnauthorized: "A valid token is needed.",
    serverDown: "The server is not answering; questions may fail.",
    tokenTitle: "Sign in",
    tokenIntro: "This server asks for a token. Ask whoever runs it.",
    tokenLabel: "Access token",
    tokenSubmit: "Sign in",
    tokenWrong: "The token is not valid or has expired.",
    citeOpen: (label) => `Open the citation ${label}`,
    citeSummary: "summary",
    abstained: "The oracle found nothing in your notes to answer with.",
    groundingDirect: "Answered by the notes",
    groundingClosest: "Only the closest the notes hold",
    groundingNone: "The notes don't say",
    extractive: "Extractive answer: sentences quoted from your notes, no language model.",
    generatedBy: (m) => (m ? `Written by ${m}; citations checked.` : "Written by the model; citations checked."),
    removed: (n) => (n === 1 ? "1 citation was removed because it named no delivered passage:" : `${n} citations were removed because they named no delivered passage:`),
    uncited: (n) => (n === 1 ? "1 sentence without a citation" : `${n} sentences without a citation`),
    warnings: "Warnings",
    trace: "How this was found",
    traceQuery: "Search",
    traceFollowUp: "Follow-up question: searched together with the previous one.",
    traceAnalysis: "Understood",
    analysisSessions: (n, list, said) => (n === 1 ? `Only session ${list}` : `Only sessions ${list}`) + (said ? ` (“${said}”)` : ""),
    analysisFolders: (list) => `Only the folders ${list}`,
    analysisTags: (list) => `Only the tags ${list}`,
    analysisUnfiltered: (said) => `Nothing in ${said ? `“${said}”` : "those sessions"} matched: every note was searched`,
    analysisArc: "A question about an arc",
    traceRerank: "Reranking",
    traceReranked: (r) => `${r}: candidates reordered.`,
    traceNotReranked: (r) => `${r}: the search order was kept.`,
    traceFallback: (f) => `Reason: ${f}.`,
    traceContext: "Context",
    traceContextValue: (c) => `${c.full} full passages, ${c.summaries} summaries, ${c.words} words.`,
    traceTimings: "Timings",
    traceCandidates: "Candidates",
    showAll: (n) => `Show all ${n} candidates`,
    colRank: "#",
    colPassage: "Passage",
    colPaths: "Found by",
    colDelivered: "Delivered",
    pathBM25: "keywords",
    pathDense: "meaning",
    pathEntity: "entity",
    deliveredFull: "full",
    deliveredSummary: "summary",
    deliveredNo: "no",
    ms: (n) => `${n} ms`,
    timingNames: { search: "search", rerank: "rerank", answer: "answer", verify: "verify", total: "total" },
    passage: "Cited passage",
    close: "Close",
    loading: "Loading…",
    file: "Note",
    summaryBadge: "Summary",
    summaryNote: "The model saw only a summary of this passage; here is the whole text.",
    loadNote: "Show the whole note",
    backToPassage: "Back to the passage",
    noteTitle: (t) => `Whole note: ${t}`,
    notFound: "The passage was not found.",
    words: (n) => `${n} words`,
    session: (n) => `Session ${n}`,
  },
};

/** The languages the page speaks. */
export const languages = Object.keys(dictionary);

/**
 * pickLanguage chooses the interface language: ?lang= first, then the
 * last choice made with the toggle, then the browser's language.
 */
export function pickLanguage(search, saved, browserLanguages) {
  const fromURL = new URLSearchParams(search).get("lang");
  for (const l of [fromURL, saved]) {
    if (l && languages.includes(l.toLowerCase())) return l.toLowerCase();
  }
  for (const l of browserLanguages || []) {
    const base = String(l).toLowerCase().split("-")[0];
    if (languages.includes(base)) return base;
  }
  return "es";
}

/** translator returns t(key, ...args) for one language. */
export function translator(lang) {
  const d = dictionary[lang] || dictionary.es;
  return (key, ...args) => {
    const v = d[key] ?? dictionary.es[key];
    if (typeof v === "function") return v(...args);
    return v ?? key;
  };
}

// fallbackEs translates the reranker's fallback reasons (the server sends
// them in English); an unknown reason is shown as it came.
function fallbackEs(f) {
  const known = [
    [/^no (chat )?model$/, () => "no hay modelo de chat"],
    [/^missing annotations?/, () => "faltan anotaciones de algunos candidatos"],
    [/^timeout/, () => "el modelo no respondió a tiempo"],
    [/^canceled/, () => "cancelado"],
    [/^unparseable reply/, () => "la respuesta del modelo no era JSON válido"],
    [/^no ids in reply/, () => "el modelo no eligió ningún candidato"],
    [/^unknown id (.+)$/, (m) => `el modelo nombró un candidato inexistente (${m[1]})`],
    [/^model error: (.*)$/, (m) => `error del modelo: ${m[1]}`],
    [/^reranker returned/, () => "el reordenador devolvió un orden incompleto"],
  ];
  for (const [re, say] of known) {
    const m = re.exec(f);
    if (m) return say(m);
  }
  return f;
}
