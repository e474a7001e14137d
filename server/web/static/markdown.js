// A small, safe Markdown renderer for notes and answers. It builds DOM
// nodes and sets only textContent, never innerHTML, so nothing in a note
// can become markup: what it allows is paragraphs, headings, lists,
// quotes, rules, code, bold, italics, strikethrough, and Obsidian's
// markup shown as the server's text.Render shows it (a wikilink as its
// shown text, a highlight as its text, tags without "#", footnote and
// callout marks dropped), so that a sentence the server quotes from a
// note reads the same here.

const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const ITEM = /^(\s*)([-*+]|\d{1,9}[.)])\s+(?:\[([ xX])\]\s+)?(.*)$/;
const RULE = /^\s{0,3}([-*_])(\s*\1){2,}\s*$/;
const FENCE = /^\s{0,3}(```|~~~)/;
const QUOTE = /^\s{0,3}>\s?(.*)$/;
const TABLE = /^\s*\|.*\|\s*$/;
const FOOTNOTE_DEF = /^(\s{0,3})\[\^[^\[\]\s]+\]:\s*/;
const CALLOUT = /^((?:\s{0,3}>\s*)+)\[![^\[\]\s]+\][+-]?\s*/;

// One alternative per inline construct; the group that matched says which.
const INLINE = new RegExp(
  [
    "(`+)([\\s\\S]*?[^`])\\1(?!`)", // 1,2 code
    "\\*\\*(?=\\S)([\\s\\S]*?\\S)\\*\\*", // 3 strong
    "(?<![\\p{L}\\p{N}_])__(?=\\S)([\\s\\S]*?\\S)__(?![\\p{L}\\p{N}_])", // 4 strong
    "\\*(?=[^\\s*])([\\s\\S]*?[^\\s*])\\*", // 5 em
    "(?<![\\p{L}\\p{N}_])_(?=[^\\s_])([\\s\\S]*?[^\\s_])_(?![\\p{L}\\p{N}_])", // 6 em
    "(!?)\\[\\[([^\\[\\]\\n]+?)\\]\\]", // 7,8 wiki link or embed
    "!?\\[([^\\[\\]\\n]*)\\]\\(((?:[^()\\s]|\\([^()\\s]*\\))*(?:\\s+\"[^\"]*\")?)\\)", // 9,10 link or image
    "\\[\\^[^\\[\\]\\s]+\\]", // footnote reference: dropped
    "\\^\\[([^\\[\\]\\n]*)\\]", // 11 inline footnote
    "==(?=[^\\s=])([\\s\\S]*?\\S)==", // 12 highlight
    "~~(?=\\S)([\\s\\S]*?\\S)~~", // 13 strikethrough
    "(?<!\\S)#([\\p{L}\\p{M}\\p{N}_/-]*[\\p{L}\\p{M}_][\\p{L}\\p{M}\\p{N}_/-]*)", // 14 tag
    "\\[([^\\[\\]\\n]+)\\]", // 15 bracket group: maybe a citation
  ].join("|"),
  "gu",
);

function el(tag, className, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text != null) e.textContent = text;
  return e;
}

/**
 * renderInline appends the inline Markdown of text to parent. cite(inner)
 * may return a Node for a bracket group "[inner]" (a citation); when it
 * returns null the brackets stay text.
 */
export function renderInline(parent, text, cite) {
  let last = 0;
  const matches = [...text.matchAll(INLINE)];
  for (const m of matches) {
    if (m.index > last) parent.append(text.slice(last, m.index));
    last = m.index + m[0].length;
    if (m[2] !== undefined) {
      parent.append(el("code", null, m[2]));
    } else if (m[3] !== undefined || m[4] !== undefined) {
      const s = el("strong");
      renderInline(s, m[3] ?? m[4], cite);
      parent.append(s);
    } else if (m[5] !== undefined || m[6] !== undefined) {
      const s = el("em");
      renderInline(s, m[5] ?? m[6], cite);
      parent.append(s);
    } else if (m[8] !== undefined) {
      const shown = wikilinkText(m[8]);
      if (m[7] && isAttachment(m[8])) continue; // an embedded file: not in the text
      parent.append(el("span", "md-wikilink", shown));
    } else if (m[9] !== undefined) {
      // Links are not followed from a note: keep the words, drop the URL.
      parent.append(el("span", "md-link", m[9] || m[10]));
    } else if (m[11] !== undefined) {
      parent.append("(");
      renderInline(parent, m[11], cite);
      parent.append(")");
    } else if (m[12] !== undefined) {
      const s = el("mark", "md-highlight");
      renderInline(s, m[12], cite);
      parent.append(s);
    } else if (m[13] !== undefined) {
      const s = el("del");
      renderInline(s, m[13], cite);
      parent.append(s);
    } else if (m[14] !== undefined) {
      parent.append(el("span", "md-tag", m[14]));
    } else if (m[15] !== undefined) {
      const node = cite ? cite(m[15]) : null;
      if (node) parent.append(node);
      else parent.append(m[0]);
    }
  }
  if (last < text.length) parent.append(text.slice(last));
  return parent;
}

/**
 * wikilinkText is the text a wikilink's inner text shows, as the server's
 * text.Render has it: the shown text after "|", else the note's name
 * (its last path part, without ".md") and the headings it points to,
 * joined by " › "; a block reference ("^id") shows nothing of itself.
 */
