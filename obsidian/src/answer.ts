// An answer as the server resolved it, cut into what the pane shows: text,
// citations (each with the evidence it names and its claim, the text
// before it, which the server reads to find the cited sentence), and the
// marks of unsupported sentences. The pane never decides what a citation
// is: the server's segments do.

import { AskReply, Source } from "./api";

/** CLAIM_CHARS bounds the text before a citation sent to find its sentence. */
export const CLAIM_CHARS = 300;

/** Part is a piece of an answer as the pane shows it. */
export type Part =
  | { kind: "text"; text: string }
  | { kind: "cite"; label: string; source: Source; claim: string }
  | { kind: "unsupported"; text: string };

/** parts cuts a reply into parts; a citation whose evidence was not delivered is left out, as the server left it out of the text. */
export function parts(reply: AskReply): Part[] {
  if (!Array.isArray(reply.segments) || reply.segments.length === 0) return [{ kind: "text", text: reply.answer ?? "" }];
  const byID = new Map<string, Source>();
  for (const s of [...(reply.evidence ?? []), ...(reply.sources ?? [])]) byID.set(s.id, s);
  const out: Part[] = [];
  let since = "";
  for (const seg of reply.segments) {
    if (seg.mark === "unsupported") {
      out.push({ kind: "unsupported", text: seg.text });
      since = "";
    } else if (seg.citations?.length) {
      const claim = since.trim().slice(-CLAIM_CHARS);
      for (const c of seg.citations) {
        const source = c.evidence ? byID.get(c.evidence) : undefined;
        if (source && c.valid) out.push({ kind: "cite", label: c.label, source, claim });
      }
      since = "";
    } else {
      out.push({ kind: "text", text: seg.text });
      since += seg.text;
    }
  }
  return out;
}

/** citations lists the cite parts of a reply, in order. */
export function citations(reply: AskReply): Extract<Part, { kind: "cite" }>[] {
  return parts(reply).filter((p): p is Extract<Part, { kind: "cite" }> => p.kind === "cite");
}
