// The side pane: the conversation's turns, each answer streaming in, then
// drawn with its citations as buttons that open their passages and the
// list of its sources; below, the question box.

import { ItemView, Notice, WorkspaceLeaf } from "obsidian";
import { APIError, AskReply, Filters, Source, Turn } from "./api";
import { parts, Part } from "./answer";
import { t } from "./i18n";
import type OraculoPlugin from "./main";

/** VIEW_TYPE names the pane's view. */
export const VIEW_TYPE = "oraculo-ask";

/** Cite is a citation as the pane draws it: a source and its claim. */
export type Cite = Extract<Part, { kind: "cite" }>;

/** AskView is the side pane. */
export class AskView extends ItemView {
  /** notePath is the note the next questions are about ("Ask about this note"), "" for the whole vault. */
  notePath = "";
  /** reply is the last answer, null while none. */
  reply: AskReply | null = null;
  /** streamed is the text the last answer's stream delivered, delta by delta. */
  streamed: string[] = [];
  /** history is the conversation so far, sent with each question so that follow-ups are understood. */
  history: Turn[] = [];
  private turnsEl!: HTMLElement;
  private input!: HTMLTextAreaElement;
  private scopeEl!: HTMLElement;
  // The last turn's answer and sources, made by ask.
  private answerEl!: HTMLElement;
  private sourcesEl!: HTMLElement;
  private statusEl!: HTMLElement;
  private controller: AbortController | null = null;

  constructor(
    leaf: WorkspaceLeaf,
    private readonly plugin: OraculoPlugin,
  ) {
    super(leaf);
  }

  getViewType(): string {
    return VIEW_TYPE;
  }

  getDisplayText(): string {
    return t(this.plugin.lang, "viewTitle");
  }

  getIcon(): string {
    return "message-circle-question";
  }

