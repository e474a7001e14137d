// A stub of the `obsidian` module: only what the plugin uses, each call
// that shows on screen or in the vault recorded in `calls`, the vault read
// from a real folder ($ORACULO_VAULT, as Obsidian would hold it). Elements
// are a small tree with Obsidian's helpers (createEl, setText, empty...).
"use strict";
const fs = require("node:fs");
const path = require("node:path");

const calls = []; // {op, ...}: openFile, setSelection, scrollIntoView, notice, setViewState, revealLeaf
const state = { language: "en" };

class FakeElement {
  constructor(tag = "div", o = {}) {
    this.tagName = tag.toUpperCase();
    this.children = [];
    this.classes = new Set();
    this.attrs = {};
    this.listeners = {};
    this.text = "";
    this.value = "";
    this.type = "";
    this.apply(o);
  }
  apply(o = {}) {
    if (o.text !== undefined) this.text = String(o.text);
    for (const c of [o.cls].flat().filter(Boolean)) for (const x of c.split(/\s+/)) this.classes.add(x);
    Object.assign(this.attrs, o.attr || {});
  }
  createEl(tag, o = {}, cb) {
    const el = new FakeElement(tag, o);
    el.parent = this;
    this.children.push(el);
    if (cb) cb(el);
    return el;
  }
  createDiv(o = {}, cb) {
    return this.createEl("div", typeof o === "string" ? { cls: o } : o, cb);
  }
  createSpan(o = {}, cb) {
    return this.createEl("span", typeof o === "string" ? { cls: o } : o, cb);
  }
  empty() {
    this.children = [];
    this.text = "";
  }
  setText(s) {
    this.children = [];
    this.text = String(s);
  }
  addClass(...c) {
    for (const x of c) this.classes.add(x);
  }
  removeClass(...c) {
    for (const x of c) this.classes.delete(x);
  }
  toggleClass(c, on) {
    if (on) this.classes.add(c);
    else this.classes.delete(c);
  }
  hasClass(c) {
    return this.classes.has(c);
  }
  addEventListener(type, fn) {
    (this.listeners[type] ||= []).push(fn);
  }
  /** dispatch calls the listeners of type with a fake event. */
  dispatch(type, ev = {}) {
    for (const fn of this.listeners[type] || []) fn({ preventDefault() {}, ...ev });
  }
  click() {
    this.dispatch("click");
  }
  focus() {
    this.focused = true;
  }
  get textContent() {
    return this.text + this.children.map((c) => c.textContent).join("");
  }
  /** findAll lists the descendants with class cls, in document order. */
  findAll(cls) {
    const out = [];
    for (const c of this.children) {
      if (c.classes.has(cls)) out.push(c);
      out.push(...c.findAll(cls));
    }
    return out;
  }
}

class TAbstractFile {
  constructor(p) {
    this.path = p;
    this.name = path.posix.basename(p);
  }
}
class TFile extends TAbstractFile {
  constructor(p) {
    super(p);
    this.extension = path.posix.extname(p).slice(1);
    this.basename = this.name.replace(/\.[^.]*$/, "");
  }
}
class TFolder extends TAbstractFile {}

/** Editor holds a note's text, with CodeMirror's offsets and positions. */
class Editor {
  constructor(text) {
    this.text = text;
    this.selection = null;
  }
  getValue() {
    return this.text;
  }
  offsetToPos(offset) {
    const before = this.text.slice(0, offset);
    const line = before.split("\n").length - 1;
    return { line, ch: offset - (before.lastIndexOf("\n") + 1) };
  }
  posToOffset(pos) {
    const lines = this.text.split("\n");
    let off = 0;
    for (let i = 0; i < pos.line; i++) off += lines[i].length + 1;
    return off + pos.ch;
  }
  setSelection(anchor, head = anchor) {
    this.selection = { anchor, head };
    calls.push({ op: "setSelection", anchor, head });
  }
  getSelection() {
    if (!this.selection) return "";
    return this.text.slice(this.posToOffset(this.selection.anchor), this.posToOffset(this.selection.head));
  }
  scrollIntoView(range, center) {
    calls.push({ op: "scrollIntoView", range, center });
  }
}

