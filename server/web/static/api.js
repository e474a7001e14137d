// The JSON API the page talks to (same origin): health, ask (streamed as
// server-sent events over fetch, since EventSource can neither POST nor
// send headers), chunks and notes, the index's overview and compendium,
// an entity's timeline, a session's recap, and the DM's re-ingest.

/** APIError is a failed call: status 0 when the server was not reached. */
export class APIError extends Error {
  constructor(message, status, code) {
    super(message);
    this.name = "APIError";
    this.status = status;
    this.code = code; // "network", "status", "stream" or "unauthorized"
  }
}

/**
 * parseSSE reads a text/event-stream body and calls onEvent(event, data)
 * for every event, as the HTML standard's parser does: "event" and "data"
 * fields, several data lines joined by "\n", a blank line dispatches,
 * comments and unknown fields ignored.
 */
export async function parseSSE(body, onEvent) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  let event = "";
  let data = [];
  const dispatch = () => {
    if (data.length) onEvent(event || "message", data.join("\n"));
    event = "";
    data = [];
  };
  const line = (l) => {
    if (l === "") return dispatch();
    if (l.startsWith(":")) return;
    const colon = l.indexOf(":");
    const field = colon < 0 ? l : l.slice(0, colon);
    let value = colon < 0 ? "" : l.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "event") event = value;
    else if (field === "data") data.push(value);
  };
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    // A "\r" at the very end may be half of "\r\n": wait for the next chunk.
    let m;
    const re = /\r\n|\r(?!$)|\n/g;
    let start = 0;
    while ((m = re.exec(buffer))) {
      line(buffer.slice(start, m.index));
      start = m.index + m[0].length;
    }
    buffer = buffer.slice(start);
  }
  if (buffer.replace(/\r$/, "") !== "") line(buffer.replace(/\r$/, ""));
  // A stream that ends without the final blank line still delivers its
  // last event: a server that closes right after it should not lose it.
  dispatch();
}

/** errorMessage extracts {"error": ...} from a failed response, if any. */
async function errorMessage(res) {
  try {
    const text = await res.text();
    try {
      const v = JSON.parse(text);
      if (v && typeof v.error === "string") return v.error;
      if (v && v.error && typeof v.error.message === "string") return v.error.message;
    } catch {
      /* not JSON */
    }
    return text.trim().slice(0, 300);
  } catch {
    return "";
  }
}

/** createAPI returns the API client; token() gives the current token. */
export function createAPI(token) {
  const headers = (extra = {}) => {
    const h = { ...extra };
    const t = token();
    if (t) h.Authorization = `Bearer ${t}`;
    return h;
  };

  async function request(path, init = {}) {
    let res;
    try {
      res = await fetch(path, { ...init, headers: headers(init.headers) });
    } catch (err) {
      if (err && err.name === "AbortError") throw err;
      throw new APIError(String(err && err.message ? err.message : err), 0, "network");
    }
    if (!res.ok) {
      const msg = await errorMessage(res);
      throw new APIError(msg, res.status, res.status === 401 ? "unauthorized" : "status");
    }
    return res;
  }

  const jsonBody = (method, body) => ({ method, headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });

  async function json(path, init) {
    const res = await request(path, { ...init, headers: { Accept: "application/json", ...(init && init.headers) } });
    return res.json();
  }

  return {
    /** health never needs a token, but sends one so the server can name its role. */
    health: () => json("/api/health"),
    /** chunk fetches a passage; with a claim it also names the sentence that best supports it ("cited"). */
    chunk: (id, claim) => json(`/api/chunks/${encodeURIComponent(id)}${claim ? `?claim=${encodeURIComponent(claim)}` : ""}`),
    /** overview says what the caller's role sees of the index and which model answers. */
    overview: () => json("/api/overview"),
    /** compendium lists the entities the caller's role may see. */
    compendium: () => json("/api/compendium"),
    /** timeline is an entity's story in session order, by any name or alias of it (404: none such). */
    timeline: (name) => json(`/api/timeline?name=${encodeURIComponent(name)}`),
    /** recap is a session's events and what it left open: the last session the caller may see unless session is given. */
    recap: (session) => json(`/api/recap${session != null ? `?session=${encodeURIComponent(session)}` : ""}`),
    /** startIngest asks the server to read the notes again (DM only). */
    startIngest: () => json("/api/ingest", { method: "POST" }),
    /** ingestStatus says how the background ingest goes (DM only). */
    ingestStatus: () => json("/api/ingest"),
    note: (file) => json(`/api/note?file=${encodeURIComponent(file)}`),

    /**
     * memoryIntent says what a chat line asks of long-term memory, saving
     * nothing: {intent: ""} for a question; {intent: "remember", proposal:
     * {scope, key, value}} (or an error); {intent: "forget", candidates}.
     */
    memoryIntent: (text) => json("/api/memory/intent", jsonBody("POST", { text })),
    /** addMemory saves an entry ({scope, key, value, verified}); it resolves to the entry. */
    addMemory: (entry) => json("/api/memory", jsonBody("POST", entry)),
    /** forgetMemory deletes an entry for good. */
    forgetMemory: (id) => json(`/api/memory/${encodeURIComponent(id)}`, { method: "DELETE" }),

    /**
     * ask posts a question and resolves to the Answer. onDelta(text)
     * receives the raw generated text as it streams; onThinking() says
     * that the model has started reasoning (until the next delta).
     */
    async ask(body, { signal, onDelta, onThinking } = {}) {
      const res = await request("/api/ask", {
        method: "POST",
        signal,
        headers: { "Content-Type": "application/json", Accept: "text/event-stream" },
        body: JSON.stringify({ ...body, stream: true }),
      });
      const type = res.headers.get("Content-Type") || "";
      if (!type.includes("text/event-stream")) {
        // A server that answers whole (no streaming) is still understood.
        const v = await res.json();
        if (v && v.error) throw new APIError(String(v.error), res.status, "status");
        return v;
      }
      let answer = null;
      let failure = null;
      await parseSSE(res.body, (event, data) => {
        let v;
        try {
          v = JSON.parse(data);
        } catch {
          return;
        }
        if (event === "delta" && typeof v.text === "string") onDelta?.(v.text);
        else if (event === "thinking") onThinking?.();
        else if (event === "answer") answer = v;
        else if (event === "error") failure = new APIError(String(v.error ?? ""), res.status, "status");
      });
      if (failure) throw failure;
      if (!answer) throw new APIError("", res.status, "stream");
      return answer;
    },
  };
}