  async onOpen(): Promise<void> {
    const lang = this.plugin.lang;
    const root = this.contentEl;
    root.empty();
    root.addClass("oraculo-view");
    this.scopeEl = root.createDiv({ cls: "oraculo-scope" });
    this.turnsEl = root.createDiv({ cls: "oraculo-turns" });
    this.statusEl = root.createDiv({ cls: "oraculo-status" });
    this.input = root.createEl("textarea", { cls: "oraculo-question", attr: { placeholder: t(lang, "placeholder"), "aria-label": t(lang, "placeholder"), rows: "3" } });
    this.input.addEventListener("keydown", (e: KeyboardEvent) => {
      if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
        e.preventDefault();
        void this.ask(this.input.value);
      }
    });
    const row = root.createDiv({ cls: "oraculo-buttons" });
    row.createEl("button", { text: t(lang, "ask"), cls: "mod-cta" }).addEventListener("click", () => void this.ask(this.input.value));
    row.createEl("button", { text: t(lang, "stop") }).addEventListener("click", () => this.controller?.abort());
    row.createEl("button", { text: t(lang, "newConversation") }).addEventListener("click", () => this.newConversation());
    this.showScope();
  }

  async onClose(): Promise<void> {
    this.controller?.abort();
  }

  /** focusInput puts the cursor in the question box. */
  focusInput(): void {
    this.input.focus();
  }

  /** setScope makes the next questions about one note (path as the server knows it), or the whole vault with "". */
  setScope(path: string): void {
    if (path !== this.notePath) this.newConversation();
    this.notePath = path;
    this.showScope();
  }

  private showScope(): void {
    const lang = this.plugin.lang;
    this.scopeEl.empty();
    if (!this.notePath) return;
    this.scopeEl.createSpan({ text: t(lang, "scope", { path: this.notePath }) });
    this.scopeEl.createEl("button", { text: t(lang, "clearScope"), cls: "oraculo-clear-scope" }).addEventListener("click", () => this.setScope(""));
  }

  /** newConversation forgets the questions asked so far: the next one stands alone. */
  newConversation(): void {
    this.controller?.abort();
    this.history = [];
    this.reply = null;
    this.turnsEl.empty();
    this.statusEl.setText("");
  }

  /** ask asks question (within the note asked about, with the conversation so far), streaming the answer into a new turn; it resolves when the answer is drawn. */
  async ask(question: string): Promise<void> {
    question = question.trim();
    if (!question) return;
    const lang = this.plugin.lang;
    this.input.value = "";
    this.controller?.abort();
    const controller = new AbortController();
    this.controller = controller;
    this.reply = null;
    this.streamed = [];
    const turn = this.turnsEl.createDiv({ cls: "oraculo-turn" });
    turn.createDiv({ text: question, cls: "oraculo-turn-question" });
    this.answerEl = turn.createDiv({ cls: "oraculo-answer" });
    this.sourcesEl = turn.createDiv({ cls: "oraculo-sources" });
    this.statusEl.setText(t(lang, "searching"));
    const filters: Filters | undefined = this.notePath ? { folders: [this.notePath] } : undefined;
    let text = "";
    try {
      const reply = await this.plugin.client().ask(question, {
        filters,
        history: [...this.history],
        signal: controller.signal,
        onThinking: () => this.statusEl.setText(t(lang, "thinking")),
        onDelta: (d) => {
          this.streamed.push(d);
          text += d;
          this.statusEl.setText("");
          this.answerEl.setText(text);
        },
      });
      if (this.controller !== controller) return;
      this.reply = reply;
      this.history.push({ question, answer: reply.answer, query: reply.query, sessions: reply.cited_sessions });
      this.statusEl.setText(reply.notice ?? "");
      this.draw(reply);
    } catch (err) {
      if (err instanceof Error && err.name === "AbortError") return;
      this.statusEl.setText(this.failure(err));
    } finally {
      if (this.controller === controller) this.controller = null;
    }
  }

  /** failure says what went wrong with a question in the user's words. */
  private failure(err: unknown): string {
    const lang = this.plugin.lang;
    if (err instanceof APIError && err.code === "network") return t(lang, "unreachable", { url: this.plugin.settings.serverURL, detail: err.message });
    if (err instanceof APIError && err.code === "unauthorized") return t(lang, this.plugin.settings.token ? "badToken" : "noToken");
    return t(lang, "errorPrefix", { error: err instanceof Error ? err.message : String(err) });
  }

  /** draw shows a whole answer: its text, its citations as buttons, its sources. */
  private draw(reply: AskReply): void {
    const lang = this.plugin.lang;
    this.answerEl.empty();
    if (reply.abstained && !reply.answer) this.answerEl.createSpan({ text: t(lang, "abstained") });
    for (const p of parts(reply)) {
      if (p.kind === "text") this.answerEl.createSpan({ text: p.text });
      else if (p.kind === "unsupported") this.answerEl.createSpan({ text: ` (${t(lang, "unsupported")})`, cls: "oraculo-unsupported" });
      else this.citeButton(this.answerEl, `[${p.label}]`, p);
    }
    const removed = reply.removed_citations?.length ?? 0;
    if (removed) this.answerEl.createDiv({ text: t(lang, "removed", { n: removed }), cls: "oraculo-removed" });
    const seen = new Map<string, Cite>();
    for (const p of parts(reply)) if (p.kind === "cite" && !seen.has(p.source.id)) seen.set(p.source.id, p);
    if (!seen.size) return;
    this.sourcesEl.createEl("h4", { text: t(lang, "sources") });
    const list = this.sourcesEl.createEl("ol");
    for (const c of seen.values()) this.citeButton(list.createEl("li"), sourceName(c.source), c);
  }

  private citeButton(parent: HTMLElement, text: string, cite: Cite): void {
    const b = parent.createEl("button", { text, cls: "oraculo-cite", attr: { title: cite.source.file } });
    b.addEventListener("click", () => void this.plugin.openCitation(cite));
  }
}

/** sourceName is how the sources list names a passage: its label, and its note when the label does not say it. */
function sourceName(s: Source): string {
  return s.file && !s.label.includes(s.file) ? `${s.label} — ${s.file}` : s.label;
}

/** notify shows a notice for a few seconds. */
export function notify(message: string): void {
  new Notice(message, 8000);
}
