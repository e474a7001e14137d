// Oráculo's Obsidian plugin: the glue between Obsidian and the modules
// that do the work (api, sse, answer, target, connection, i18n), which run
// in node without Obsidian. It never reads the vault to answer: the
// server does; it opens notes only to show a citation's passage.

import { Menu, Plugin, TAbstractFile, TFile, WorkspaceLeaf, getLanguage, moment } from "obsidian";
import { Client, Fetch } from "./api";
import { withFallback } from "./transport";
import { Lang, langOf, t } from "./i18n";
import { openTarget } from "./open";
import { DEFAULT_SETTINGS, Settings, SettingsTab } from "./settings";
import { Place, Target, targetOf } from "./target";
import { AskView, Cite, VIEW_TYPE, notify } from "./view";

export { SSEParser } from "./sse";
export { Client, APIError } from "./api";
export { withFallback, viaRequestUrl } from "./transport";
export { parts, citations } from "./answer";
export { targetOf, locate, bodyStart, offsetOfByte, lineOf } from "./target";
export { testConnection, describe } from "./connection";
export { langOf, t, keys } from "./i18n";
export { AskView, VIEW_TYPE } from "./view";

/** obsidianLang is Obsidian's interface language (getLanguage since 1.8.7, moment's locale before). */
function obsidianLang(): Lang {
  if (typeof getLanguage === "function") return langOf(getLanguage());
  return langOf(moment.locale());
}

/** OraculoPlugin is the plugin: its pane, its settings, its file-menu entry. */
export default class OraculoPlugin extends Plugin {
  settings: Settings = { ...DEFAULT_SETTINGS };
  lang: Lang = "en";

  async onload(): Promise<void> {
    this.lang = obsidianLang();
    this.settings = { ...DEFAULT_SETTINGS, ...((await this.loadData()) as Partial<Settings> | null) };
    this.registerView(VIEW_TYPE, (leaf: WorkspaceLeaf) => new AskView(leaf, this));
    this.addRibbonIcon("message-circle-question", t(this.lang, "openView"), () => void this.activateView());
    this.addCommand({ id: "open", name: t(this.lang, "openView"), callback: () => void this.activateView() });
    this.addCommand({
      id: "ask-about-active-note",
      name: t(this.lang, "askAboutActive"),
      checkCallback: (checking: boolean) => {
        const file = this.app.workspace.getActiveFile();
        if (!file) return false;
        if (!checking) void this.askAbout(file);
        return true;
      },
    });
    this.registerEvent(
      this.app.workspace.on("file-menu", (menu: Menu, file: TAbstractFile) => {
        if (!(file instanceof TFile)) return;
        menu.addItem((item) =>
          item
            .setTitle(t(this.lang, "askAbout"))
            .setIcon("message-circle-question")
            .onClick(() => void this.askAbout(file)),
        );
      }),
    );
    this.addSettingTab(new SettingsTab(this.app, this));
  }

  /**
   * client talks to the server in the settings with their token: by the
   * browser's fetch, streaming, else (CORS) by requestUrl, whole; direct,
   * by fetch alone, as Test connection checks it.
   */
  client(direct = false): Client {
    const browser: Fetch = (url, init) => globalThis.fetch(url, init);
    return new Client(this.settings.serverURL, this.settings.token, direct ? browser : withFallback(browser));
  }

  async saveSettings(): Promise<void> {
    await this.saveData(this.settings);
  }

  /** activateView opens the pane in the right sidebar, or shows it if open, and returns it. */
  async activateView(): Promise<AskView> {
    const { workspace } = this.app;
    let leaf = workspace.getLeavesOfType(VIEW_TYPE)[0];
    if (!leaf) {
      leaf = workspace.getRightLeaf(false) ?? workspace.getLeaf(true);
      await leaf.setViewState({ type: VIEW_TYPE, active: true });
    }
    await workspace.revealLeaf(leaf);
    return leaf.view as AskView;
  }

  /** askAbout opens the pane with its questions restricted to file (its path as the server's folder filter). */
  async askAbout(file: TFile): Promise<AskView> {
    const view = await this.activateView();
    view.setScope(file.path);
    view.focusInput();
    return view;
  }

  /** openCitation opens a citation's passage in the vault, its sentence selected; it resolves to where, or null when it could not. */
  async openCitation(cite: Cite): Promise<Place | null> {
    let target: Target;
    try {
      target = targetOf(await this.client().chunk(cite.source.id, cite.claim));
    } catch (err) {
      notify(t(this.lang, "openFailed", { error: err instanceof Error ? err.message : String(err) }));
      return null;
    }
    const place = await openTarget(this.app, target);
    if (!place) notify(t(this.lang, "notFound", { path: target.path }));
    return place;
  }
}
