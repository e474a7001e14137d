// The plugin's logic without a server: the event-stream parser, the
// languages, an answer's parts, and finding a passage in a note.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const { plugin: P } = require("./load.cjs");

test("SSEParser gives the same events wherever the stream is cut", () => {
  const stream = ': ping\r\nevent: delta\r\ndata: {"text":"Hola"}\r\n\r\nevent: answer\ndata: {"a":\ndata: 1}\n\nevent: error\rdata: x\r\rdata: last';
  const want = [
    ["delta", '{"text":"Hola"}'],
    ["answer", '{"a":\n1}'],
    ["error", "x"],
    ["message", "last"],
  ];
  for (let cut = 1; cut <= stream.length; cut++) {
    const got = [];
    const p = new P.SSEParser((e, d) => got.push([e, d]));
    for (let i = 0; i < stream.length; i += cut) p.push(stream.slice(i, i + cut));
    p.end();
    assert.deepEqual(got, want, `cut every ${cut}`);
  }
});

test("the languages: Obsidian's code chooses, both have every message and its placeholders", () => {
  assert.equal(P.langOf("es"), "es");
  assert.equal(P.langOf("es-419"), "es");
  assert.equal(P.langOf("en-GB"), "en");
  assert.equal(P.langOf("fr"), "en");
  assert.equal(P.langOf(undefined), "en");
  assert.deepEqual(P.keys("es"), P.keys("en"));
  for (const k of P.keys("en")) {
    const holes = (lang) => (P.t(lang, k).match(/\{\w+\}/g) || []).sort();
    assert.deepEqual(holes("es"), holes("en"), k);
    assert.notEqual(P.t("es", k), "", k);
  }
  assert.equal(P.t("es", "scope", { path: "a.md" }), "Solo en a.md");
});

test("parts: citations with their source and claim, unsupported marks, undelivered citations left out", () => {
  const src = { index: 1, id: "c1", label: "Sesión 1", file: "S.md", kind: "full", url: "" };
  const reply = {
    answer: "A cayó. [Sesión 1] B huyó. _(sin fuente)_",
    segments: [
      { text: "A cayó. " },
      { text: "[Sesión 1]", citations: [{ label: "Sesión 1", evidence: "c1", valid: true }] },
      { text: " B huyó." },
      { text: " _(sin fuente)_", mark: "unsupported" },
      { text: "[X]", citations: [{ label: "X", evidence: null, valid: false }] },
    ],
    evidence: [src],
    sources: [],
  };
  const got = P.parts(reply);
  assert.deepEqual(got.map((p) => p.kind), ["text", "cite", "text", "unsupported"]);
  assert.equal(got[1].claim, "A cayó.");
  assert.equal(got[1].source, src);
  assert.equal(P.citations(reply).length, 1);
});

test("locate: the cited sentence across a line break, after front matter and multi-byte text", () => {
  const doc = "---\ntitle: Ñandú\n---\n# Ñandú\n\nEl ñandú corre. Vive en\nla pampa.\n\n## Otro\n\nEl ñandú corre.\n";
  const body = P.bodyStart(doc);
  assert.equal(doc.slice(body, body + 7), "# Ñandú");
  // The passage starts at "## Otro", in UTF-8 bytes of the body.
  const second = Buffer.byteLength(doc.slice(body, doc.indexOf("## Otro")), "utf8");
  assert.equal(P.offsetOfByte(doc, body, second), doc.indexOf("## Otro"));
  let p = P.locate(doc, { path: "n.md", heading: "Ñandú", sentence: "Vive en la pampa.", byteStart: 0 });
  assert.equal(doc.slice(p.from, p.to), "Vive en\nla pampa.");
  assert.equal(p.line, 5);
  assert.equal(p.by, "sentence");
  p = P.locate(doc, { path: "n.md", heading: "Otro", sentence: "El ñandú corre.", byteStart: second });
  assert.equal(p.line, 10, "the occurrence in the passage, not the first one");
  p = P.locate(doc, { path: "n.md", heading: "Otro", sentence: "No está.", byteStart: second });
  assert.deepEqual([p.by, p.line], ["heading", 8]);
  p = P.locate(doc, { path: "n.md", heading: "", sentence: "", byteStart: 0 });
  assert.deepEqual([p.by, p.line], ["passage", 3]);
});
