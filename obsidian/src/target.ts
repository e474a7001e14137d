// Where a citation points in the vault: the note, its heading, and the
// cited sentence, found in the note's text as the editor holds it.

import { Chunk } from "./api";

/** Target is the passage a citation opens. */
export interface Target {
  /** path is the note's path as the server indexed it. */
  path: string;
  /** heading is the passage's deepest heading, "" when none. */
  heading: string;
  /** sentence is the cited sentence, "" when the server named none. */
  sentence: string;
  /** byteStart is where the passage starts in the note's body (after its front matter), in UTF-8 bytes. */
  byteStart: number;
}

/** Place is a stretch of a note's text: from and to are string offsets, line is 0-based (as Obsidian's editor counts). */
export interface Place {
  from: number;
  to: number;
  line: number;
  /** by says what was found: the sentence, the heading, the passage's start, or nothing (the note's top). */
  by: "sentence" | "heading" | "passage" | "none";
}

/** targetOf is the target of a passage fetched with its claim. */
export function targetOf(c: Chunk): Target {
  const hs = c.headings ?? [];
  return { path: c.file, heading: hs.length ? hs[hs.length - 1] : "", sentence: c.cited ?? "", byteStart: c.byte_start };
}

/** bodyStart is the offset where a note's body starts: after its front matter, as the server splits it. */
export function bodyStart(doc: string): number {
  if (!doc.startsWith("---\n")) return 0;
  let off = 4;
  while (off <= doc.length) {
    const nl = doc.indexOf("\n", off);
    const line = doc.slice(off, nl < 0 ? doc.length : nl).replace(/[ \t]+$/, "");
    if (line === "---" || line === "...") return nl < 0 ? doc.length : nl + 1;
    if (nl < 0) break;
    off = nl + 1;
  }
  return 0;
}

/** offsetOfByte is the string offset of the UTF-8 byte offset bytes into s, from start. */
export function offsetOfByte(s: string, start: number, bytes: number): number {
  let i = start;
  let n = 0;
  while (i < s.length && n < bytes) {
    const cp = s.codePointAt(i) ?? 0;
    n += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    i += cp >= 0x10000 ? 2 : 1;
  }
  return i;
}

/** lineOf is the 0-based line of offset in doc. */
export function lineOf(doc: string, offset: number): number {
  let n = 0;
  for (let i = doc.indexOf("\n"); i >= 0 && i < offset; i = doc.indexOf("\n", i + 1)) n++;
  return n;
}

/** sentenceRanges finds sentence in doc as written: any run of white space (a line break too) between its words. */
function sentenceRanges(doc: string, sentence: string): [number, number][] {
  const words = sentence.trim().split(/\s+/).filter(Boolean);
  if (!words.length) return [];
  const re = new RegExp(words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("\\s+"), "g");
  const out: [number, number][] = [];
  for (let m = re.exec(doc); m; m = re.exec(doc)) out.push([m.index, m.index + m[0].length]);
  return out;
}

/** headingOffset is where a heading line with text heading starts in doc, from offset on if it is there, else anywhere; -1 when none. */
function headingOffset(doc: string, heading: string, from: number): number {
  if (!heading.trim()) return -1;
  const h = heading.trim().replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const re = new RegExp(`^#{1,6}[ \\t]+${h}[ \\t]*#*[ \\t]*$`, "gm");
  let first = -1;
  for (let m = re.exec(doc); m; m = re.exec(doc)) {
    if (first < 0) first = m.index;
    if (m.index >= from) return m.index;
  }
  return first;
}

/**
 * locate finds a target in doc, the note's text: the cited sentence (the
 * occurrence nearest the passage's start, at or after it if any), else the
 * passage's heading, else the passage's start.
 */
export function locate(doc: string, target: Target): Place {
  const body = bodyStart(doc);
  const passage = Math.min(offsetOfByte(doc, body, Math.max(0, target.byteStart)), doc.length);
  const found = sentenceRanges(doc, target.sentence);
  if (found.length) {
    const after = found.filter(([s]) => s >= passage);
    const [from, to] = after.length ? after[0] : found[found.length - 1];
    return { from, to, line: lineOf(doc, from), by: "sentence" };
  }
  const h = headingOffset(doc, target.heading, Math.max(0, passage - 1));
  if (h >= 0) {
    const end = doc.indexOf("\n", h);
    return { from: h, to: end < 0 ? doc.length : end, line: lineOf(doc, h), by: "heading" };
  }
  if (target.byteStart > 0 || body > 0) {
    const end = doc.indexOf("\n", passage);
    return { from: passage, to: end < 0 ? doc.length : end, line: lineOf(doc, passage), by: "passage" };
  }
  return { from: 0, to: 0, line: 0, by: "none" };
}
