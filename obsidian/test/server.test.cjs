// The plugin against a real `oraculo serve`, described by
// $ORACULO_PLUGIN_FIXTURE (cmd/oraculo/obsidian_plugin_test.go starts it):
// {url, dm, player, vault, question, public: {file, sentence}, secret:
// {file, sentence}}, the DM-only note being secret. Skipped without it.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const path = require("node:path");
const { plugin: P, obsidian } = require("./load.cjs");

const fx = process.env.ORACULO_PLUGIN_FIXTURE ? JSON.parse(process.env.ORACULO_PLUGIN_FIXTURE) : null;
const skip = fx ? false : "no server: set ORACULO_PLUGIN_FIXTURE (go test ./cmd/oraculo -run TestObsidianPlugin does)";
const fetchFn = (url, init) => fetch(url, init);
const client = (token) => new P.Client(fx.url, token, fetchFn);
const squash = (s) => s.replace(/\s+/g, " ").trim();

/** load starts the plugin in a stub Obsidian over the fixture's vault, with token and language. */
async function load(token, language = "en") {
  obsidian.state.language = language;
  const app = new obsidian.App(fx.vault);
  const p = new P.default(app, { id: "oraculo" });
  p.data = { serverURL: fx.url, token };
  await p.onload();
  return p;
}

/** cited lists the files an answer names anywhere: citations' evidence, sources, evidence shown. */
function filesOf(reply) {
  return new Set([...(reply.evidence || []), ...(reply.sources || [])].map((e) => e.file));
}

test("Test connection: ok with the role, bad token, no token, unreachable, refused origin; in Spanish too", { skip }, async () => {
  const dm = await P.testConnection(client(fx.dm));
  assert.deepEqual([dm.kind, dm.role], ["ok", "dm"]);
  const player = await P.testConnection(client(fx.player));
  assert.deepEqual([player.kind, player.role], ["ok", "player"]);
  assert.equal((await P.testConnection(client("orc_notatoken"))).kind, "bad-token");
  assert.equal((await P.testConnection(client(""))).kind, "no-token");
  const closed = new P.Client("http://127.0.0.1:9", fx.dm, fetchFn);
  const down = await P.testConnection(closed, async () => false);
  assert.equal(down.kind, "unreachable");
  assert.match(P.describe(down, "en", "http://127.0.0.1:9"), /unreachable at http:\/\/127\.0\.0\.1:9/);
  // A browser's fetch refused (CORS) while the server answers requestUrl.
  const refused = new P.Client(fx.url, fx.dm, async () => {
    throw new TypeError("Failed to fetch");
  });
  const cors = await P.testConnection(refused, async () => (await obsidian.requestUrl({ url: fx.url + "/api/health", throw: false })).status > 0);
  assert.equal(cors.kind, "cors");
  assert.match(P.describe(cors, "en", fx.url), /--cors app:\/\/obsidian\.md/);

  // The settings tab's button, in Spanish.
  const p = await load("orc_notatoken", "es");
  const tab = p.settingTabs[0];
  tab.display();
  const rows = tab.containerEl.children.filter((c) => c.setting).map((c) => c.setting);
  assert.deepEqual(rows.map((r) => r.name), ["URL del servidor", "Token", "Probar conexión"]);
  await rows[2].components[0].click();
  assert.equal(tab.result.textContent, "El servidor rechazó el token: revísalo (`oraculo token list`).");
  await rows[1].components[0].type(fx.player);
  assert.equal(p.data.token, fx.player, "the token is saved");
  await rows[2].components[0].click();
  assert.match(tab.result.textContent, /^Conectado a Oráculo .*: rol jugador\.$/);
  assert.ok(tab.result.hasClass("oraculo-ok"));
});

test("ask without streaming: the answer and its citations", { skip }, async () => {
  const reply = await client(fx.dm).askWhole(fx.question);
  assert.ok(reply.answer.includes(squash(fx.public.sentence).slice(0, 20)), reply.answer);
  assert.ok(P.citations(reply).some((c) => c.source.file === fx.public.file));
});

test("the pane streams the answer in pieces, then draws its citations and sources", { skip }, async () => {
  const p = await load(fx.dm);
  const view = await p.activateView();
  assert.ok(obsidian.calls.some((c) => c.op === "setViewState" && c.type === P.VIEW_TYPE && c.side === "right"));
  await view.ask(fx.question);
  assert.ok(view.reply, view.contentEl.textContent);
  assert.ok(view.streamed.length >= 2, `deltas: ${JSON.stringify(view.streamed)}`);
  assert.equal(view.streamed.join(""), view.reply.answer, "the deltas join to the answer");
  const cites = view.contentEl.findAll("oraculo-cite");
  const files = P.citations(view.reply).map((c) => c.source.file);
  assert.ok(files.includes(fx.public.file) && files.includes(fx.secret.file), `the DM sees both notes cited: ${files}`);
  assert.ok(cites.length >= files.length, "a button for each citation and source");
  assert.match(view.contentEl.textContent, /Sources/);
  // A follow-up goes with the conversation so far; a new conversation forgets it.
  await view.ask("¿Y qué vende?");
  assert.ok(view.reply, view.contentEl.textContent);
  assert.deepEqual(view.history.map((h) => h.question), [fx.question, "¿Y qué vende?"]);
  assert.equal(view.contentEl.findAll("oraculo-turn").length, 2);
  view.newConversation();
  assert.deepEqual([view.history.length, view.contentEl.findAll("oraculo-turn").length], [0, 0]);
});

