package load

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
	"golang.org/x/net/html/charset"
)

func init() { register(KindHTML, loadHTML) }

// loadHTML reads a web page, a saved wiki page most often (Fandom, World
// Anvil, MediaWiki): only its main content, found by the containers wikis
// and blogs put it in, else by where its paragraphs are densest; within
// it, navigation, sidebars, footers, forms, tables of contents, navboxes,
// "edit" links and hidden elements are left out. Headings h1-h6 keep
// their level, list items are prefixed "- ", table rows keep their
// header's words. The article's h1, which wikis put above the content,
// leads. The title is og:title (without the site's name that <title>
// adds), else <title>, else the first h1.
func loadHTML(data []byte) (*Document, error) {
	root, err := parseHTML(data)
	if err != nil {
		return nil, err
	}
	w := &htmlBlocks{page: true}
	main := mainContent(root)
	if find(main, isTag(atom.H1), false) == nil {
		if h1 := find(root, isTag(atom.H1), true); h1 != nil {
			w.blocks = append(w.blocks, Block{Level: 1, Text: w.textOf(h1, 0)})
		}
	}
	w.walk(main, 0)
	w.flush()
	return &Document{Title: pageTitle(root), Blocks: w.blocks}, nil
}

// parseHTML parses a page in the encoding it declares (or UTF-8).
func parseHTML(data []byte) (*html.Node, error) {
	r, err := charset.NewReader(bytes.NewReader(data), "")
	if err != nil {
		return nil, fmt.Errorf("decoding the html: %w", err)
	}
	root, err := html.Parse(r)
	if err != nil {
		return nil, fmt.Errorf("parsing the html: %w", err)
	}
	return root, nil
}

// pageTitle is a page's og:title, else its <title>, else its first h1.
func pageTitle(root *html.Node) string {
	if m := find(root, func(n *html.Node) bool {
		return n.DataAtom == atom.Meta && attr(n, "property") == "og:title"
	}, false); m != nil {
		if t := oneLine(attr(m, "content")); t != "" {
			return t
		}
	}
	for _, a := range []atom.Atom{atom.Title, atom.H1} {
		if n := find(root, isTag(a), a == atom.H1); n != nil {
			if t := oneLine(textContent(n, 0)); t != "" {
				return t
			}
		}
	}
	return ""
}

// mainContent is the element holding a page's article: the first
// container known to hold one that has text, else the element whose
// paragraphs hold the most text, else the body.
func mainContent(root *html.Node) *html.Node {
	body := find(root, isTag(atom.Body), false)
	if body == nil {
		body = root
	}
	articles := count(body, isTag(atom.Article), 2)
	for _, match := range []func(*html.Node) bool{
		hasID("mw-content-text"), hasClass("mw-parser-output"), // MediaWiki, Fandom
		func(n *html.Node) bool { return n.DataAtom == atom.Article && articles == 1 }, isTag(atom.Main), func(n *html.Node) bool { return attr(n, "role") == "main" },
		hasClass("article-content"), hasClass("entry-content"), hasClass("post-content"), hasID("content"),
	} {
		if n := find(body, match, true); n != nil && strings.TrimSpace(textContent(n, 0)) != "" {
			return n
		}
	}
	if n := densest(body); n != nil {
		return n
	}
	return body
}

// densest is the element whose paragraphs, its children's and half its
// grandchildren's, hold the most text: readability's measure, simply.
func densest(body *html.Node) *html.Node {
	score := map[*html.Node]int{}
	var best *html.Node
	var walk func(n *html.Node, depth int)
	walk = func(n *html.Node, depth int) {
		if depth > maxDepth {
			return
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode || skip(c, true) {
				continue
			}
			if c.DataAtom == atom.P {
				if l := len(oneLine(textContent(c, depth))); l >= 25 && c.Parent != nil {
					score[c.Parent] += l
					if g := c.Parent.Parent; g != nil {
						score[g] += l / 2
					}
				}
				continue
			}
			walk(c, depth+1)
		}
	}
	walk(body, 0)
	for n, s := range score {
		if best == nil || s > score[best] {
			best = n
		}
	}
	return best
}

// htmlBlocks turns elements into blocks.
type htmlBlocks struct {
	// page is a web page's content, whose chrome is left out; a chapter
	// of a book (EPUB) is read whole but for scripts, styles and hidden
	// elements.
	page   bool
	blocks []Block
	buf    strings.Builder // the paragraph being read
	item   bool            // buf starts a list item
}

// flush ends the paragraph being read.
func (w *htmlBlocks) flush() {
	text := oneLine(w.buf.String())
	w.buf.Reset()
	if text == "" {
		return
	}
	if w.item {
		text, w.item = listItem(text), false
	}
	w.blocks = append(w.blocks, Block{Text: text})
}

