// "Test connection": whether the server answers, and as what role the
// token is taken, told in the user's language.

import { APIError, Client } from "./api";
import { Lang, t } from "./i18n";

/** Report is what a connection test found. */
export type Report =
  | { kind: "ok"; role: string; version: string; auth: boolean }
  | { kind: "unreachable"; detail: string }
  | { kind: "cors" }
  | { kind: "bad-token" }
  | { kind: "no-token" }
  | { kind: "not-oraculo"; status: number };

/**
 * testConnection asks the server's health with the client's token. When
 * the client cannot reach it, reachable (if given) says whether the server
 * answers outside the browser's rules (Obsidian's requestUrl): then it is
 * up and only refuses Obsidian's origin.
 */
export async function testConnection(client: Client, reachable?: () => Promise<boolean>): Promise<Report> {
  let h;
  try {
    h = await client.health();
  } catch (err) {
    if (err instanceof APIError && err.status > 0) return { kind: "not-oraculo", status: err.status };
    if (reachable && (await reachable().catch(() => false))) return { kind: "cors" };
    return { kind: "unreachable", detail: err instanceof Error ? err.message : String(err) };
  }
  if (!h || h.status !== "ok") return { kind: "not-oraculo", status: 200 };
  if (h.auth && !h.role) return { kind: client.token.trim() ? "bad-token" : "no-token" };
  return { kind: "ok", role: h.role, version: h.version, auth: h.auth };
}

/** describe says a report in lang, naming url where it helps. */
export function describe(r: Report, lang: Lang, url: string): string {
  switch (r.kind) {
    case "ok": {
      const version = r.version || "";
      if (!r.auth) return t(lang, "okOpen", { version });
      return t(lang, "okRole", { version, role: t(lang, r.role === "dm" ? "roleDM" : "rolePlayer") });
    }
    case "unreachable":
      return t(lang, "unreachable", { url, detail: r.detail });
    case "cors":
      return t(lang, "cors");
    case "bad-token":
      return t(lang, "badToken");
    case "no-token":
      return t(lang, "noToken");
    case "not-oraculo":
      return t(lang, "notOraculo", { url, status: r.status });
  }
}
