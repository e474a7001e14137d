package ingest

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	textunicode "golang.org/x/text/encoding/unicode"
	"golang.org/x/text/encoding/unicode/utf32"
	"gopkg.in/yaml.v3"

	"github.com/oraculo/oraculo/load"
)

// DefaultMaxBytes is the largest note read by default.
const DefaultMaxBytes = 16 << 20

// Note is one file read and decoded, ready to be chunked.
type Note struct {
	Path string
	// SHA256 is the hash of the file's bytes as found on disk: the version.
	SHA256 string
	Size   int64
	// Title is the front matter title, or "" when there is none.
	Title string
	// Body is the text after the front matter: valid UTF-8, LF line endings.
	Body string
	// Metadata is the front matter, as a JSON object ("{}" when absent).
	Metadata json.RawMessage
	// Aliases, Tags and Visibility are read from the front matter.
	Aliases    []string
	Tags       []string
	Visibility string
	// FrontMatterRaw is the text of the front-matter block between its
	// "---" lines (decoded, LF line endings), whenever one was found: parsed
	// into Metadata or not (too large, or not valid YAML, in which case it is
	// also kept in Body).
	FrontMatterRaw string
	// FrontMatterUnparsed is set when a front matter was found but not
	// read into Metadata (too large, too many nodes, not valid YAML, not
	// storable): whoever needs a setting from it must scan FrontMatterRaw.
	FrontMatterUnparsed bool
	// Repairs says what was done to decode the file ("" when nothing).
	Repairs string
	// Warnings are problems that did not stop the note from being ingested.
	Warnings []string

	// Kind is the format of a document that is not a note ("pdf", "docx",
	// ... as package load names them), "" for a note. A document's Body is
	// its text rendered as Markdown once [Note.LoadDocument] has read it.
	Kind string
	// Pages are where each page of a paged document begins in Body, and
	// PageCount how many pages it has.
	Pages     []load.PageStart
	PageCount int
	data      []byte // a document's bytes, until LoadDocument
}

// Read reads and parses one file. A file that cannot be a note comes back
// as a *Skip with the reason; other errors do not happen.
//
// Read never blocks on a named pipe or a device and never reads more than
// maxBytes+1 bytes, whatever the walk found: only a regular file is read
// (checked on the opened file, as it may have been replaced since the walk),
// and one that has grown past maxBytes is skipped as too large. For a
// symlink it opens [File.Target].
func Read(f File, maxBytes int64) (*Note, *Skip) {
	return read(f, maxBytes, nil)
}

// Read reads and parses one file as [Read] does, judging the file opened
// (not the one the walk found, which may have been swapped since) by the
// fence: one of the index's own files, or a file outside the fence's
// folders, is skipped as the walk would skip it.
func (fc *Fence) Read(f File, maxBytes int64) (*Note, *Skip) {
	return read(f, maxBytes, fc)
}

func read(f File, maxBytes int64, fc *Fence) (*Note, *Skip) {
	if maxBytes <= 0 {
		maxBytes = DefaultMaxBytes
	}
	if f.Size > maxBytes {
		return nil, &Skip{Path: f.Path, Reason: ReasonTooLarge, Detail: fmt.Sprintf("%d bytes > %d", f.Size, maxBytes)}
	}
	data, skip := readRegular(f, maxBytes, fc)
	if skip != nil {
		return nil, skip
	}
	if kind := load.Detect(f.Path, data); kind != "" {
		return readDocument(f.Path, kind, data), nil
	}
	if load.IsDocumentName(f.Path) {
		return nil, notDocument(f.Path)
	}
	return Parse(f.Path, data)
}