// walk reads n's children.
func (w *htmlBlocks) walk(n *html.Node, depth int) {
	if depth > maxDepth {
		return
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		switch c.Type {
		case html.TextNode:
			w.buf.WriteString(c.Data)
		case html.ElementNode:
			if skip(c, w.page) {
				continue
			}
			switch a := c.DataAtom; {
			case headingLevels[a] > 0:
				w.flush()
				w.blocks = append(w.blocks, Block{Level: headingLevels[a], Text: w.textOf(c, depth+1)})
			case a == atom.Li:
				w.flush()
				w.item = true
				w.walk(c, depth+1)
				w.flush()
				w.item = false
			case a == atom.Table:
				w.flush()
				for _, s := range tableBlocks(w.rows(c, depth+1)) {
					w.blocks = append(w.blocks, Block{Text: s})
				}
			case a == atom.Br:
				w.buf.WriteByte(' ')
			case blockTags[a]:
				w.flush()
				w.walk(c, depth+1)
				w.flush()
			default:
				w.walk(c, depth+1)
			}
		}
	}
}

// textOf is an element's text on one line, its blocks joined.
func (w *htmlBlocks) textOf(n *html.Node, depth int) string {
	sub := &htmlBlocks{page: w.page}
	sub.walk(n, depth)
	sub.flush()
	var parts []string
	for _, b := range sub.blocks {
		parts = append(parts, b.Text)
	}
	return strings.Join(parts, " ")
}

// rows reads a table's rows (not those of tables within its cells).
func (w *htmlBlocks) rows(table *html.Node, depth int) []tableRow {
	var rows []tableRow
	var walk func(n *html.Node, thead bool, depth int)
	walk = func(n *html.Node, thead bool, depth int) {
		if depth > maxDepth {
			return
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode || skip(c, w.page) {
				continue
			}
			switch c.DataAtom {
			case atom.Caption:
				rows = append(rows, tableRow{cells: []string{w.textOf(c, depth+1)}, header: true})
			case atom.Thead:
				walk(c, true, depth+1)
			case atom.Tbody, atom.Tfoot:
				walk(c, false, depth+1)
			case atom.Tr:
				row := tableRow{header: thead}
				ths, tds := 0, 0
				for cell := c.FirstChild; cell != nil; cell = cell.NextSibling {
					if cell.Type != html.ElementNode || (cell.DataAtom != atom.Th && cell.DataAtom != atom.Td) || skip(cell, w.page) {
						continue
					}
					if cell.DataAtom == atom.Th {
						ths++
					} else {
						tds++
					}
					row.cells = append(row.cells, w.textOf(cell, depth+2))
				}
				row.header = row.header || (ths > 0 && tds == 0)
				row.keyed = len(row.cells) > 1 && c.FirstChild != nil && firstCell(c) == atom.Th && tds > 0
				rows = append(rows, row)
			}
		}
	}
	walk(table, false, depth)
	return rows
}

// firstCell is the tag of a row's first cell.
func firstCell(tr *html.Node) atom.Atom {
	for c := tr.FirstChild; c != nil; c = c.NextSibling {
		if c.DataAtom == atom.Th || c.DataAtom == atom.Td {
			return c.DataAtom
		}
	}
	return 0
}

var headingLevels = map[atom.Atom]int{atom.H1: 1, atom.H2: 2, atom.H3: 3, atom.H4: 4, atom.H5: 5, atom.H6: 6}

// blockTags are the elements that end the paragraph before them and
// start one of their own.
var blockTags = map[atom.Atom]bool{
	atom.P: true, atom.Div: true, atom.Section: true, atom.Article: true, atom.Main: true,
	atom.Blockquote: true, atom.Pre: true, atom.Address: true, atom.Figure: true,
	atom.Figcaption: true, atom.Ul: true, atom.Ol: true, atom.Dl: true, atom.Dt: true,
	atom.Dd: true, atom.Header: true, atom.Footer: true, atom.Aside: true, atom.Hr: true,
	atom.Details: true, atom.Summary: true, atom.Center: true, atom.Fieldset: true,
	atom.Legend: true, atom.Body: true, atom.Html: true, atom.Hgroup: true,
}

// neverText are elements whose content is not text to read.
var neverText = map[atom.Atom]bool{
	atom.Script: true, atom.Style: true, atom.Noscript: true, atom.Template: true,
	atom.Head: true, atom.Iframe: true, atom.Object: true, atom.Embed: true,
	atom.Svg: true, atom.Canvas: true, atom.Button: true, atom.Input: true,
	atom.Select: true, atom.Textarea: true, atom.Nav: true,
}

// chromeTags are a page's furniture around its article.
var chromeTags = map[atom.Atom]bool{
	atom.Footer: true, atom.Aside: true, atom.Form: true, atom.Menu: true, atom.Dialog: true,
}

