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
const FOOTNOTE_DEF = /^(\s{0,3})\[\^[^[\]\s]+\]:\s*/;
const CALLOUT = /^((?:\s{0,3}>\s*)+)\[![^[\]\s]+\][+-]?\s*/;

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
 * returns null the brackets stay text. noteLink(target) may return the
 * URL of the note a wikilink's target names (as the server resolved it
 * for the reader: see wikilinkTarget); the wikilink is then a link to it,
 * its shown text unchanged, and otherwise its shown text alone, as
 * without noteLink.
 */
export function renderInline(parent, text, cite, noteLink = null) {
  let last = 0;
  const matches = [...text.matchAll(INLINE)];
  for (const m of matches) {
    if (m.index > last) parent.append(text.slice(last, m.index));
    last = m.index + m[0].length;
    if (m[2] !== undefined) {
      parent.append(el("code", null, m[2]));
    } else if (m[3] !== undefined || m[4] !== undefined) {
      const s = el("strong");
      renderInline(s, m[3] ?? m[4], cite, noteLink);
      parent.append(s);
    } else if (m[5] !== undefined || m[6] !== undefined) {
      const s = el("em");
      renderInline(s, m[5] ?? m[6], cite, noteLink);
      parent.append(s);
    } else if (m[8] !== undefined) {
      const shown = wikilinkText(m[8]);
      if (m[7] && isAttachment(m[8])) continue; // an embedded file: not in the text
      const href = noteLink ? noteLink(wikilinkTarget(m[8])) : null;
      parent.append(href ? noteAnchor("md-wikilink", shown, href) : el("span", "md-wikilink", shown));
    } else if (m[9] !== undefined) {
      // Links are not followed from a note: keep the words, drop the URL.
      parent.append(el("span", "md-link", m[9] || m[10]));
    } else if (m[11] !== undefined) {
      parent.append("(");
      renderInline(parent, m[11], cite, noteLink);
      parent.append(")");
    } else if (m[12] !== undefined) {
      const s = el("mark", "md-highlight");
      renderInline(s, m[12], cite, noteLink);
      parent.append(s);
    } else if (m[13] !== undefined) {
      const s = el("del");
      renderInline(s, m[13], cite, noteLink);
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

/**
 * wikilinkTarget is the note a wikilink's inner text names, as written
 * and as the server's text.Wikilink has it: before "|", "#" or "^",
 * trimmed ("NPCs/Harbin.md").
 */
export function wikilinkTarget(inner) {
  const target = inner.replaceAll("\\|", "|").split("|")[0];
  const k = target.search(/[#^]/);
  return (k >= 0 ? target.slice(0, k) : target).trim();
}

/**
 * noteLinks returns the noteLink of renderInline for a map from wikilink
 * targets to the URLs of their notes (a chunk's or a note's
 * "note_links"): null for any target the map does not hold.
 */
export function noteLinks(links) {
  if (!links || typeof links !== "object") return null;
  return (target) => (Object.hasOwn(links, target) && typeof links[target] === "string" ? links[target] : null);
}

/** noteAnchor is a link to a note's page, opened beside the page. */
function noteAnchor(className, text, href) {
  const a = el("a", className, text);
  a.href = href;
  a.target = "_blank";
  a.rel = "noopener noreferrer";
  a.dataset.testid = "note-link";
  return a;
}

/**
 * linkNames makes, in root (a rendered answer), the first mention of
 * each name of links ([{text, url}], an answer's "note_links", longest
 * first) a link to its note, as the server's link.Maker.TextNotes does in
 * the answer's Markdown: where the name stands as whole words, outside
 * code, links and citations. It returns root.
 */
export function linkNames(root, links) {
  if (!Array.isArray(links)) return root;
  const skip = "a, button, code, pre, .cite-group, .md-link";
  for (const l of links) {
    if (!l || typeof l.text !== "string" || !l.text || typeof l.url !== "string") continue;
    const walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    let found = null;
    for (let n = walk.nextNode(); n && !found; n = walk.nextNode()) {
      if (n.parentElement?.closest(skip)) continue;
      for (let i = indexWord(n.data, l.text, 0); i >= 0 && !found; i = indexWord(n.data, l.text, i + 1)) {
        // Not inside a URL written out.
        if (!/:\/\//.test(n.data.slice(0, i).split(/\s/).pop())) found = [n, i];
      }
    }
    if (!found) continue;
    const [n, i] = found;
    const name = n.splitText(i);
    name.splitText(l.text.length);
    name.replaceWith(noteAnchor("note-link", l.text, l.url));
  }
  return root;
}

const WORD = /[\p{L}\p{N}]/u;

/** indexWord is where w first stands in s as whole words from from on, or -1 (text.IndexWordFrom). */
export function indexWord(s, w, from) {
  const edge = (c) => c !== undefined && WORD.test(c);
  for (let i = s.indexOf(w, from); i >= 0; i = s.indexOf(w, i + 1)) {
    const before = s[i - 1];
    const after = s[i + w.length];
    if ((!edge(before) || !edge(w[0])) && (!edge(after) || !edge(w[w.length - 1]))) return i;
  }
  return -1;
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
function appendLines(parent, lines, cite, noteLink) {
  lines.forEach((line, i) => {
    if (i > 0) parent.append(el("br"));
    renderInline(parent, line.trim(), cite, noteLink);
  });
  return parent;
}

/**
 * renderMarkdown returns a DocumentFragment for text. Options:
 * headingOffset shifts heading levels ("#" becomes h(1+offset), at most
 * h6) so a note's headings sit below the page's; cite and noteLink are
 * as in renderInline.
 */
export function renderMarkdown(text, { headingOffset = 2, cite = null, noteLink = null } = {}) {
  const frag = document.createDocumentFragment();
  const lines = String(text ?? "").replace(/\r\n?/g, "\n").split("\n");
  let para = [];
  let quote = [];
  let lists = []; // stack of {indent, node}

  const flushPara = () => {
    if (para.length) frag.append(appendLines(el("p"), para, cite, noteLink));
    para = [];
  };
  const flushQuote = () => {
    if (quote.length) {
      const q = el("blockquote");
      q.append(appendLines(el("p"), quote, cite, noteLink));
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
      frag.append(renderInline(el("h" + level, "md-h"), m[2], cite, noteLink));
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
      renderInline(li, m[4], cite, noteLink);
      top.node.append(li);
      continue;
    }
    if (lists.length && /^\s+\S/.test(line)) {
      // A continuation line of the last list item.
      const li = lists[lists.length - 1].node.lastElementChild;
      li.append(el("br"));
      renderInline(li, line.trim(), cite, noteLink);
      continue;
    }
    flushQuote();
    flushLists();
    para.push(line);
  }
  flushAll();
  return frag;
}
