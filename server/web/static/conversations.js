// Conversations kept in the browser: a list per role in localStorage (a
// player signing in where the DM did never sees the DM's answers), the
// one open last, and a conversation written out as Markdown.

const LIST_KEY = "oraculo.conversations.";
const CURRENT_KEY = "oraculo.conversation.";
const MAX_CONVERSATIONS = 50;
const TITLE_CHARS = 60;

/** newID returns an id unlikely to repeat in one browser. */
export function newID() {
  return `c${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
}

/** titleFor is a conversation's default title: its first question, clipped. */
export function titleFor(question) {
  const q = String(question || "").replace(/\s+/g, " ").trim();
  return q.length > TITLE_CHARS ? `${q.slice(0, TITLE_CHARS - 1).trimEnd()}…` : q;
}

/**
 * answerText is an answer's verified text with its citations as the
 * answer wrote them ("[Sesión 2]"): what is copied and exported.
 */
export function answerText(a) {
  if (!a) return "";
  const text = Array.isArray(a.segments) ? a.segments.map((s) => s.text).join("") : a.answer || "";
  return text.trim();
}

/**
 * toMarkdown writes a conversation out: its title, then each question
 * quoted, its answer, and the sources the answer cites. t is the page's
 * translator (headings in the page's language).
 */
export function toMarkdown(conv, t) {
  const lines = [`# ${conv.title || t("untitled")}`, ""];
  for (const turn of conv.turns || []) {
    lines.push(`## ${turn.question.replace(/\s+/g, " ").trim()}`, "");
    const a = turn.status === "done" ? turn.answer : null;
    if (!a) {
      lines.push(`_${turn.status === "error" ? t("exportFailed") : t("exportUnfinished")}_`, "");
      continue;
    }
    lines.push(answerText(a) || `_${t("abstained")}_`, "");
    // The sources the server listed with the answer (its "sources"): the
    // page never works out itself which passages an answer cites.
    const sources = Array.isArray(a.sources) ? a.sources : [];
    if (sources.length) {
      lines.push(`**${t("sources")}**`, "");
      for (const s of sources) lines.push(`- [${s.label}] \`${s.file}\``);
      lines.push("");
    }
  }
  return lines.join("\n").trimEnd() + "\n";
}

/** fileNameFor is the name an exported conversation is saved under. */
export function fileNameFor(conv) {
  const base = (conv.title || "oraculo")
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^\p{L}\p{N}]+/gu, "-")
    .replace(/^-+|-+$/g, "")
    .toLowerCase()
    .slice(0, 60);
  return `${base || "oraculo"}.md`;
}

/**
 * createStore keeps the conversations of one role in storage (a Storage,
 * or null: then nothing is kept). Conversations are plain objects {id,
 * title, created, updated, turns}, newest first.
 */
export function createStore(storage, role) {
  const listKey = LIST_KEY + (role || "local");
  const currentKey = CURRENT_KEY + (role || "local");

  function read() {
    try {
      const v = JSON.parse(storage?.getItem(listKey) || "[]");
      return Array.isArray(v) ? v.filter((c) => c && typeof c.id === "string" && Array.isArray(c.turns)) : [];
    } catch {
      return [];
    }
  }

  // write keeps what fits: when storage is full the oldest conversations
  // go first, then the traces (candidates) of what is left.
  function write(list, keep) {
    if (!storage) return;
    list = list.slice(0, MAX_CONVERSATIONS);
    for (let lean = false; ; ) {
      try {
        storage.setItem(listKey, JSON.stringify(list));
        return;
      } catch {
        const drop = list.findLastIndex((c) => c.id !== keep);
        if (drop >= 0) list.splice(drop, 1);
        else if (!lean) {
          lean = true;
          list = list.map((c) => ({ ...c, turns: c.turns.map((x) => (x.answer ? { ...x, answer: { ...x.answer, candidates: [] } } : x)) }));
        } else return; // nothing more to give up: this one is not kept
      }
    }
  }

  return {
    list: read,
    get: (id) => read().find((c) => c.id === id) || null,
    /** save stores conv (replacing the one with its id) as the newest. */
    save(conv) {
      const list = read().filter((c) => c.id !== conv.id);
      list.unshift(conv);
      write(list, conv.id);
    },
    /** rename changes a conversation's title, keeping its place. */
    rename(id, title) {
      const list = read();
      const c = list.find((x) => x.id === id);
      if (!c) return;
      c.title = title;
      write(list, id);
    },
    remove(id) {
      write(
        read().filter((c) => c.id !== id),
        "",
      );
      if (this.current() === id) this.setCurrent("");
    },
    current: () => storage?.getItem(currentKey) || "",
    setCurrent(id) {
      try {
        if (id) storage?.setItem(currentKey, id);
        else storage?.removeItem(currentKey);
      } catch {
        /* full: the list matters more */
      }
    },
  };
}
