// A text/event-stream parser, as the HTML standard's: "event" and "data"
// fields, several data lines joined by "\n", a blank line dispatches,
// comments and unknown fields ignored, any of "\r\n", "\r", "\n" ending
// a line, wherever the network cuts the stream.

/** SSEParser is fed the stream's text as it arrives and calls onEvent for each event. */
export class SSEParser {
  private buffer = "";
  private event = "";
  private data: string[] = [];

  constructor(private readonly onEvent: (event: string, data: string) => void) {}

  /** push feeds the next piece of the stream. */
  push(text: string): void {
    this.buffer += text;
    // A "\r" at the very end may be half of "\r\n": wait for the next piece.
    const re = /\r\n|\r(?!$)|\n/g;
    let start = 0;
    let m: RegExpExecArray | null;
    while ((m = re.exec(this.buffer))) {
      this.line(this.buffer.slice(start, m.index));
      start = m.index + m[0].length;
    }
    this.buffer = this.buffer.slice(start);
  }

  /** end delivers what is left: a stream that ends without its last blank line loses nothing. */
  end(): void {
    const rest = this.buffer.replace(/\r$/, "");
    this.buffer = "";
    if (rest !== "") this.line(rest);
    this.dispatch();
  }

  private dispatch(): void {
    if (this.data.length) this.onEvent(this.event || "message", this.data.join("\n"));
    this.event = "";
    this.data = [];
  }

  private line(l: string): void {
    if (l === "") return this.dispatch();
    if (l.startsWith(":")) return;
    const colon = l.indexOf(":");
    const field = colon < 0 ? l : l.slice(0, colon);
    let value = colon < 0 ? "" : l.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "event") this.event = value;
    else if (field === "data") this.data.push(value);
  }
}

/** readSSE reads a response body to its end through an [SSEParser]. */
export async function readSSE(body: ReadableStream<Uint8Array>, onEvent: (event: string, data: string) => void): Promise<void> {
  const parser = new SSEParser(onEvent);
  const reader = body.getReader();
  const decoder = new TextDecoder();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    parser.push(decoder.decode(value, { stream: true }));
  }
  parser.push(decoder.decode());
  parser.end();
}
