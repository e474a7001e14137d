// Usage: node mcp.mjs stdio COMMAND ARG...   (spawns `oraculo mcp`)
//        node mcp.mjs http URL [TOKEN]       (oraculo serve's /mcp)
// Connects with the official MCP TypeScript SDK, lists the tools, calls
// "ask" and "memory_list", and prints what it saw as one JSON object; the
// Go test checks it.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [mode, ...rest] = process.argv.slice(2);
let transport;
if (mode === "stdio") {
  const [command, ...args] = rest;
  transport = new StdioClientTransport({ command, args, env: { ...process.env }, stderr: "ignore" });
} else {
  const [url, token] = rest;
  const headers = token ? { Authorization: "Bearer " + token } : {};
  transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
}
const client = new Client({ name: "oraculo-test", version: "0.0.1" });
await client.connect(transport);
const out = { server: client.getServerVersion()?.name };
const { tools } = await client.listTools();
out.tools = tools.map((t) => t.name).sort();
const res = await client.callTool({ name: "ask", arguments: { question: "¿Quién cruzó el puente de Galerna?" } });
out.isError = res.isError ?? false;
out.text = (res.content ?? []).filter((c) => c.type === "text").map((c) => c.text).join("\n");
out.structured = res.structuredContent ?? null;
const mem = await client.callTool({ name: "memory_list", arguments: {} });
out.memory = { isError: mem.isError ?? false, structured: mem.structuredContent ?? null };
await client.close();
console.log(JSON.stringify(out));
