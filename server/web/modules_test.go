package web_test

import (
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/oraculo/oraculo/server/web"
)

// The page's modules, run in the browser: the Markdown renderer (what it
// allows, and that nothing in a note becomes markup) and the event-stream
// parser.
func TestPageModules(t *testing.T) {
	exe := browserPath(t)
	srv := httptest.NewServer(web.Handler())
	t.Cleanup(srv.Close)
	p := newPage(t, exe)
	p.do("load the page", chromedp.Navigate(srv.URL+"/"))

	render := func(md string) string {
		t.Helper()
		in, _ := json.Marshal(md)
		v, err := chromedp.Run(p.ctx, chromedp.Evaluate[string](`(async () => {
			const { renderMarkdown } = await import("/static/markdown.js");
			const box = document.createElement("div");
			box.append(renderMarkdown(`+string(in)+`, { headingOffset: 2, cite: (x) => x === "Sesión 4" ? Object.assign(document.createElement("button"), { textContent: x }) : null }));
			return box.innerHTML;
		})()`, chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatalf("rendering %q: %v", md, err)
		}
		return v
	}
	tests := []struct{ name, in, want string }{
		{"paragraphs", "uno\ndos\n\ntres", "<p>uno<br>dos</p><p>tres</p>"},
		{"emphasis", "**negrita** y *cursiva* y _otra_ y __más__", "<p><strong>negrita</strong> y <em>cursiva</em> y <em>otra</em> y <strong>más</strong></p>"},
		{"underscores inside words", "snake_case_name", "<p>snake_case_name</p>"},
		{"heading", "## Sesión 4 — El sello gris", `<h4 class="md-h">Sesión 4 — El sello gris</h4>`},
		{"list", "- a\n- b\n  - c\n1. d", `<ul class="md-list"><li>a</li><li>b<ul class="md-list"><li>c</li></ul></li></ul><ol class="md-list"><li>d</li></ol>`},
		{"citation", "Lo dice. [Sesión 4] [sic]", "<p>Lo dice. <button>Sesión 4</button> [sic]</p>"},
		{"wiki link", "Ver [[NPCs/Leoric|Leoric]] y [[Caldemora]]", `<p>Ver <span class="md-wikilink">Leoric</span> y <span class="md-wikilink">Caldemora</span></p>`},
		{"link keeps its words", "[aquí](javascript:alert(1))", `<p><span class="md-link">aquí</span></p>`},
		{"html is text", `<img src=x onerror="alert(1)"><script>alert(2)</script>`, `<p>&lt;img src=x onerror="alert(1)"&gt;&lt;script&gt;alert(2)&lt;/script&gt;</p>`},
		{"html in emphasis", `**<b onclick=x>hi</b>**`, `<p><strong>&lt;b onclick=x&gt;hi&lt;/b&gt;</strong></p>`},
		{"code", "`<x>` y\n```\n<y>\n```", "<p><code>&lt;x&gt;</code> y</p><pre class=\"md-code\"><code>&lt;y&gt;</code></pre>"},
		{"quote and rule", "> dicho\n\n---", "<blockquote><p>dicho</p></blockquote><hr>"},
		// Obsidian's markup, shown as the server's text.Render shows it.
		{"wiki link shown text", "[[Ser Morcant the Gloomy (Chain Knight)|Ser Morcant]], [[NPCs/Harbin.md]], [[Dioses#Aurelith]], [[Nota^b1]], [[a\\|b]]",
			`<p><span class="md-wikilink">Ser Morcant</span>, <span class="md-wikilink">Harbin</span>, <span class="md-wikilink">Dioses › Aurelith</span>, <span class="md-wikilink">Nota</span>, <span class="md-wikilink">b</span></p>`},
		{"embeds", "![[mapa.png]]![[Otra nota]]", `<p><span class="md-wikilink">Otra nota</span></p>`},
		{"highlight and strike", "==muy== ~~vivo~~ muerto, a == b", `<p><mark class="md-highlight">muy</mark> <del>vivo</del> muerto, a == b</p>`},
		{"footnotes", "Murió[^1] así^[dicen].\n\n[^1]: Según Kleb.", "<p>Murió así(dicen).</p><p>Según Kleb.</p>"},
		{"tags", "#pnj y #lugar/ciudad, #12 y C#", `<p><span class="md-tag">pnj</span> y <span class="md-tag">lugar/ciudad</span>, #12 y C#</p>`},
		{"callout", "> [!warning]- Cuidado\n> con esto", "<blockquote><p>Cuidado<br>con esto</p></blockquote>"},
		{"markup in code stays", "`[[x]] ==y== #z`", "<p><code>[[x]] ==y== #z</code></p>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := render(tt.in); got != tt.want {
				t.Errorf("renderMarkdown(%q)\n got %s\nwant %s", tt.in, got, tt.want)
			}
		})
	}

	// The cited sentence is found in the rendered passage whatever its
	// Markdown, and only its text is marked.
	mark := func(md, sentence string) string {
		t.Helper()
		in, _ := json.Marshal(md)
		sent, _ := json.Marshal(sentence)
		v, err := chromedp.Run(p.ctx, chromedp.Evaluate[string](`(async () => {
			const { renderMarkdown } = await import("/static/markdown.js");
			const { markSentence } = await import("/static/sentence.js");
			const box = document.createElement("div");
			box.append(renderMarkdown(`+string(in)+`));
			const first = markSentence(box, `+string(sent)+`);
			return (first ? "" : "none: ") + box.innerHTML.replaceAll(' class="cited" data-testid="cited-sentence"', "");
		})()`, chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatalf("marking %q in %q: %v", sentence, md, err)
		}
		return v
	}
	marks := []struct{ name, md, sentence, want string }{
		{"plain", "Uno. Dos tres. Cuatro.", "Dos tres.", "<p>Uno. <mark>Dos tres.</mark> Cuatro.</p>"},
		{"across emphasis", "Antes. El **archiduque** no cree. Después.", "El **archiduque** no cree.", "<p>Antes. <mark>El </mark><strong><mark>archiduque</mark></strong><mark> no cree.</mark> Después.</p>"},
		{"across a line break", "Una frase\nen dos líneas. Otra.", "Una frase en dos líneas.", "<p><mark>Una frase</mark><br><mark>en dos líneas.</mark> Otra.</p>"},
		{"list marks and case", "- Primera cosa.\n- Segunda.", "- primera COSA.", `<ul class="md-list"><li><mark>Primera cosa.</mark></li><li>Segunda.</li></ul>`},
		{"not there", "Nada igual.", "Otra frase.", "none: <p>Nada igual.</p>"},
		// A sentence the server quoted from a note, rendered (text.Render),
		// is found in the passage rendered from the note's markup.
		{"rendered quote in markup", "Antes. [[Ser Morcant the Gloomy|Ser Morcant]] llegó a ==Phandalin==[^1]. Después.", "Ser Morcant llegó a Phandalin.",
			`<p>Antes. <span class="md-wikilink"><mark>Ser Morcant</mark></span><mark> llegó a </mark><mark class="md-highlight"><mark>Phandalin</mark></mark>. Después.</p>`},
	}
	for _, tt := range marks {
		t.Run("mark "+tt.name, func(t *testing.T) {
			if got := mark(tt.md, tt.sentence); got != tt.want {
				t.Errorf("markSentence(%q)\n got %s\nwant %s", tt.sentence, got, tt.want)
			}
		})
	}

	// A wikilink whose target the server resolved is a link to its note,
	// its shown text unchanged; any other target (one the map does not
	// hold, an Object property's name included) shows as without links.
	// An answer's names link at their first mention as whole words,
	// outside code and citations.
	got, err := chromedp.Run(p.ctx, chromedp.Evaluate[string](`(async () => {
		const { renderMarkdown, noteLinks, linkNames, wikilinkTarget } = await import("/static/markdown.js");
		const box = document.createElement("div");
		const links = { "NPCs/Harbin.md": "/n?file=NPCs%2FHarbin.md&r=player&k=x" };
		box.append(renderMarkdown("[[NPCs/Harbin.md#Cargo|el alcalde]] y [[constructor]], [[toString]], [[Vermitrax]].", { noteLink: noteLinks(links) }));
		const answer = document.createElement("div");
		answer.append(renderMarkdown("`+"`Kleb`"+` y Klebber y https://x.org/Kleb ven a Kleb; luego Kleb y Ser Kleb.", { cite: (x) => null }));
		linkNames(answer, [{ text: "Ser Kleb", url: "/n?file=SK.md" }, { text: "Kleb", url: "/n?file=K.md" }]);
		return [wikilinkTarget(" a\\|b|c "), wikilinkTarget("Dioses#Aurelith|x"), box.innerHTML, answer.innerHTML].join("\n");
	})()`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Join([]string{"a", "Dioses",
		`<p><a class="md-wikilink" href="/n?file=NPCs%2FHarbin.md&amp;r=player&amp;k=x" target="_blank" rel="noopener noreferrer" data-testid="note-link">el alcalde</a> y <span class="md-wikilink">constructor</span>, <span class="md-wikilink">toString</span>, <span class="md-wikilink">Vermitrax</span>.</p>`,
		`<p><code>Kleb</code> y Klebber y https://x.org/Kleb ven a <a class="note-link" href="/n?file=K.md" target="_blank" rel="noopener noreferrer" data-testid="note-link">Kleb</a>; luego Kleb y <a class="note-link" href="/n?file=SK.md" target="_blank" rel="noopener noreferrer" data-testid="note-link">Ser Kleb</a>.</p>`,
	}, "\n")
	if got != want {
		t.Errorf("links to notes\n got %s\nwant %s", got, want)
	}

	// The stream arrives cut anywhere, CRLF included, with comments, and
	// may end without the final blank line.
	got, err = chromedp.Run(p.ctx, chromedp.Evaluate[string](`(async () => {
		const { parseSSE } = await import("/static/api.js");
		const parts = ["event: delta\r\ndata: {\"text\":\"Ho\"}\r", "\n\r\n: ping\n\nevent: del", "ta\ndata: {\"text\":\"la\"}\n\nevent: answer\ndata: {\"a\":1,\n", "data: \"b\":2}\n\nevent: answer\ndata: last"];
		const enc = new TextEncoder();
		const body = new ReadableStream({ start(c) { for (const p of parts) c.enqueue(enc.encode(p)); c.close(); } });
		const out = [];
		await parseSSE(body, (event, data) => out.push(event + "=" + data));
		return JSON.stringify(out);
	})()`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	want = `["delta={\"text\":\"Ho\"}","delta={\"text\":\"la\"}","answer={\"a\":1,\n\"b\":2}","answer=last"]`
	if got != want {
		t.Errorf("parseSSE events\n got %s\nwant %s", got, want)
	}
}
