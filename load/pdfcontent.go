package load

import (
	"errors"
	"math"
	"strings"

	"github.com/ledongthuc/pdf"
)

// A page's content stream, interpreted for its text: each glyph's
// position, advance and size. The parser's own Page.Content does this too,
// but it advances by a byte's width (so every glyph of a composite font,
// the kind browsers and office suites embed, lands on the same spot), and
// it skips form XObjects, where some producers put their text.

// ligatures spells out the Latin ligature glyphs fonts map to one code
// point ("ﬁ"), which a search for the word would not find.
var ligatures = strings.NewReplacer("\ufb00", "ff", "\ufb01", "fi", "\ufb02", "fl", "\ufb03", "ffi", "\ufb04", "ffl", "\ufb05", "st", "\ufb06", "st")

// maxFormDepth bounds form XObjects drawn inside one another.
const maxFormDepth = 8

// errGlyphCap stops a page that draws more glyphs than any real page.
var errGlyphCap = errors.New("too many glyphs on one page")

// mat is an affine matrix [a b c d e f], as PDF writes it.
type mat [6]float64

var identity = mat{1, 0, 0, 1, 0, 0}

// mul is m × n (m applied first).
func (m mat) mul(n mat) mat {
	return mat{
		m[0]*n[0] + m[1]*n[2], m[0]*n[1] + m[1]*n[3],
		m[2]*n[0] + m[3]*n[2], m[2]*n[1] + m[3]*n[3],
		m[4]*n[0] + m[5]*n[2] + n[4], m[4]*n[1] + m[5]*n[3] + n[5],
	}
}

// pdfFont is what the text needs of a font: how to cut a string into
// codes, each code's text and advance (thousandths of an em).
type pdfFont struct {
	enc     pdf.TextEncoding
	twoByte bool
	first   int
	widths  []float64       // simple fonts, from first
	cid     map[int]float64 // composite fonts
	dw      float64         // composite fonts' default width
}

func loadFont(v pdf.Value) *pdfFont {
	f := &pdfFont{}
	pf := pdf.Font{V: v}
	f.enc = pf.Encoder()
	if v.Key("Subtype").Name() == "Type0" {
		f.twoByte = true
		desc := v.Key("DescendantFonts").Index(0)
		f.dw = 1000
		if dw := desc.Key("DW"); dw.Kind() == pdf.Integer || dw.Kind() == pdf.Real {
			f.dw = dw.Float64()
		}
		f.cid = map[int]float64{}
		w := desc.Key("W")
		for i := 0; i+1 < w.Len() && len(f.cid) < 1<<16; {
			c := int(w.Index(i).Int64())
			if next := w.Index(i + 1); next.Kind() == pdf.Array {
				for j := range min(next.Len(), 1<<16) {
					f.cid[c+j] = next.Index(j).Float64()
				}
				i += 2
				continue
			}
			if i+2 >= w.Len() {
				break
			}
			last, wd := int(w.Index(i+1).Int64()), w.Index(i+2).Float64()
			for c2 := c; c2 <= last && c2-c < 1<<16; c2++ {
				f.cid[c2] = wd
			}
			i += 3
		}
		return f
	}
	f.first = int(v.Key("FirstChar").Int64())
	ws := v.Key("Widths")
	for i := range min(ws.Len(), 1<<16) {
		f.widths = append(f.widths, ws.Index(i).Float64())
	}
	return f
}

func (f *pdfFont) width(code int) float64 {
	if f.twoByte {
		if w, ok := f.cid[code]; ok {
			return w
		}
		return f.dw
	}
	if i := code - f.first; i >= 0 && i < len(f.widths) {
		return f.widths[i]
	}
	return 0
}

// textState is the graphics and text state the glyphs depend on.
type textState struct {
	ctm, tm, tlm           mat
	tc, tw, th, tl, tfs, r float64
	font                   *pdfFont
}

// pageText interprets a page's content for its glyphs, in drawing order.
// A damaged stream ends the page where the damage is, keeping what came
// before (the parser panics on it; pageText recovers unless the damage is
// the document's work budget, which must stop everything).
func pageText(p pdf.Page) (out []glyph, err error) {
	defer func() {
		if v := recover(); v != nil {
			if e, ok := v.(error); ok && errors.Is(e, errPDFBudget) {
				panic(v)
			}
			if e, ok := v.(error); ok && errors.Is(e, errGlyphCap) {
				return
			}
			err = pdfDamage(v)
		}
	}()
	if p.V.Kind() != pdf.Dict {
		return nil, nil
	}
	ts := textState{ctm: identity, tm: identity, tlm: identity, th: 1}
	interpretText(p.V.Key("Contents"), p.Resources(), &ts, 0, &out)
	return out, nil
}