function wikilinkText(inner) {
  const bar = inner.replaceAll("\\|", "|").indexOf("|");
  const plain = inner.replaceAll("\\|", "|");
  const shown = bar >= 0 ? plain.slice(bar + 1).trim() : "";
  if (shown) return shown;
  let target = bar >= 0 ? plain.slice(0, bar) : plain;
  const k = target.search(/[#^]/);
  const place = k >= 0 ? target.slice(k) : "";
  target = (k >= 0 ? target.slice(0, k) : target).trim();
  target = target.slice(target.lastIndexOf("/") + 1);
  if (target.length > 3 && target.slice(-3).toLowerCase() === ".md") target = target.slice(0, -3);
  const parts = target ? [target] : [];
  for (const p of place.split("#")) {
    const t = p.trim();
    if (t && !t.startsWith("^")) parts.push(t);
  }
  return parts.length ? parts.join(" › ") : plain.replace(/[#^]/g, "").trim();
}

/** isAttachment reports a wikilink to a file other than a note ("mapa.png"). */
function isAttachment(inner) {
  let target = inner.replaceAll("\\|", "|").split("|")[0];
  const k = target.search(/[#^]/);
  if (k >= 0) target = target.slice(0, k);
  target = target.trim();
  target = target.slice(target.lastIndexOf("/") + 1);
  const m = /\.([A-Za-z0-9]{1,5})$/.exec(target);
  return !!m && m.index > 0 && m[1].toLowerCase() !== "md";
}

/** appendLines renders lines as inline text separated by line breaks. */
function appendLines(parent, lines, cite) {
  lines.forEach((line, i) => {
    if (i > 0) parent.append(el("br"));
    renderInline(parent, line.trim(), cite);
  });
  return parent;
}

/**
 * renderMarkdown returns a DocumentFragment for text. Options:
 * headingOffset shifts heading levels ("#" becomes h(1+offset), at most
 * h6) so a note's headings sit below the page's; cite is as in
 * renderInline.
 */
export function renderMarkdown(text, { headingOffset = 2, cite = null } = {}) {
  const frag = document.createDocumentFragment();
  const lines = String(text ?? "").replace(/\r\n?/g, "\n").split("\n");
  let para = [];
  let quote = [];
  let lists = []; // stack of {indent, node}

  const flushPara = () => {
    if (para.length) frag.append(appendLines(el("p"), para, cite));
    para = [];
  };
  const flushQuote = () => {
    if (quote.length) {
      const q = el("blockquote");
      q.append(appendLines(el("p"), quote, cite));
      frag.append(q);
    }
    quote = [];
  };
  const flushLists = () => {
    lists = [];
  };
  const flushAll = () => {
    flushPara();
    flushQuote();
    flushLists();
  };

  for (let i = 0; i < lines.length; i++) {
    // A footnote's definition keeps its text; a callout's marker goes.
    const line = lines[i].replace(FOOTNOTE_DEF, "$1").replace(CALLOUT, "$1");
    if (FENCE.test(line)) {
      flushAll();
      const fence = line.trim().slice(0, 3);
      const code = [];
      for (i++; i < lines.length && !lines[i].trim().startsWith(fence); i++) code.push(lines[i]);
      const pre = el("pre", "md-code");
      pre.append(el("code", null, code.join("\n")));
      frag.append(pre);
      continue;
    }
    if (!line.trim()) {
      flushAll();
      continue;
    }
    let m;
    if ((m = HEADING.exec(line))) {
      flushAll();
      const level = Math.min(6, m[1].length + headingOffset);
      frag.append(renderInline(el("h" + level, "md-h"), m[2], cite));
      continue;
    }
    if (RULE.test(line)) {
      flushAll();
      frag.append(el("hr"));
      continue;
    }
    if ((m = QUOTE.exec(line))) {
      flushPara();
      flushLists();
      quote.push(m[1]);
      continue;
    }
    if (TABLE.test(line)) {
      // Tables are shown as they are written, in a box that scrolls
      // sideways by itself.
      flushAll();
      const rows = [];
      for (; i < lines.length && TABLE.test(lines[i]); i++) rows.push(lines[i].trim());
      i--;
      const pre = el("pre", "md-table");
      pre.append(el("code", null, rows.join("\n")));
      frag.append(pre);
      continue;
    }
    if ((m = ITEM.exec(line))) {
      flushPara();
      flushQuote();
      const indent = m[1].replace(/\t/g, "  ").length;
      const ordered = /\d/.test(m[2]);
      while (lists.length && indent < lists[lists.length - 1].indent) lists.pop();
      let top = lists[lists.length - 1];
      if (!top || indent > top.indent || top.ordered !== ordered) {
        if (top && indent === top.indent) lists.pop();
        const list = el(ordered ? "ol" : "ul", "md-list");
        if (ordered) {
          const start = parseInt(m[2], 10);
          if (start > 1) list.start = start;
        }
        const parentItem = lists.length ? lists[lists.length - 1].node.lastElementChild : null;
        (parentItem || frag).append(list);
        top = { indent, ordered, node: list };
        lists.push(top);
      }
      const li = el("li");
      if (m[3] !== undefined) li.append(m[3].trim() ? "☑ " : "☐ ");
      renderInline(li, m[4], cite);
      top.node.append(li);
      continue;
    }
    if (lists.length && /^\s+\S/.test(line)) {
      // A continuation line of the last list item.
      const li = lists[lists.length - 1].node.lastElementChild;
      li.append(el("br"));
      renderInline(li, line.trim(), cite);
      continue;
    }
    flushQuote();
    flushLists();
    para.push(line);
  }
  flushAll();
  return frag;
}

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
