// The plugin's settings (the server's URL and the token) and their tab,
// with "Test connection".

import { App, Plugin, PluginSettingTab, Setting, requestUrl } from "obsidian";
import { Client } from "./api";
import { describe, Report, testConnection } from "./connection";
import { Lang, t } from "./i18n";

/** Settings are what the plugin keeps in its data.json. */
export interface Settings {
  serverURL: string;
  token: string;
}

/** DEFAULT_SETTINGS is `oraculo serve`'s default address, without a token. */
export const DEFAULT_SETTINGS: Settings = { serverURL: "http://127.0.0.1:8080", token: "" };

/** Host is what the tab needs of the plugin. */
export interface Host extends Plugin {
  settings: Settings;
  lang: Lang;
  client(direct?: boolean): Client;
  saveSettings(): Promise<void>;
}

/** reachable says whether the server's health answers to Obsidian's requestUrl, which no browser rule stops. */
export function reachableBy(url: string): () => Promise<boolean> {
  return async () => {
    const res = await requestUrl({ url, method: "GET", throw: false });
    return res.status > 0;
  };
}

/** checkConnection tests the host's settings and says the outcome in its language. */
export async function checkConnection(host: Host): Promise<{ report: Report; message: string }> {
  const client = host.client(true);
  const report = await testConnection(client, reachableBy(client.url("/api/health")));
  return { report, message: describe(report, host.lang, host.settings.serverURL) };
}

/** SettingsTab is the plugin's tab in Obsidian's settings. */
export class SettingsTab extends PluginSettingTab {
  /** result is where the last test's outcome is shown. */
  result: HTMLElement | null = null;

  constructor(
    app: App,
    private readonly host: Host,
  ) {
    super(app, host);
  }

  display(): void {
    const { containerEl } = this;
    const lang = this.host.lang;
    containerEl.empty();
    new Setting(containerEl)
      .setName(t(lang, "settingsURL"))
      .setDesc(t(lang, "settingsURLDesc"))
      .addText((text) =>
        text
          .setPlaceholder(DEFAULT_SETTINGS.serverURL)
          .setValue(this.host.settings.serverURL)
          .onChange(async (v) => {
            this.host.settings.serverURL = v.trim() || DEFAULT_SETTINGS.serverURL;
            await this.host.saveSettings();
          }),
      );
    new Setting(containerEl)
      .setName(t(lang, "settingsToken"))
      .setDesc(t(lang, "settingsTokenDesc"))
      .addText((text) => {
        text.inputEl.type = "password";
        text.setPlaceholder("orc_…")
          .setValue(this.host.settings.token)
          .onChange(async (v) => {
            this.host.settings.token = v.trim();
            await this.host.saveSettings();
          });
      });
    new Setting(containerEl)
      .setName(t(lang, "settingsTest"))
      .setDesc(t(lang, "settingsTestDesc"))
      .addButton((b) =>
        b.setButtonText(t(lang, "settingsTest")).onClick(async () => {
          this.result?.setText(t(lang, "testing"));
          const { report, message } = await checkConnection(this.host);
          this.result?.setText(message);
          this.result?.toggleClass("oraculo-ok", report.kind === "ok");
          this.result?.toggleClass("oraculo-error", report.kind !== "ok");
        }),
      );
    this.result = containerEl.createDiv({ cls: "oraculo-test-result" });
  }
}
