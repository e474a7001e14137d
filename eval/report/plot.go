package report

import (
	"bytes"
	"errors"
	"fmt"
	"html"
	"image/color"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/oraculo/oraculo/eval"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// The plots of the HTML report. Each is a pure function of the report and
// the language of its labels, and returns an inline SVG element (no XML
// prolog) or errNoPlotData when there is nothing to draw; gonum/plot panics
// on some empty inputs, so every input is checked before it is handed over.

// errNoPlotData says that a plot has nothing to show; the page shows an
// empty-state message in its place.
var errNoPlotData = errors.New("no data to plot")

const (
	plotWidth  = 480 // points
	plotHeight = 270 // points, without the legend
)

// plotPalette holds the colours of the configurations, in order (Okabe–Ito,
// readable with the common colour-vision deficiencies).
var plotPalette = []color.RGBA{
	{0x00, 0x72, 0xB2, 0xFF}, // blue
	{0xE6, 0x9F, 0x00, 0xFF}, // orange
	{0x00, 0x9E, 0x73, 0xFF}, // bluish green
	{0xCC, 0x79, 0xA7, 0xFF}, // reddish purple
	{0x56, 0xB4, 0xE9, 0xFF}, // sky blue
	{0xD5, 0x5E, 0x00, 0xFF}, // vermilion
	{0x00, 0x00, 0x00, 0xFF}, // black
}

var plotGrey = color.RGBA{0x99, 0x99, 0x99, 0xFF}

// plotColor is the colour of the i-th configuration in every plot.
func plotColor(i int) color.RGBA {
	return plotPalette[((i%len(plotPalette))+len(plotPalette))%len(plotPalette)]
}

// plotDashes tells overlapping curves apart: solid for the first
// configuration, then dash patterns.
func plotDashes(i int) []vg.Length {
	patterns := [][]vg.Length{
		nil,
		{vg.Points(6), vg.Points(2)},
		{vg.Points(2), vg.Points(2)},
		{vg.Points(6), vg.Points(2), vg.Points(2), vg.Points(2)},
		{vg.Points(10), vg.Points(3)},
	}
	return patterns[i%len(patterns)]
}

// recallCurveSVG draws Recall@k for k from 1 to r.K, one line per
// configuration, counted from the outcomes in chunk mode.
func recallCurveSVG(r *eval.Report, lang string) ([]byte, error) {
	if r == nil || r.K < 1 || len(r.Configs) == 0 {
		return nil, errNoPlotData
	}
	l := htmlLabelsFor(lang)
	p := newEvalPlot()
	p.X.Label.Text = "k"
	p.Y.Label.Text = l.AxisRecallK
	p.X.Tick.Marker = plot.TickerFunc(plotIntTicks(true))
	p.Y.Tick.Marker = plot.TickerFunc(plotShareTicks)

	if r.K >= eval.ContextSize {
		// The chunks the model sees, under the curves.
		mark, err := plotter.NewLine(plotter.XYs{{X: eval.ContextSize, Y: 0}, {X: eval.ContextSize, Y: 1}})
		if err != nil {
			return nil, err
		}
		mark.Color = plotGrey
		mark.Width = vg.Points(1)
		mark.Dashes = []vg.Length{vg.Points(1), vg.Points(3)}
		p.Add(mark)
	}
	legend := newPlotLegend()
	drawn := 0
	for i, c := range r.Configs {
		if c == nil || len(c.Outcomes) == 0 {
			continue
		}
		line, points, err := plotter.NewLinePoints(recallCurve(c.Outcomes, r.K))
		if err != nil {
			return nil, fmt.Errorf("recall curve of %q: %w", c.Name, err)
		}
		line.Color = plotColor(i)
		line.Width = vg.Points(2)
		line.Dashes = plotDashes(i)
		p.Add(line)
		if r.K <= 20 {
			// Few points: mark them (a single one has no line).
			points.Color = plotColor(i)
			points.Shape = plotutil.Shape(i)
			points.Radius = vg.Points(3)
			p.Add(points)
			legend.Add(c.Name, line, points)
		} else {
			legend.Add(c.Name, line)
		}
		drawn++
	}
	if drawn == 0 {
		return nil, errNoPlotData
	}
	p.X.Min, p.X.Max = 1, float64(r.K)
	if r.K == 1 {
		p.X.Min, p.X.Max = 0.5, 1.5
	}
	p.Y.Min, p.Y.Max = 0, 1
	return renderSVG(p, &legend, l.FigRecallTitle)
}

// recallCurve is, for k from 1 to depth, the share of outcomes whose first
// relevant chunk has a rank within [1, k].
func recallCurve(os []eval.Outcome, depth int) plotter.XYs {
	at := make([]int, depth+1) // at[k]: outcomes first relevant at rank k
	for _, o := range os {
		if o.Rank >= 1 && o.Rank <= depth {
			at[o.Rank]++
		}
	}
	xys := make(plotter.XYs, depth)
	n, found := float64(len(os)), 0
	for k := 1; k <= depth; k++ {
		found += at[k]
		xys[k-1].X = float64(k)
		if n > 0 {
			xys[k-1].Y = float64(found) / n
		}
	}
	return xys
}

// rankBin is one bar of the rank histogram: ranks lo to hi, or none.
type rankBin struct {
	Label  string
	Lo, Hi int
	Count  int
}

// rankBins counts the ranks of the outcomes into the bins 1, 2, 3, 4–5, 6–8,
// 9–20, 21–50 (more when deeper), cut at the depth, and a last bin for no
// relevant result (rank 0).
func rankBins(os []eval.Outcome, depth int, none string) []rankBin {
	deepest := depth
	for _, o := range os {
		deepest = max(deepest, o.Rank)
	}
	if deepest < 1 {
		deepest = 50
	}
	edges := [][2]int{{1, 1}, {2, 2}, {3, 3}, {4, 5}, {6, 8}, {9, 20}, {21, 50}}
	if deepest > 50 {
		edges = append(edges, [2]int{51, deepest})
	}
	var bins []rankBin
	for _, e := range edges {
		if e[0] > deepest {
			break
		}
		hi := min(e[1], deepest)
		label := strconv.Itoa(e[0])
		if hi > e[0] {
			label += "–" + strconv.Itoa(hi)
		}
		bins = append(bins, rankBin{Label: label, Lo: e[0], Hi: hi})
	}
	bins = append(bins, rankBin{Label: none})
	for _, o := range os {
		for i := range bins {
			b := &bins[i]
			if (o.Rank == 0 && b.Lo == 0) || (o.Rank >= b.Lo && o.Rank <= b.Hi && b.Lo > 0) {
				b.Count++
				break
			}
		}
	}
	return bins
}

// rankHistogramSVG draws how many questions had their first relevant chunk
// at each rank in the last configuration, chunk mode.
func rankHistogramSVG(r *eval.Report, lang string) ([]byte, error) {
	final := reportFinal(r)
	if final == nil || len(final.Outcomes) == 0 {
		return nil, errNoPlotData
	}
	l := htmlLabelsFor(lang)
	bins := rankBins(final.Outcomes, r.K, l.BinNone)
	names := make([]string, len(bins))
	found := make(plotter.Values, len(bins)-1)
	top := 0
	for i, b := range bins {
		names[i] = b.Label
		if i < len(bins)-1 {
			found[i] = float64(b.Count)
		}
		top = max(top, b.Count)
	}
	none := plotter.Values{float64(bins[len(bins)-1].Count)}

	p := newEvalPlot()
	p.X.Label.Text = l.AxisFirstRank
	p.Y.Label.Text = l.AxisQuestions
	p.Y.Tick.Marker = plot.TickerFunc(plotIntTicks(false))
	width := plotBarWidth(len(bins), 1)

	bars, err := plotter.NewBarChart(found, width)
	if err != nil {
		return nil, err
	}
	bars.Color = plotColor(len(r.Configs) - 1)
	bars.LineStyle.Width = 0
	missing, err := plotter.NewBarChart(none, width)
	if err != nil {
		return nil, err
	}
	missing.Color = plotGrey
	missing.LineStyle.Width = 0
	missing.XMin = float64(len(bins) - 1)
	p.Add(bars, missing)

	// The count above each bar.
	counts := plotter.XYLabels{XYs: make(plotter.XYs, len(bins)), Labels: make([]string, len(bins))}
	for i, b := range bins {
		counts.XYs[i] = plotter.XY{X: float64(i), Y: float64(b.Count)}
		counts.Labels[i] = strconv.Itoa(b.Count)
	}
	marks, err := plotter.NewLabels(counts)
	if err != nil {
		return nil, err
	}
	for i := range marks.TextStyle {
		marks.TextStyle[i].Font = plotFont(11)
		marks.TextStyle[i].XAlign = draw.XCenter
	}
	marks.Offset = vg.Point{Y: vg.Points(3)}
	p.Add(marks)

	p.NominalX(names...)
	p.X.Min, p.X.Max = -0.5, float64(len(bins))-0.5
	p.Y.Min, p.Y.Max = 0, math.Max(1, float64(top))*1.12
	return renderSVG(p, nil, fmt.Sprintf(l.FigHistTitle, final.Name))
}

// plotKinds are the kinds present in some configuration's ByKind, in the
// usual order and then any unknown kind by name; unanswerable questions
// are never judged.
func plotKinds(r *eval.Report) []string {
	present := map[string]bool{}
	for _, c := range r.Configs {
		if c == nil {
			continue
		}
		for k := range c.ByKind {
			if k != eval.KindUnanswerable {
				present[k] = true
			}
		}
	}
	return sortKinds(present)
}

// sortKinds sorts a set of kinds: single, multi, paraphrase, unanswerable,
// then the others by name.
func sortKinds(set map[string]bool) []string {
	var out []string
	for _, k := range []string{eval.KindSingle, eval.KindMulti, eval.KindParaphrase, eval.KindUnanswerable} {
		if set[k] {
			out = append(out, k)
		}
	}
	var rest []string
	for k := range set {
		switch k {
		case eval.KindSingle, eval.KindMulti, eval.KindParaphrase, eval.KindUnanswerable:
		default:
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	return append(out, rest...)
}

// kindRecallSVG draws Recall@8 (chunk mode) per kind of question, one bar
// per configuration in each group.
func kindRecallSVG(r *eval.Report, lang string) ([]byte, error) {
	if r == nil || len(r.Configs) == 0 {
		return nil, errNoPlotData
	}
	kinds := plotKinds(r)
	if len(kinds) == 0 {
		return nil, errNoPlotData
	}
	l := htmlLabelsFor(lang)
	names := make([]string, len(kinds))
	for i, k := range kinds {
		names[i] = l.kind(k)
	}

	p := newEvalPlot()
	p.Y.Label.Text = l.AxisRecall8
	p.Y.Tick.Marker = plot.TickerFunc(plotShareTicks)
	n := len(r.Configs)
	width := plotBarWidth(len(kinds), n)
	// Values above the bars when they fit.
	withValues := width >= vg.Points(26)
	var legend *plot.Legend
	if n > 1 {
		lg := newPlotLegend()
		legend = &lg
	}
	for i, c := range r.Configs {
		vs := make(plotter.Values, len(kinds))
		name := ""
		if c != nil {
			name = c.Name
			for j, k := range kinds {
				if v := c.ByKind[k].Chunk.Recall[eval.ContextSize]; !math.IsNaN(v) && !math.IsInf(v, 0) {
					vs[j] = v
				}
			}
		}
		bars, err := plotter.NewBarChart(vs, width)
		if err != nil {
			return nil, err
		}
		bars.Color = plotColor(i)
		bars.LineStyle.Width = 0
		bars.Offset = width * vg.Length(float64(i)-float64(n-1)/2)
		p.Add(bars)
		if legend != nil {
			legend.Add(name, bars)
		}
		if withValues {
			values := plotter.XYLabels{XYs: make(plotter.XYs, len(vs)), Labels: make([]string, len(vs))}
			for j, v := range vs {
				values.XYs[j] = plotter.XY{X: float64(j), Y: v}
				values.Labels[j] = strconv.FormatFloat(v, 'f', 2, 64)
			}
			marks, err := plotter.NewLabels(values)
			if err != nil {
				return nil, err
			}
			for j := range marks.TextStyle {
				marks.TextStyle[j].Font = plotFont(10)
				marks.TextStyle[j].XAlign = draw.XCenter
			}
			marks.Offset = vg.Point{X: bars.Offset, Y: vg.Points(3)}
			p.Add(marks)
		}
	}
	p.NominalX(names...)
	p.X.Min, p.X.Max = -0.5, float64(len(kinds))-0.5
	p.Y.Min, p.Y.Max = 0, 1.08
	return renderSVG(p, legend, l.FigKindTitle)
}

// plotBarWidth fits groups of bars side by side in the data area.
func plotBarWidth(groups, perGroup int) vg.Length {
	area := float64(plotWidth - 70)
	w := area / float64(max(groups, 1)) * 0.75 / float64(max(perGroup, 1))
	return vg.Points(math.Max(2, math.Min(w, 48)))
}

// plotFont is the face of every text in the plots. gonum defaults to Liberation
// Serif; Liberation Sans is metric-compatible with Arial, which the SVG
// names as its first fallback, so the layout holds without embedded fonts.
func plotFont(size float64) font.Font {
	return font.Font{Typeface: "Liberation", Variant: "Sans", Size: vg.Points(size)}
}

func newEvalPlot() *plot.Plot {
	p := plot.New()
	p.Title.TextStyle.Font = plotFont(13)
	p.X.Label.TextStyle.Font = plotFont(12)
	p.Y.Label.TextStyle.Font = plotFont(12)
	p.X.Tick.Label.Font = plotFont(11)
	p.Y.Tick.Label.Font = plotFont(11)
	p.Legend.TextStyle.Font = plotFont(11)
	return p
}

func newPlotLegend() plot.Legend {
	l := plot.NewLegend()
	l.Top, l.Left = true, true
	l.TextStyle.Font = plotFont(11)
	l.Padding = vg.Points(2)
	l.ThumbnailWidth = vg.Points(24)
	return l
}

// plotIntTicks labels integer values only, at most about ten of them; withOne
// also marks 1, the first rank.
func plotIntTicks(withOne bool) func(lo, hi float64) []plot.Tick {
	return func(lo, hi float64) []plot.Tick {
		if math.IsNaN(lo) || math.IsNaN(hi) || math.IsInf(lo, 0) || math.IsInf(hi, 0) {
			return nil
		}
		first, last := math.Ceil(lo), math.Floor(hi)
		if last < first {
			return nil
		}
		step := 1.0
		for mult := 0; (last-first)/step > 10; mult++ {
			step *= []float64{2, 2.5, 2}[mult%3] // 1, 2, 5, 10, 20, 50…
		}
		var ticks []plot.Tick
		if withOne && first <= 1 && last >= 1 && math.Mod(1, step) != 0 {
			ticks = append(ticks, plot.Tick{Value: 1, Label: "1"})
		}
		for v := math.Ceil(first/step) * step; v <= last; v += step {
			ticks = append(ticks, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', 0, 64)})
		}
		return ticks
	}
}

// plotShareTicks marks a share from 0 to 1 every 0.2, with minor ticks every
// 0.1; nothing above 1, the headroom for labels.
func plotShareTicks(lo, hi float64) []plot.Tick {
	var ticks []plot.Tick
	for i := 0; i <= 10; i++ {
		v := float64(i) / 10
		if v < lo || v > hi {
			continue
		}
		label := ""
		if i%2 == 0 {
			label = strconv.FormatFloat(v, 'f', 1, 64)
		}
		ticks = append(ticks, plot.Tick{Value: v, Label: label})
	}
	return ticks
}

// renderSVG draws the plot, with the legend (if any) in a band below it so
// that it never hides data, and returns the SVG element ready to inline.
// A panic inside gonum/plot comes back as an error.
func renderSVG(p *plot.Plot, legend *plot.Legend, title string) (out []byte, err error) {
	defer func() {
		if v := recover(); v != nil {
			out, err = nil, fmt.Errorf("drawing plot: %v", v)
		}
	}()
	var band vg.Length
	if legend != nil {
		band = plotLegendHeight(legend) + vg.Points(12)
	}
	c := vgsvg.New(vg.Points(plotWidth), vg.Points(plotHeight)+band)
	plotLayout(draw.New(c), p, legend, band)
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, err
	}
	return inlineSVG(buf.Bytes(), title), nil
}

// plotLayout draws the plot on the canvas above a band of the given height
// holding the legend.
func plotLayout(dc draw.Canvas, p *plot.Plot, legend *plot.Legend, band vg.Length) {
	p.Draw(draw.Crop(dc, 0, 0, band, 0))
	if legend != nil {
		lc := dc
		lc.Max.Y = lc.Min.Y + band - vg.Points(6)
		lc.Min.X += vg.Points(48)
		legend.Draw(lc)
	}
}

func plotLegendHeight(l *plot.Legend) vg.Length {
	// Rectangle measures the entries against a canvas; only its height
	// matters here, which does not depend on the canvas.
	r := l.Rectangle(draw.Canvas{})
	return r.Max.Y - r.Min.Y
}

var (
	svgProlog     = regexp.MustCompile(`(?s)^\s*<\?xml[^>]*\?>\s*(<!--.*?-->\s*)?`)
	svgFontFamily = regexp.MustCompile(`font-family:([^;"]*)`)
	svgOpen       = regexp.MustCompile(`<svg\b`)
)

// inlineSVG makes gonum's SVG document an element for an HTML page: no XML
// prolog or generator comment, a generic sans-serif fallback after the
// Liberation fonts gonum names (they are not embedded), and an accessible
// name.
func inlineSVG(doc []byte, title string) []byte {
	s := svgProlog.ReplaceAllString(string(doc), "")
	s = svgFontFamily.ReplaceAllStringFunc(s, func(m string) string {
		family := strings.TrimSpace(strings.TrimPrefix(m, "font-family:"))
		if strings.Contains(family, "sans-serif") {
			return m
		}
		generic := "Arial,Helvetica,sans-serif"
		switch low := strings.ToLower(family); {
		case strings.Contains(low, "mono"):
			generic = "'Courier New',monospace"
		case strings.Contains(low, "serif") && !strings.Contains(low, "sans"):
			generic = "'Times New Roman',serif"
		}
		return "font-family:'" + strings.Trim(family, `'`) + "'," + generic
	})
	attrs := `<svg role="img" aria-label="` + html.EscapeString(title) + `"`
	loc := svgOpen.FindStringIndex(s)
	if loc != nil {
		s = s[:loc[0]] + attrs + s[loc[1]:]
	}
	return []byte(s)
}

// reportFinal is r.Final(), nil-safe.
func reportFinal(r *eval.Report) *eval.Result {
	if r == nil {
		return nil
	}
	return r.Final()
}