// readRegular reads a regular file of at most maxBytes, within the fence
// when there is one.
func readRegular(f File, maxBytes int64, fc *Fence) ([]byte, *Skip) {
	name := f.Abs
	if f.Target != "" {
		name = f.Target
	}
	unreadable := func(err error) *Skip { return &Skip{Path: f.Path, Reason: ReasonUnreadable, Detail: err.Error()} }
	notRegular := func(m fs.FileMode) *Skip { return &Skip{Path: f.Path, Reason: ReasonNotRegular, Detail: fileKind(m)} }
	// Checked before opening too: opening some devices does something.
	info, err := os.Lstat(name)
	if err != nil {
		return nil, unreadable(err)
	}
	if !info.Mode().IsRegular() {
		return nil, notRegular(info.Mode())
	}
	file, err := openNote(name)
	if err != nil {
		return nil, unreadable(err)
	}
	defer file.Close()
	info, err = file.Stat()
	if err != nil {
		return nil, unreadable(err)
	}
	if !info.Mode().IsRegular() {
		return nil, notRegular(info.Mode())
	}
	if fc != nil {
		if skip := fc.judgeOpened(f.Path, name, file, info); skip != nil {
			return nil, skip
		}
	}
	if info.Size() > maxBytes {
		return nil, &Skip{Path: f.Path, Reason: ReasonTooLarge, Detail: fmt.Sprintf("%d bytes > %d", info.Size(), maxBytes)}
	}
	// The size is only a hint: the file may grow while it is read.
	buf := bytes.NewBuffer(make([]byte, 0, info.Size()+bytes.MinRead))
	if _, err := buf.ReadFrom(io.LimitReader(file, maxBytes+1)); err != nil {
		return nil, unreadable(err)
	}
	if int64(buf.Len()) > maxBytes {
		return nil, &Skip{Path: f.Path, Reason: ReasonTooLarge, Detail: fmt.Sprintf("more than %d bytes", maxBytes)}
	}
	return buf.Bytes(), nil
}

// Parse decodes a note's bytes: it decodes UTF-16 and UTF-32 (by their
// byte-order mark, or UTF-16 without one when the text is unmistakable),
// rejects binary content (a NUL anywhere in the decoded text), repairs
// invalid UTF-8 (decoding Windows-1252 when the whole file looks like it),
// normalises line endings and splits off YAML front matter.
func Parse(rel string, data []byte) (*Note, *Skip) {
	sum := sha256.Sum256(data)
	n := &Note{Path: rel, SHA256: hex.EncodeToString(sum[:]), Size: int64(len(data)), Metadata: json.RawMessage("{}")}
	text, repairs, ok := decode(data)
	if !ok {
		return nil, &Skip{Path: rel, Reason: ReasonBinary}
	}
	n.Repairs = repairs
	text = strings.TrimPrefix(text, "\ufeff")
	text = strings.ReplaceAll(text, "\r\n", "\n")
	text = strings.ReplaceAll(text, "\r", "\n")
	front, body, ok := splitFrontMatter(text)
	n.Body = body
	if ok {
		n.FrontMatterRaw = front
		n.parseFrontMatter(front)
	}
	if strings.TrimSpace(n.Body) == "" && n.Title == "" {
		return nil, &Skip{Path: rel, Reason: ReasonEmpty}
	}
	return n, nil
}

// decode returns the text as valid UTF-8 with a description of any repair,
// or ok=false when the data is binary: a NUL never occurs in a text file,
// once decoded, whatever its encoding.
func decode(data []byte) (text, repairs string, ok bool) {
	if enc, name := byteOrderMark(data); enc != nil {
		s, err := enc.NewDecoder().Bytes(data)
		if err != nil || bytes.IndexByte(s, 0) >= 0 {
			return "", "", false
		}
		return string(s), "decoded from " + name, true
	}
	if bytes.IndexByte(data, 0) >= 0 {
		if s, name, ok := utf16WithoutBOM(data); ok {
			return s, "decoded from " + name + " (no byte-order mark)", true
		}
		return "", "", false
	}
	if utf8.Valid(data) {
		return string(data), "", true
	}
	invalid, multibyte := 0, 0
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size == 1 {
			invalid++
		} else if size > 1 {
			multibyte++
		}
		i += size
	}
	// No valid multi-byte sequence at all: an old single-byte file, almost
	// always Windows-1252 (a superset of Latin-1) for Spanish notes.
	if multibyte == 0 {
		if s, err := charmap.Windows1252.NewDecoder().Bytes(data); err == nil && utf8.Valid(s) {
			return string(s), "decoded as Windows-1252", true
		}
	}
	return strings.ToValidUTF8(string(data), "\uFFFD"), fmt.Sprintf("replaced %d invalid UTF-8 bytes", invalid), true
}

