package load

import (
	"archive/zip"
	"bytes"
	"fmt"
	"net/url"
	"path"
	"regexp"
	"strings"

	"golang.org/x/net/html/atom"
)

func init() { register(KindEPUB, loadEPUB) }

// maxBook bounds the chapters of a book inflated in all.
const maxBook = 4 * maxPart

// loadEPUB reads an EPUB book: the package document that
// META-INF/container.xml names, then its spine's XHTML documents in
// order, each read whole as HTML is (a chapter has no navigation to
// leave out, however short it is). The navigation document (EPUB 3's
// nav, EPUB 2's guide "toc") is not read as text: it repeats the
// headings. The title is the package's dc:title.
func loadEPUB(data []byte) (*Document, error) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, fmt.Errorf("reading the epub archive: %w", err)
	}
	files := map[string]*zip.File{}
	for _, f := range zr.File {
		files[f.Name] = f
	}
	read := func(name string) ([]byte, error) {
		f := files[name]
		if f == nil {
			return nil, fmt.Errorf("no %s in the book", name)
		}
		b, err := readZipFile(f, maxPart)
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", name, err)
		}
		return b, nil
	}
	xmlPart := func(name string) (*xnode, error) {
		b, err := read(name)
		if err != nil {
			return nil, err
		}
		n, err := parseXML(b)
		if err != nil {
			return nil, fmt.Errorf("parsing %s: %w", name, err)
		}
		return n, nil
	}
	container, err := xmlPart("META-INF/container.xml")
	if err != nil {
		return nil, err
	}
	rootfile := container.find("rootfile")
	if rootfile == nil || rootfile.get("full-path") == "" {
		return nil, fmt.Errorf("META-INF/container.xml names no package document")
	}
	opfName := rootfile.get("full-path")
	opf, err := xmlPart(opfName)
	if err != nil {
		return nil, err
	}
	doc := &Document{}
	if meta := opf.find("metadata"); meta != nil {
		if t := meta.find("title"); t != nil {
			doc.Title = oneLine(t.allText())
		}
	}
	base := path.Dir(opfName)
	type item struct{ name, mediaType string }
	items := map[string]item{}
	nav := map[string]bool{}
	if m := opf.find("manifest"); m != nil {
		for _, it := range m.kids {
			if it.name != "item" {
				continue
			}
			name := resolveHref(base, it.get("href"))
			items[it.get("id")] = item{name, it.get("media-type")}
			if strings.Contains(" "+it.get("properties")+" ", " nav ") {
				nav[name] = true
			}
		}
	}
	if g := opf.find("guide"); g != nil {
		for _, ref := range g.kids {
			if ref.name == "reference" && ref.get("type") == "toc" {
				nav[resolveHref(base, ref.get("href"))] = true
			}
		}
	}
	spine := opf.find("spine")
	if spine == nil {
		return nil, fmt.Errorf("%s has no spine: no reading order", opfName)
	}
	done, total := map[string]bool{}, 0
	for _, ref := range spine.kids {
		if ref.name != "itemref" {
			continue
		}
		it, ok := items[ref.get("idref")]
		if !ok || nav[it.name] || done[it.name] || !isXHTML(it.mediaType) {
			continue
		}
		done[it.name] = true
		b, err := read(it.name)
		if err != nil {
			return nil, err
		}
		if total += len(b); total > maxBook {
			return nil, fmt.Errorf("chapters larger than %d bytes in all once inflated", maxBook)
		}
		root, err := parseHTML(selfClosed.ReplaceAll(b, []byte("<$1$2></$1>")))
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", it.name, err)
		}
		body := find(root, isTag(atom.Body), false)
		if body == nil {
			body = root
		}
		w := &htmlBlocks{}
		w.walk(body, 0)
		w.flush()
		doc.Blocks = append(doc.Blocks, w.blocks...)
	}
	return doc, nil
}

// selfClosed matches XHTML's self-closed elements that HTML reads as
// open until their end tag, swallowing the chapter: <title/>, <script .../>.
var selfClosed = regexp.MustCompile(`(?i)<(title|script|style|textarea|iframe|noscript|noembed|noframes|xmp)(\s[^<>]*)?/>`)

// resolveHref is the archive name of a package document's href.
func resolveHref(base, href string) string {
	href, _, _ = strings.Cut(href, "#")
	if u, err := url.PathUnescape(href); err == nil {
		href = u
	}
	return strings.TrimPrefix(path.Join(base, href), "/")
}

// isXHTML reports whether a media type is a chapter's.
func isXHTML(mediaType string) bool {
	return mediaType == "application/xhtml+xml" || mediaType == "text/html"
}
