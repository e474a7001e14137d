// How the plugin reaches the server from inside Obsidian: the browser's
// fetch, which streams but obeys CORS (the server must list Obsidian's
// origin: serve --cors app://obsidian.md), else Obsidian's requestUrl,
// which no browser rule stops but which delivers a response whole.

import { requestUrl } from "obsidian";
import { Fetch } from "./api";

/** viaRequestUrl is a fetch made with Obsidian's requestUrl: the whole response at once, no abort. */
export const viaRequestUrl: Fetch = async (url, init = {}) => {
  const res = await requestUrl({
    url,
    method: init.method ?? "GET",
    headers: init.headers as Record<string, string> | undefined,
    body: typeof init.body === "string" ? init.body : undefined,
    throw: false,
  });
  return new Response(res.status === 204 ? null : res.arrayBuffer, { status: res.status, headers: res.headers });
};

/** withFallback is fetch, or, when the browser refuses the request (a TypeError: CORS, or the network), requestUrl. */
export function withFallback(fetchFn: Fetch, fallback: Fetch = viaRequestUrl): Fetch {
  return async (url, init) => {
    try {
      return await fetchFn(url, init);
    } catch (err) {
      if (!(err instanceof TypeError)) throw err;
      return fallback(url, init);
    }
  };
}
