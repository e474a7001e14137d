// Usage: node responses.mjs BASE_URL API_KEY
// Talks to oraculo serve's Responses API (POST /v1/responses) through the
// official openai package and through the AI SDK's OpenAI provider (whose
// default, provider(modelId), uses the Responses API), and prints what it
// saw as one JSON object; the Go test (server/openai_node_test.go) checks it.
import OpenAI from "openai";
import { createOpenAI } from "@ai-sdk/openai";
import { generateText, streamText } from "ai";

const [baseURL, apiKey] = process.argv.slice(2);
const question = "¿Quién cayó en combate?";
const out = {};

// Every request's method and path, to show which API each client used,
// and the last request's body.
const paths = [];
let lastBody = null;
async function recordingFetch(url, init) {
  paths.push(`${init?.method ?? "GET"} ${new URL(url).pathname}`);
  lastBody = typeof init?.body === "string" ? JSON.parse(init.body) : null;
  return fetch(url, init);
}

const client = new OpenAI({ baseURL, apiKey, maxRetries: 0, fetch: recordingFetch });

// responses.create, whole: the SDK's output_text and the annotations.
const plain = await client.responses.create({ model: "oraculo-extractive", input: question });
const part = plain.output[0].content[0];
out.plain = {
  id: plain.id,
  status: plain.status,
  outputText: plain.output_text,
  text: part.text,
  annotations: part.annotations,
  citations: plain.citations,
  usage: plain.usage,
};

// The conversation goes on from the response kept on the server.
const next = await client.responses.create({
  model: "oraculo-extractive",
  input: "¿Y qué encontraron en la cripta?",
  previous_response_id: plain.id,
  store: false,
});
out.next = { status: next.status, text: next.output_text, previous: next.previous_response_id, store: next.store };

// responses.create, streamed: every event's type and sequence number, the
// text from the deltas, the annotations, the completed response.
const stream = await client.responses.create({
  model: "oraculo",
  input: [{ role: "user", content: [{ type: "input_text", text: question }] }],
  instructions: "Answer briefly.",
  stream: true,
});
const events = [];
let text = "";
const annotations = [];
let completed = null;
for await (const ev of stream) {
  events.push({ type: ev.type, seq: ev.sequence_number });
  if (ev.type === "response.output_text.delta") text += ev.delta;
  if (ev.type === "response.output_text.annotation.added") annotations.push(ev.annotation);
  if (ev.type === "response.completed") completed = ev.response;
}
out.stream = {
  events,
  text,
  annotations,
  completedText: completed?.output?.[0]?.content?.[0]?.text ?? null,
  citations: completed?.citations ?? null,
  usage: completed?.usage ?? null,
};

// What is refused: an unknown model (on both endpoints) and tools.
async function refusal(call) {
  try {
    await call();
    return { status: 200 };
  } catch (err) {
    return { status: err.status ?? null, code: err.code ?? null, param: err.param ?? null, message: err.message };
  }
}
out.unknownModel = await refusal(() => client.responses.create({ model: "gpt-4o", input: question }));
out.unknownModelChat = await refusal(() =>
  client.chat.completions.create({ model: "gpt-4o", messages: [{ role: "user", content: question }] }));
out.tools = await refusal(() => client.responses.create({
  model: "oraculo",
  input: question,
  tools: [{ type: "function", name: "weather", parameters: { type: "object", properties: {} }, strict: false }],
}));

// The AI SDK with its default OpenAI provider: the Responses API.
const openai = createOpenAI({ baseURL, apiKey, fetch: recordingFetch });
const sources = (list) => list.map((s) => ({ sourceType: s.sourceType, url: s.url, title: s.title }));
paths.length = 0;
const generated = await generateText({ model: openai("oraculo"), prompt: question, maxRetries: 0 });
out.aiGenerate = {
  text: generated.text,
  sources: sources(generated.sources),
  finishReason: generated.finishReason,
  usage: generated.usage,
  paths: [...paths],
};

// A conversation goes on as a chat front end keeps it: the AI SDK refers
// to its earlier answer by item_reference (store is true by default).
const followUp = await generateText({
  model: openai("oraculo"),
  messages: [{ role: "user", content: question }, ...generated.response.messages, { role: "user", content: "¿Y quién cayó en combate, entonces?" }],
  maxRetries: 0,
});
out.aiFollowUp = {
  text: followUp.text,
  inputTypes: (lastBody?.input ?? []).map((item) => item.type ?? item.role),
};

paths.length = 0;
const streamed = streamText({
  model: openai("oraculo-extractive"),
  system: "Answer briefly.",
  messages: [
    { role: "user", content: "¿Qué pasó en el puente de Galerna?" },
    { role: "assistant", content: "Lo cruzaron." },
    { role: "user", content: question },
  ],
  maxRetries: 0,
  onError: ({ error }) => { out.aiStreamError = String(error); },
});
let streamedText = "";
let deltas = 0;
for await (const piece of streamed.textStream) {
  streamedText += piece;
  deltas++;
}
out.aiStream = {
  text: streamedText,
  deltas,
  sources: sources(await streamed.sources),
  finishReason: await streamed.finishReason,
  usage: await streamed.usage,
  paths: [...paths],
};

console.log(JSON.stringify(out));