var chromeRoles = map[string]bool{
	"navigation": true, "banner": true, "contentinfo": true, "complementary": true,
	"search": true, "menu": true, "menubar": true, "dialog": true, "toolbar": true,
}

// chromeName matches the class and id words of a page's furniture, as
// whole words of a name ("navbox", "toc", "mw-editsection", "WikiaRail").
var chromeName = regexp.MustCompile(`(?i)(^|[-_ ])(nav|navbar|navbox|navigation|global-nav|menu|sidebar|rail|wikiarail|footer|site-header|community-header|masthead|breadcrumbs?|toc|toctitle|editsection|edit-section|noprint|printfooter|catlinks|categories|share|sharing|social|advert|ads|ad-slot|banner|cookie|popup|modal|related|comments?|toolbar|skip-link|mw-jump-link|page-header__actions)([-_ ]|$)`)

// editWords are the texts of a wiki's "edit" links.
var editWords = map[string]bool{
	"edit": true, "editar": true, "edit source": true, "editar código": true,
	"editar código fuente": true, "modifier": true, "bearbeiten": true, "modifica": true,
}

// skip reports whether an element is left out: never text, hidden, or,
// on a page, its furniture. The page's html and body are never skipped,
// whatever their classes say ("has-right-rail").
func skip(n *html.Node, page bool) bool {
	if neverText[n.DataAtom] || hidden(n) {
		return true
	}
	if !page || n.DataAtom == atom.Html || n.DataAtom == atom.Body {
		return false
	}
	if chromeTags[n.DataAtom] || chromeRoles[attr(n, "role")] {
		return true
	}
	if n.DataAtom == atom.Header && find(n, func(c *html.Node) bool { return headingLevels[c.DataAtom] > 0 }, false) == nil {
		return true // an article's own header holds its title: kept
	}
	if chromeName.MatchString(attr(n, "class")) || chromeName.MatchString(attr(n, "id")) {
		return true
	}
	if n.DataAtom == atom.A && editWords[strings.ToLower(oneLine(strings.Trim(textContent(n, 0), "[] ")))] {
		return true
	}
	return false
}

// hidden reports whether an element is not shown.
func hidden(n *html.Node) bool {
	for _, a := range n.Attr {
		switch a.Key {
		case "hidden":
			return true
		case "aria-hidden":
			if a.Val == "true" {
				return true
			}
		case "style":
			s := strings.ToLower(strings.Join(strings.Fields(a.Val), ""))
			if strings.Contains(s, "display:none") || strings.Contains(s, "visibility:hidden") {
				return true
			}
		}
	}
	return false
}

// attr is an element's attribute key, or "".
func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func isTag(a atom.Atom) func(*html.Node) bool {
	return func(n *html.Node) bool { return n.DataAtom == a }
}

func hasID(id string) func(*html.Node) bool {
	return func(n *html.Node) bool { return attr(n, "id") == id }
}

func hasClass(class string) func(*html.Node) bool {
	return func(n *html.Node) bool { return slices.Contains(strings.Fields(attr(n, "class")), class) }
}

// find is the first element below n that match accepts, depth first;
// visible leaves out what is never text or hidden.
func find(n *html.Node, match func(*html.Node) bool, visible bool) *html.Node {
	var walk func(n *html.Node, depth int) *html.Node
	walk = func(n *html.Node, depth int) *html.Node {
		if depth > maxDepth {
			return nil
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode || (visible && (skip(c, false) || chromeTags[c.DataAtom] || c.DataAtom == atom.Header)) {
				continue
			}
			if match(c) {
				return c
			}
			if f := walk(c, depth+1); f != nil {
				return f
			}
		}
		return nil
	}
	return walk(n, 0)
}

// count is how many elements below n match accepts, counting up to limit.
func count(n *html.Node, match func(*html.Node) bool, limit int) int {
	c := 0
	var walk func(n *html.Node, depth int)
	walk = func(n *html.Node, depth int) {
		for k := n.FirstChild; k != nil && c < limit && depth <= maxDepth; k = k.NextSibling {
			if k.Type == html.ElementNode {
				if match(k) {
					c++
				}
				walk(k, depth+1)
			}
		}
	}
	walk(n, 0)
	return c
}

// textContent is all the text below n, as it stands.
func textContent(n *html.Node, depth int) string {
	var b strings.Builder
	var walk func(n *html.Node, depth int)
	walk = func(n *html.Node, depth int) {
		if depth > maxDepth {
			return
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			switch {
			case c.Type == html.TextNode:
				b.WriteString(c.Data)
			case c.Type == html.ElementNode && !neverText[c.DataAtom]:
				walk(c, depth+1)
			}
		}
	}
	walk(n, depth)
	return b.String()
}