class View {
  constructor(leaf) {
    this.leaf = leaf;
    this.app = leaf.app;
    this.containerEl = new FakeElement("div");
    this.containerEl.createDiv({ cls: "view-header" });
    this.contentEl = this.containerEl.createDiv({ cls: "view-content" });
  }
}
class ItemView extends View {}
class MarkdownView extends View {
  constructor(leaf, file, text) {
    super(leaf);
    this.file = file;
    this.editor = new Editor(text);
  }
  getViewType() {
    return "markdown";
  }
}

class WorkspaceLeaf {
  constructor(app, side) {
    this.app = app;
    this.side = side;
    this.view = null;
  }
  async setViewState(vs) {
    calls.push({ op: "setViewState", type: vs.type, side: this.side });
    const creator = this.app.viewCreators[vs.type];
    if (!creator) throw new Error(`no view registered as ${vs.type}`);
    this.view = creator(this);
    this.viewType = vs.type;
    await this.view.onOpen();
  }
  async openFile(file, openState = {}) {
    calls.push({ op: "openFile", path: file.path, state: openState });
    this.view = new MarkdownView(this, file, await this.app.vault.read(file));
    this.viewType = "markdown";
    this.app.workspace.activeLeaf = this;
  }
}

class Vault {
  constructor(root) {
    this.root = root;
    this.files = [];
    if (root) this.scan("");
  }
  scan(dir) {
    for (const e of fs.readdirSync(path.join(this.root, dir), { withFileTypes: true })) {
      const rel = dir ? `${dir}/${e.name}` : e.name;
      if (e.isDirectory()) this.scan(rel);
      else this.files.push(new TFile(rel));
    }
  }
  getAbstractFileByPath(p) {
    return this.files.find((f) => f.path === p) || null;
  }
  getFiles() {
    return [...this.files];
  }
  getMarkdownFiles() {
    return this.files.filter((f) => f.extension === "md");
  }
  async read(file) {
    // Obsidian's editor holds the text with "\n" line ends.
    return fs.readFileSync(path.join(this.root, file.path), "utf8").replace(/\r\n?/g, "\n");
  }
  async cachedRead(file) {
    return this.read(file);
  }
}

class Workspace {
  constructor(app) {
    this.app = app;
    this.leaves = [];
    this.handlers = {};
    this.activeLeaf = null;
  }
  on(name, fn) {
    (this.handlers[name] ||= []).push(fn);
    return { name, fn };
  }
  /** trigger calls the handlers of an event, as Obsidian does. */
  trigger(name, ...args) {
    for (const fn of this.handlers[name] || []) fn(...args);
  }
  getLeaf() {
    const leaf = new WorkspaceLeaf(this.app, "main");
    this.leaves.push(leaf);
    this.activeLeaf = leaf;
    return leaf;
  }
  getRightLeaf() {
    const leaf = new WorkspaceLeaf(this.app, "right");
    this.leaves.push(leaf);
    return leaf;
  }
  getLeavesOfType(type) {
    return this.leaves.filter((l) => l.viewType === type);
  }
  async revealLeaf(leaf) {
    calls.push({ op: "revealLeaf", type: leaf.viewType });
  }
  getActiveFile() {
    const v = this.activeLeaf && this.activeLeaf.view;
    return (v && v.file) || null;
  }
  getActiveViewOfType(cls) {
    const v = this.activeLeaf && this.activeLeaf.view;
    return v instanceof cls ? v : null;
  }
}

class App {
  constructor(vaultRoot) {
    this.vault = new Vault(vaultRoot);
    this.workspace = new Workspace(this);
    this.viewCreators = {};
  }
}