test("a citation opens its note with the cited sentence selected at its line", { skip }, async () => {
  const p = await load(fx.dm);
  const view = await p.activateView();
  await view.ask(fx.question);
  const cite = P.citations(view.reply).find((c) => c.source.file === fx.public.file);
  // The target: the note, the passage's heading (a heading of the note), the sentence.
  const target = P.targetOf(await client(fx.dm).chunk(cite.source.id, cite.claim));
  assert.deepEqual([target.path, target.sentence], [fx.public.file, fx.public.sentence]);
  obsidian.calls.length = 0;
  const place = await p.openCitation(cite);
  const raw = fs.readFileSync(path.join(fx.vault, fx.public.file), "utf8");
  assert.match(raw, new RegExp(`^#+ ${target.heading}$`, "m"), `the heading ${target.heading}`);
  const at = raw.indexOf(fx.public.sentence);
  assert.ok(at >= 0, "the fixture's sentence is in its note");
  assert.deepEqual(place && [place.by, place.line], ["sentence", raw.slice(0, at).split("\n").length - 1]);
  const opened = obsidian.calls.filter((c) => c.op === "openFile");
  assert.deepEqual(opened.map((c) => c.path), [fx.public.file]);
  const sel = obsidian.calls.find((c) => c.op === "setSelection");
  const line = raw.slice(0, at).split("\n").length - 1;
  assert.equal(sel.anchor.line, line);
  const editor = p.app.workspace.getActiveViewOfType(obsidian.MarkdownView).editor;
  assert.equal(editor.getSelection(), fx.public.sentence);
  assert.ok(obsidian.calls.some((c) => c.op === "scrollIntoView" && c.center === true));

  // The button in the pane does the same.
  obsidian.calls.length = 0;
  const button = view.contentEl.findAll("oraculo-cite").find((b) => b.attrs.title === fx.public.file);
  button.click();
  for (let i = 0; i < 100 && !obsidian.calls.some((c) => c.op === "setSelection"); i++) await new Promise((r) => setTimeout(r, 20));
  assert.equal(obsidian.calls.find((c) => c.op === "setSelection").anchor.line, line);
});

test("a player's token never gets the DM-only note: not cited, not shown, not opened; the DM's does", { skip }, async () => {
  const player = await client(fx.player).ask(fx.question);
  assert.ok(!filesOf(player).has(fx.secret.file), `the player was given ${[...filesOf(player)]}`);
  assert.ok(!P.citations(player).some((c) => c.source.file === fx.secret.file));
  assert.ok(!JSON.stringify(player).includes(squash(fx.secret.sentence)), "the secret's text reached the player");
  assert.ok(filesOf(player).has(fx.public.file));
  const dm = await client(fx.dm).ask(fx.question);
  const secret = P.citations(dm).find((c) => c.source.file === fx.secret.file);
  assert.ok(secret, "the DM's answer cites the DM-only note");
  // The secret passage's id, asked for with the player's token, opens nothing.
  const p = await load(fx.player);
  obsidian.calls.length = 0;
  assert.equal(await p.openCitation(secret), null);
  assert.ok(!obsidian.calls.some((c) => c.op === "openFile"));
  assert.ok(obsidian.calls.some((c) => c.op === "notice"));
});

test("Ask about this note: the file menu scopes the pane's questions to the note", { skip }, async () => {
  const p = await load(fx.dm, "es");
  const menu = new obsidian.Menu();
  const file = p.app.vault.getAbstractFileByPath(fx.public.file);
  p.app.workspace.trigger("file-menu", menu, file, "file-explorer");
  assert.deepEqual(menu.items.map((i) => i.title), ["Preguntar a Oráculo sobre esta nota"]);
  menu.items[0].handler();
  let view;
  for (let i = 0; i < 100 && !(view = p.app.workspace.getLeavesOfType(P.VIEW_TYPE)[0]?.view)?.notePath; i++) await new Promise((r) => setTimeout(r, 20));
  assert.equal(view.notePath, fx.public.file);
  assert.match(view.contentEl.textContent, new RegExp(`Solo en ${fx.public.file}`));
  await view.ask(fx.question);
  const files = [...filesOf(view.reply)];
  assert.deepEqual(files, [fx.public.file], "only the note asked about is searched");
});

test("when the browser refuses the request (no --cors), the pane still answers, whole, by requestUrl", { skip }, async () => {
  const p = await load(fx.dm);
  const view = await p.activateView();
  const browser = globalThis.fetch;
  globalThis.fetch = async () => {
    throw new TypeError("Failed to fetch");
  };
  try {
    obsidian.calls.length = 0;
    await view.ask(fx.question);
  } finally {
    globalThis.fetch = browser;
  }
  assert.ok(view.reply && P.citations(view.reply).some((c) => c.source.file === fx.public.file), view.contentEl.textContent);
  assert.ok(obsidian.calls.some((c) => c.op === "requestUrl" && c.method === "POST" && c.url.endsWith("/api/ask")));
  // Test connection says why it will not stream.
  const { report, message } = await checkConnectionWith(p, async () => {
    throw new TypeError("Failed to fetch");
  });
  assert.equal(report.kind, "cors");
  assert.match(message, /--cors app:\/\/obsidian\.md/);
});

/** checkConnectionWith runs the settings tab's Test connection with the browser's fetch replaced by fetchFn. */
async function checkConnectionWith(p, fetchFn) {
  const browser = globalThis.fetch;
  globalThis.fetch = fetchFn;
  try {
    const tab = p.settingTabs[0];
    tab.display();
    const button = tab.containerEl.children.filter((c) => c.setting).pop().setting.components[0];
    await button.click();
    return { report: { kind: tab.result.hasClass("oraculo-ok") ? "ok" : /--cors/.test(tab.result.textContent) ? "cors" : "other" }, message: tab.result.textContent };
  } finally {
    globalThis.fetch = browser;
  }
}
