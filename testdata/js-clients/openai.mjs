// Usage: node openai.mjs BASE_URL API_KEY
// Talks to oraculo serve through the official openai package and prints
// what it saw as one JSON object; the Go test checks it.
import OpenAI from "openai";

const [baseURL, apiKey] = process.argv.slice(2);

// Every event stream's raw lines are measured as they arrive (front ends
// such as Open WebUI read them with a line limit).
let longestLine = 0;
const measuring = [];
async function measure(body) {
  const reader = body.getReader();
  const enc = new TextEncoder();
  const dec = new TextDecoder();
  let buf = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buf += dec.decode(value, { stream: true });
    let i;
    while ((i = buf.indexOf("\n")) >= 0) {
      longestLine = Math.max(longestLine, enc.encode(buf.slice(0, i)).length);
      buf = buf.slice(i + 1);
    }
  }
  longestLine = Math.max(longestLine, enc.encode(buf).length);
}
async function recordingFetch(url, init) {
  const res = await fetch(url, init);
  if (!(res.headers.get("content-type") ?? "").startsWith("text/event-stream")) return res;
  const [mine, theirs] = res.body.tee();
  measuring.push(measure(mine));
  return new Response(theirs, { status: res.status, statusText: res.statusText, headers: res.headers });
}
const client = new OpenAI({ baseURL, apiKey, maxRetries: 0, fetch: recordingFetch });
const question = "¿Quién cayó en combate?";
const out = {};

const model = await client.models.retrieve("oraculo-extractive");
out.model = model.id;

const plain = await client.chat.completions.create({
  model: "oraculo-extractive",
  messages: [{ role: "user", content: question }],
});
out.plain = { content: plain.choices[0].message.content, usage: plain.usage, finish: plain.choices[0].finish_reason };

// Each citation is a Markdown link that opens the passage without a token.
out.links = [];
for (const m of out.plain.content.matchAll(/\]\((https?:\/\/[^)\s]+)\)/g)) {
  const res = await fetch(m[1]);
  const page = await res.text();
  out.links.push({ status: res.status, passage: page.includes("Norkiel"), marked: page.includes('<mark id="cited">') });
}

const stream = await client.chat.completions.create({
  model: "oraculo-extractive",
  messages: [{ role: "user", content: question }],
  stream: true,
  stream_options: { include_usage: true },
});
let content = "";
let usage = null;
let chunks = 0;
for await (const chunk of stream) {
  chunks++;
  if (chunk.choices.length > 0) content += chunk.choices[0].delta?.content ?? "";
  if (chunk.usage) usage = chunk.usage;
}
out.stream = { content, usage, chunks };

// The chat model's answer, streamed as it is verified, with the whole
// Answer asked for (Oráculo's own request field).
const generated = await client.chat.completions.create({
  model: "oraculo",
  messages: [{ role: "user", content: question }],
  stream: true,
  oraculo: { detail: true },
});
let generatedContent = "";
let last = null;
for await (const chunk of generated) {
  if (chunk.choices.length > 0) generatedContent += chunk.choices[0].delta?.content ?? "";
  last = chunk;
}
out.generated = { content: generatedContent, citations: last?.citations ?? null, detail: last?.oraculo ? true : false };

// The same, whole: a sentence left without support comes marked in both.
const generatedPlain = await client.chat.completions.create({
  model: "oraculo",
  messages: [{ role: "user", content: question }],
  oraculo: { detail: true },
});
out.generatedPlain = {
  content: generatedPlain.choices[0].message.content,
  sentences: generatedPlain.oraculo?.sentences ?? null,
  supported: generatedPlain.oraculo?.supported_sentences ?? null,
};

const title = await client.chat.completions.create({
  model: "oraculo",
  messages: [{
    role: "user",
    content: "### Task:\nGenerate a concise, 3-5 word title with an emoji summarizing the chat history.\n### Output:\nJSON format: { \"title\": \"your concise title here\" }\n### Chat History:\n<chat_history>\nUSER: " + question + "\nASSISTANT: Norkiel.\n</chat_history>",
  }],
});
out.title = title.choices[0].message.content;

await Promise.all(measuring);
out.longestLine = longestLine;
out.streams = measuring.length;
console.log(JSON.stringify(out));