// byteOrderMark returns the decoder for a UTF-16 or UTF-32 file that starts
// with its byte-order mark (the decoder drops it), and the encoding's name.
// A UTF-8 mark is left to the caller.
func byteOrderMark(data []byte) (encoding.Encoding, string) {
	switch {
	// UTF-32 LE before UTF-16 LE: its mark starts with UTF-16 LE's.
	case len(data)%4 == 0 && bytes.HasPrefix(data, []byte{0xFF, 0xFE, 0, 0}):
		return utf32.UTF32(utf32.LittleEndian, utf32.ExpectBOM), "UTF-32 LE"
	case len(data)%4 == 0 && bytes.HasPrefix(data, []byte{0, 0, 0xFE, 0xFF}):
		return utf32.UTF32(utf32.BigEndian, utf32.ExpectBOM), "UTF-32 BE"
	case bytes.HasPrefix(data, []byte{0xFF, 0xFE}):
		return textunicode.UTF16(textunicode.LittleEndian, textunicode.ExpectBOM), "UTF-16 LE"
	case bytes.HasPrefix(data, []byte{0xFE, 0xFF}):
		return textunicode.UTF16(textunicode.BigEndian, textunicode.ExpectBOM), "UTF-16 BE"
	}
	return nil, ""
}

// utf16WithoutBOM decodes data as UTF-16 without a byte-order mark only when
// it cannot be anything else: an even length, no NUL code unit, at least
// half the code units ASCII (which is what puts the NUL bytes in the data),
// and every character printable, a space or a tab or line control (no lone
// surrogate). Binary formats fail it: they hold aligned zero pairs or
// control bytes (a PNG has both in its first 16 bytes).
func utf16WithoutBOM(data []byte) (text, name string, ok bool) {
	if len(data)%2 != 0 {
		return "", "", false
	}
	orders := []binary.ByteOrder{binary.LittleEndian, binary.BigEndian}
	for i, order := range orders {
		ascii := 0
		for j := 0; j < len(data); j += 2 {
			u := order.Uint16(data[j:])
			if u == 0 {
				ascii = -1
				break
			}
			if u < utf8.RuneSelf {
				ascii++
			}
		}
		if ascii <= 0 || 2*ascii < len(data)/2 {
			continue
		}
		units := make([]uint16, len(data)/2)
		for j := range units {
			units[j] = order.Uint16(data[2*j:])
		}
		runes := utf16.Decode(units)
		if !textRunes(runes) {
			continue
		}
		return string(runes), [...]string{"UTF-16 LE", "UTF-16 BE"}[i], true
	}
	return "", "", false
}

// textRunes reports whether every rune is printable, a space, a format
// character (soft hyphen, zero-width joiner) or a tab or line control. A
// lone surrogate decodes as U+FFFD and fails it.
func textRunes(runes []rune) bool {
	for _, r := range runes {
		switch {
		case r == utf8.RuneError:
			return false
		case r == '\t' || r == '\n' || r == '\r' || r == '\f':
		case !unicode.IsPrint(r) && !unicode.In(r, unicode.Zs, unicode.Zl, unicode.Zp, unicode.Cf):
			return false
		}
	}
	return true
}

// splitFrontMatter separates a leading "---" YAML block from the body.
func splitFrontMatter(text string) (front, body string, ok bool) {
	if !strings.HasPrefix(text, "---\n") {
		return "", text, false
	}
	rest := text[len("---\n"):]
	for off := 0; off <= len(rest); {
		end := strings.IndexByte(rest[off:], '\n')
		line := rest[off:]
		if end >= 0 {
			line = rest[off : off+end]
		}
		if t := strings.TrimRight(line, " \t"); t == "---" || t == "..." {
			after := off + len(line)
			if end >= 0 {
				after++
			}
			return rest[:off], rest[after:], true
		}
		if end < 0 {
			break
		}
		off += end + 1
	}
	return "", text, false
}

// MaxFrontMatterBytes is the largest front matter parsed; a larger one is
// kept as text in the body, with a warning.
const MaxFrontMatterBytes = 64 << 10

// MaxFrontMatterNodes is the most YAML nodes (keys, values, lists and maps,
// an alias counted as what it stands for) a parsed front matter may have;
// past it the front matter is kept as text in the body, with a warning.
// yaml.v3 checks each map for duplicate keys in quadratic time: 64 KiB of
// short keys ("k123: v", 7,400 of them) took 110 to 150 ms to decode, and
// 64 KiB of one repeated key in a flow map 28 s; 2,000 keys take about
// 12 ms (BenchmarkParseFrontMatter).
const MaxFrontMatterNodes = 4096

// errTooManyNodes: the front matter is over MaxFrontMatterNodes.
var errTooManyNodes = fmt.Errorf("more than %d YAML nodes", MaxFrontMatterNodes)

