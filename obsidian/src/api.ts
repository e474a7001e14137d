// The client of `oraculo serve`'s JSON API, the same routes the web page
// uses: GET /api/health, POST /api/ask (streamed as server-sent events:
// "delta", "thinking", then "answer" or "error"), GET /api/chunks/{id}.

import { readSSE } from "./sse";

/** Fetch is the fetch function the client calls (window.fetch in Obsidian). */
export type Fetch = (url: string, init?: RequestInit) => Promise<Response>;

/** Health is GET /api/health: role is "dm", "player" or "" (no valid token). */
export interface Health {
  status: string;
  version: string;
  auth: boolean;
  role: string;
}

/** Citation is one label of a citation group, with the evidence it names. */
export interface Citation {
  label: string;
  evidence: string | null;
  kind?: string;
  valid: boolean;
}

/** Segment is a part of an answer's text: plain text, a citation group, or the mark of an unsupported sentence. */
export interface Segment {
  text: string;
  citations?: Citation[];
  supported?: boolean;
  mark?: string;
}

/** Source is a passage an answer cites. */
export interface Source {
  index: number;
  id: string;
  label: string;
  file: string;
  kind: string;
  text?: string;
  url: string;
}

/** Turn is a question asked before, with what was answered: the history a follow-up is read with. */
export interface Turn {
  question: string;
  answer?: string;
  query?: string;
  sessions?: number[];
}

/** AskReply is what POST /api/ask answers (the fields the plugin reads). */
export interface AskReply {
  question: string;
  query: string;
  cited_sessions?: number[];
  answer: string;
  abstained: boolean;
  grounding: string;
  mode: string;
  lang: string;
  notice?: string;
  segments: Segment[];
  citations: Citation[];
  removed_citations: Citation[];
  evidence: Source[];
  sources: Source[];
}

/** Chunk is GET /api/chunks/{id}?claim=: a passage, where it is, and the sentence that supports the claim. */
export interface Chunk {
  id: string;
  file: string;
  title: string;
  label: string;
  headings: string[] | null;
  byte_start: number;
  byte_end: number;
  first_line: string;
  text: string;
  cited?: string;
}

/** Filters restricts an ask to sessions, folders (or one note's path) and tags. */
export interface Filters {
  sessions?: number[];
  folders?: string[];
  tags?: string[];
}

/** AskOptions are an ask's filters and the stream's callbacks. */
export interface AskOptions {
  filters?: Filters;
  /** history is the conversation before the question. */
  history?: Turn[];
  lang?: "es" | "en";
  signal?: AbortSignal;
  /** onDelta receives the verified text as it grows, a piece at a time. */
  onDelta?: (text: string) => void;
  /** onThinking says the model started reasoning (until the next delta). */
  onThinking?: () => void;
}

/** APIError is a failed call: status 0 when the server was not reached. */
export class APIError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: "network" | "status" | "stream" | "unauthorized",
  ) {
    super(message);
    this.name = "APIError";
  }
}

/** Client talks to one server with one token (empty: none). */
export class Client {
  constructor(
    readonly baseURL: string,
    readonly token: string,
    private readonly fetchFn: Fetch,
  ) {}

  /** url is path on the server. */
  url(path: string): string {
    return this.baseURL.trim().replace(/\/+$/, "") + path;
  }

  private async request(path: string, init: RequestInit = {}): Promise<Response> {
    const headers: Record<string, string> = { ...(init.headers as Record<string, string> | undefined) };
    if (this.token.trim()) headers.Authorization = `Bearer ${this.token.trim()}`;
    let res: Response;
    try {
      res = await this.fetchFn(this.url(path), { ...init, headers });
    } catch (err) {
      if (err instanceof Error && err.name === "AbortError") throw err;
      throw new APIError(err instanceof Error ? err.message : String(err), 0, "network");
    }
    if (!res.ok) throw new APIError(await errorMessage(res), res.status, res.status === 401 ? "unauthorized" : "status");
    return res;
  }

  /** health says whether the server answers and the token's role; it needs no token. */
  async health(): Promise<Health> {
    return (await this.request("/api/health", { headers: { Accept: "application/json" } })).json() as Promise<Health>;
  }

  /** chunk fetches a passage; with a claim, "cited" names its sentence that best supports it. */
  async chunk(id: string, claim = ""): Promise<Chunk> {
    const q = claim ? `?claim=${encodeURIComponent(claim)}` : "";
    return (await this.request(`/api/chunks/${encodeURIComponent(id)}${q}`, { headers: { Accept: "application/json" } })).json() as Promise<Chunk>;
  }

  /** askWhole asks without streaming and resolves to the whole answer. */
  async askWhole(question: string, opts: AskOptions = {}): Promise<AskReply> {
    const res = await this.request("/api/ask", {
      method: "POST",
      signal: opts.signal,
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(askBody(question, opts, false)),
    });
    return res.json() as Promise<AskReply>;
  }

  /** ask asks with the answer streamed: onDelta gets its text as it is verified; it resolves to the whole answer. */
  async ask(question: string, opts: AskOptions = {}): Promise<AskReply> {
    const res = await this.request("/api/ask", {
      method: "POST",
      signal: opts.signal,
      headers: { "Content-Type": "application/json", Accept: "text/event-stream" },
      body: JSON.stringify(askBody(question, opts, true)),
    });
    if (!(res.headers.get("Content-Type") ?? "").includes("text/event-stream") || !res.body) {
      return res.json() as Promise<AskReply>;
    }
    let answer: AskReply | null = null;
    let failure: APIError | null = null;
    await readSSE(res.body, (event, data) => {
      let v: { text?: unknown; error?: unknown };
      try {
        v = JSON.parse(data) as typeof v;
      } catch {
        return;
      }
      if (event === "delta" && typeof v.text === "string") opts.onDelta?.(v.text);
      else if (event === "thinking") opts.onThinking?.();
      else if (event === "answer") answer = v as unknown as AskReply;
      else if (event === "error") failure = new APIError(String(v.error ?? ""), res.status, "status");
    });
    if (failure) throw failure;
    if (!answer) throw new APIError("the stream ended without an answer", res.status, "stream");
    return answer;
  }
}

function askBody(question: string, opts: AskOptions, stream: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = { question, stream };
  if (opts.lang) body.lang = opts.lang;
  if (opts.filters) body.filters = opts.filters;
  if (opts.history?.length) body.history = opts.history;
  return body;
}

/** errorMessage extracts {"error": ...} from a failed response, if any. */
async function errorMessage(res: Response): Promise<string> {
  let text = "";
  try {
    text = await res.text();
    const v = JSON.parse(text) as { error?: unknown };
    if (typeof v.error === "string") return v.error;
  } catch {
    /* not JSON */
  }
  return text.trim().slice(0, 300) || `HTTP ${res.status}`;
}