// interpretText runs one content stream (a page's, or a form's).
func interpretText(strm, res pdf.Value, g *textState, depth int, out *[]glyph) {
	if strm.Kind() != pdf.Stream && strm.Kind() != pdf.Array {
		return
	}
	fonts := map[string]*pdfFont{}
	var stack []textState
	show := func(s string) {
		f := g.font
		if f == nil || f.enc == nil {
			return
		}
		step := 1
		if f.twoByte {
			step = 2
		}
		for i := 0; i+step <= len(s); i += step {
			raw := s[i : i+step]
			code := int(raw[0])
			if step == 2 {
				code = code<<8 | int(raw[1])
			}
			w0 := f.width(code) / 1000
			trm := mat{g.tfs * g.th, 0, 0, g.tfs, 0, g.r}.mul(g.tm).mul(g.ctm)
			size := math.Hypot(trm[2], trm[3])
			if text := ligatures.Replace(f.enc.Decode(raw)); text != "" {
				if len(*out) >= pdfGlyphsPerPageCap {
					panic(errGlyphCap)
				}
				*out = append(*out, glyph{x: trm[4], y: trm[5], w: w0 * math.Hypot(trm[0], trm[1]), size: size, s: text})
			}
			tx := w0*g.tfs + g.tc
			if step == 1 && raw[0] == ' ' {
				tx += g.tw
			}
			g.tm = mat{1, 0, 0, 1, tx * g.th, 0}.mul(g.tm)
		}
	}
	num := func(args []pdf.Value, i int) float64 {
		if i < len(args) {
			return args[i].Float64()
		}
		return 0
	}
	matOf := func(args []pdf.Value) mat {
		var m mat
		for i := range m {
			m[i] = num(args, i)
		}
		return m
	}
	nextLine := func() {
		g.tlm = mat{1, 0, 0, 1, 0, -g.tl}.mul(g.tlm)
		g.tm = g.tlm
	}
	pdf.Interpret(strm, func(stk *pdf.Stack, op string) {
		args := make([]pdf.Value, stk.Len())
		for i := len(args) - 1; i >= 0; i-- {
			args[i] = stk.Pop()
		}
		switch op {
		case "q":
			if len(stack) < 1024 {
				stack = append(stack, *g)
			}
		case "Q":
			if n := len(stack); n > 0 {
				*g, stack = stack[n-1], stack[:n-1]
			}
		case "cm":
			g.ctm = matOf(args).mul(g.ctm)
		case "BT":
			g.tm, g.tlm = identity, identity
		case "Tc":
			g.tc = num(args, 0)
		case "Tw":
			g.tw = num(args, 0)
		case "Tz":
			g.th = num(args, 0) / 100
		case "TL":
			g.tl = num(args, 0)
		case "Ts":
			g.r = num(args, 0)
		case "Tf":
			if len(args) < 2 {
				return
			}
			name := args[0].Name()
			f, ok := fonts[name]
			if !ok {
				f = loadFont(res.Key("Font").Key(name))
				fonts[name] = f
			}
			g.font, g.tfs = f, num(args, 1)
		case "Td", "TD":
			if op == "TD" {
				g.tl = -num(args, 1)
			}
			g.tlm = mat{1, 0, 0, 1, num(args, 0), num(args, 1)}.mul(g.tlm)
			g.tm = g.tlm
		case "Tm":
			g.tm = matOf(args)
			g.tlm = g.tm
		case "T*":
			nextLine()
		case "Tj":
			if len(args) > 0 {
				show(args[0].RawString())
			}
		case "'":
			nextLine()
			if len(args) > 0 {
				show(args[0].RawString())
			}
		case "\"":
			if len(args) == 3 {
				g.tw, g.tc = num(args, 0), num(args, 1)
				nextLine()
				show(args[2].RawString())
			}
		case "TJ":
			if len(args) == 0 {
				return
			}
			a := args[0]
			for i := range a.Len() {
				x := a.Index(i)
				if x.Kind() == pdf.String {
					show(x.RawString())
				} else {
					g.tm = mat{1, 0, 0, 1, -x.Float64() / 1000 * g.tfs * g.th, 0}.mul(g.tm)
				}
			}
		case "Do":
			if len(args) == 0 || depth >= maxFormDepth {
				return
			}
			xo := res.Key("XObject").Key(args[0].Name())
			if xo.Kind() != pdf.Stream || xo.Key("Subtype").Name() != "Form" {
				return
			}
			saved := *g
			if m := xo.Key("Matrix"); m.Len() == 6 {
				var fm mat
				for i := range fm {
					fm[i] = m.Index(i).Float64()
				}
				g.ctm = fm.mul(g.ctm)
			}
			fres := xo.Key("Resources")
			if fres.Kind() != pdf.Dict {
				fres = res
			}
			interpretText(xo, fres, g, depth+1, out)
			*g = saved
		}
	})
}
