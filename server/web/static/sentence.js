// The cited sentence in a rendered passage: found by its letters and
// digits whatever the Markdown around them, and marked.

import { renderInline } from "./markdown.js";

// What a sentence is matched on: its letters and digits, lowercased, so
// that Markdown's marks, spaces and line breaks do not count.
const WORDISH = /[\p{L}\p{N}]/u;
const CLOSING = /[.!?…»"”’)\]]/u;

/**
 * markSentence marks, in root (rendered Markdown), where sentence (a
 * sentence of the Markdown it was rendered from) reads: its text nodes
 * there are wrapped in <mark class="cited">. It returns the first mark,
 * or null when the sentence is not found.
 */
export function markSentence(root, sentence) {
  const shown = renderInline(document.createElement("span"), String(sentence ?? ""), null).textContent;
  let want = "";
  for (let i = 0; i < shown.length; i++) if (WORDISH.test(shown[i])) want += shown[i].toLowerCase();
  if (!want) return null;
  // Each letter or digit of root, with the text node and offset it is at.
  let have = "";
  const at = [];
  const walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    const data = n.data;
    for (let i = 0; i < data.length; i++) {
      if (!WORDISH.test(data[i])) continue;
      // Lowercasing may lengthen a letter ("İ"): every unit maps back to it.
      const low = data[i].toLowerCase();
      have += low;
      for (let k = 0; k < low.length; k++) at.push([n, i]);
    }
  }
  const start = have.indexOf(want);
  if (start < 0) return null;
  const [first, from] = at[start];
  const [last, lastAt] = at[start + want.length - 1];
  let to = lastAt + 1;
  while (to < last.data.length && CLOSING.test(last.data[to])) to++;
  // The text nodes from first to last, each cut to the part inside.
  const nodes = [];
  const range = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  range.currentNode = first;
  for (let n = first; n; n = range.nextNode()) {
    nodes.push(n);
    if (n === last) break;
  }
  let firstMark = null;
  for (const n of nodes) {
    const s = n === first ? from : 0;
    const e = n === last ? to : n.data.length;
    if (e <= s || !n.data.slice(s, e).trim()) continue;
    let part = n;
    if (s > 0) part = part.splitText(s);
    if (e - s < part.data.length) part.splitText(e - s);
    const mark = document.createElement("mark");
    mark.className = "cited";
    mark.dataset.testid = "cited-sentence";
    part.replaceWith(mark);
    mark.append(part);
    firstMark ||= mark;
  }
  return firstMark;
}