class Component {}
class Plugin extends Component {
  constructor(app, manifest) {
    super();
    this.app = app;
    this.manifest = manifest;
    this.data = null;
    this.commands = [];
    this.settingTabs = [];
    this.events = [];
    this.ribbon = [];
  }
  async loadData() {
    return this.data;
  }
  async saveData(d) {
    this.data = JSON.parse(JSON.stringify(d));
  }
  registerView(type, creator) {
    this.app.viewCreators[type] = creator;
  }
  addRibbonIcon(icon, title, cb) {
    this.ribbon.push({ icon, title, cb });
    return new FakeElement("div");
  }
  addCommand(c) {
    this.commands.push(c);
    return c;
  }
  registerEvent(ref) {
    this.events.push(ref);
  }
  addSettingTab(tab) {
    this.settingTabs.push(tab);
  }
}

class PluginSettingTab {
  constructor(app, plugin) {
    this.app = app;
    this.plugin = plugin;
    this.containerEl = new FakeElement("div");
  }
}

class TextComponent {
  constructor(parent) {
    this.inputEl = parent.createEl("input");
    this.changed = null;
  }
  setPlaceholder(p) {
    this.inputEl.attrs.placeholder = p;
    return this;
  }
  setValue(v) {
    this.inputEl.value = v;
    return this;
  }
  getValue() {
    return this.inputEl.value;
  }
  onChange(fn) {
    this.changed = fn;
    return this;
  }
  /** type sets the value as a user would, calling onChange. */
  async type(v) {
    this.inputEl.value = v;
    if (this.changed) await this.changed(v);
  }
}
class ButtonComponent {
  constructor(parent) {
    this.buttonEl = parent.createEl("button");
    this.handler = null;
  }
  setButtonText(s) {
    this.buttonEl.text = s;
    return this;
  }
  setCta() {
    return this;
  }
  onClick(fn) {
    this.handler = fn;
    return this;
  }
  /** click runs the handler as a user's click would, resolving when it ends. */
  async click() {
    if (this.handler) await this.handler();
  }
}

/** Setting is one row of a settings tab; settingEl.setting leads back to it. */
class Setting {
  constructor(containerEl) {
    this.settingEl = containerEl.createDiv({ cls: "setting-item" });
    this.settingEl.setting = this;
    this.name = "";
    this.desc = "";
    this.components = [];
  }
  setName(n) {
    this.name = n;
    return this;
  }
  setDesc(d) {
    this.desc = d;
    return this;
  }
  addText(cb) {
    const c = new TextComponent(this.settingEl);
    this.components.push(c);
    cb(c);
    return this;
  }
  addButton(cb) {
    const c = new ButtonComponent(this.settingEl);
    this.components.push(c);
    cb(c);
    return this;
  }
}

class Notice {
  constructor(message, timeout) {
    calls.push({ op: "notice", message, timeout });
  }
}

class MenuItem {
  setTitle(t) {
    this.title = t;
    return this;
  }
  setIcon(i) {
    this.icon = i;
    return this;
  }
  onClick(fn) {
    this.handler = fn;
    return this;
  }
}
class Menu {
  constructor() {
    this.items = [];
  }
  addItem(cb) {
    const item = new MenuItem();
    this.items.push(item);
    cb(item);
    return this;
  }
}

/** requestUrl goes around the browser's rules, as Obsidian's does: node's fetch sends no Origin. */
const nodeFetch = globalThis.fetch;
async function requestUrl(req) {
  const r = typeof req === "string" ? { url: req } : req;
  calls.push({ op: "requestUrl", url: r.url, method: r.method || "GET" });
  const res = await nodeFetch(r.url, { method: r.method || "GET", headers: r.headers, body: r.body });
  const arrayBuffer = await res.arrayBuffer();
  if (r.throw !== false && res.status >= 400) throw new Error(`Request failed, status ${res.status}`);
  return { status: res.status, arrayBuffer, text: new TextDecoder().decode(arrayBuffer), headers: Object.fromEntries(res.headers) };
}

module.exports = {
  calls,
  state,
  FakeElement,
  App,
  Plugin,
  PluginSettingTab,
  Setting,
  Notice,
  Menu,
  MenuItem,
  ItemView,
  MarkdownView,
  WorkspaceLeaf,
  TAbstractFile,
  TFile,
  TFolder,
  requestUrl,
  getLanguage: () => state.language,
  moment: { locale: () => state.language },
};