// parseFrontMatter fills the note's metadata from its front matter, or keeps
// the front matter as text in the body when it is too large or not valid.
func (n *Note) parseFrontMatter(front string) {
	keep := func(warning string) {
		n.Warnings = append(n.Warnings, warning)
		n.FrontMatterUnparsed = true
		n.Body = "---\n" + front + "---\n" + n.Body
	}
	if len(front) > MaxFrontMatterBytes {
		keep(fmt.Sprintf("front matter is %d bytes, over the bound of %d: kept as text, not parsed", len(front), MaxFrontMatterBytes))
		return
	}
	meta, err := decodeFrontMatter(front)
	if errors.Is(err, errTooManyNodes) {
		keep(fmt.Sprintf("front matter has %v: kept as text, not parsed", err))
		return
	}
	if err != nil {
		keep(fmt.Sprintf("front matter is not valid YAML, kept as text: %v", err))
		return
	}
	if meta == nil {
		return
	}
	raw, err := json.Marshal(jsonable(meta))
	if err != nil {
		n.Warnings = append(n.Warnings, fmt.Sprintf("front matter cannot be stored: %v", err))
		n.FrontMatterUnparsed = true
		return
	}
	n.Metadata = raw
	if t, ok := meta["title"].(string); ok {
		n.Title = strings.TrimSpace(t)
	}
	n.Aliases = stringList(meta["aliases"])
	n.Tags = stringList(meta["tags"])
	if v, ok := meta["visibility"].(string); ok {
		n.Visibility = strings.ToLower(strings.TrimSpace(v))
	}
}

// decodeFrontMatter parses YAML into a map, in time bounded by
// MaxFrontMatterNodes: the nodes are counted, and the duplicate keys yaml.v3
// would report (one error per pair) looked for, before decoding.
func decodeFrontMatter(front string) (map[string]any, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(front), &doc); err != nil {
		return nil, err
	}
	b := nodeBudget{left: MaxFrontMatterNodes, open: map[*yaml.Node]bool{}}
	if err := b.visit(&doc); err != nil {
		return nil, err
	}
	var meta map[string]any
	if err := doc.Decode(&meta); err != nil {
		return nil, err
	}
	return meta, nil
}

// nodeBudget walks a YAML tree as yaml.v3 decodes it, aliases expanded.
type nodeBudget struct {
	left int
	open map[*yaml.Node]bool // anchors being expanded
}

func (b *nodeBudget) visit(n *yaml.Node) error {
	if b.left--; b.left < 0 {
		return errTooManyNodes
	}
	switch n.Kind {
	case yaml.AliasNode:
		if n.Alias == nil {
			return nil
		}
		if b.open[n.Alias] {
			return fmt.Errorf("line %d: anchor %q value contains itself", n.Line, n.Value)
		}
		b.open[n.Alias] = true
		defer delete(b.open, n.Alias)
		return b.visit(n.Alias)
	case yaml.MappingNode:
		// yaml.v3's rule: same kind and same text.
		seen := make(map[string]int, len(n.Content)/2)
		for i := 0; i < len(n.Content); i += 2 {
			k := n.Content[i]
			id := fmt.Sprintf("%d:%s", k.Kind, k.Value)
			if line, dup := seen[id]; dup {
				return fmt.Errorf("line %d: mapping key %q already defined at line %d", k.Line, k.Value, line)
			}
			seen[id] = k.Line
		}
	}
	for _, c := range n.Content {
		if err := b.visit(c); err != nil {
			return err
		}
	}
	return nil
}

// jsonable turns YAML's map[any]any (non-string keys) into JSON-friendly maps.
func jsonable(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			t[k] = jsonable(e)
		}
		return t
	case map[any]any:
		m := make(map[string]any, len(t))
		for k, e := range t {
			m[fmt.Sprint(k)] = jsonable(e)
		}
		return m
	case []any:
		for i, e := range t {
			t[i] = jsonable(e)
		}
		return t
	}
	return v
}

// stringList accepts a YAML list or a single (comma-separated) string.
func stringList(v any) []string {
	var out []string
	switch t := v.(type) {
	case string:
		for _, s := range strings.Split(t, ",") {
			if s = strings.TrimSpace(s); s != "" {
				out = append(out, s)
			}
		}
	case []any:
		for _, e := range t {
			if e == nil {
				continue
			}
			if s := strings.TrimSpace(fmt.Sprint(e)); s != "" {
				out = append(out, s)
			}
		}
	}
	return out
}
