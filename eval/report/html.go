// Package report renders an evaluation report ([eval.Report]) as a
// self-contained HTML page with inline SVG plots. It lives apart from
// package eval so that measuring links no plotting library.
package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"

	"github.com/oraculo/oraculo/eval"
)

// WriteHTML writes a self-contained HTML page for the report: inline CSS
// and inline SVG plots, no script and no external resource. lang is "es"
// or "en" ("" means "en"); every visible label and heading is in that
// language, while the report's own text (names, questions) is shown as is.
func WriteHTML(w io.Writer, r *eval.Report, lang string) error {
	if r == nil {
		return errors.New("no report to write")
	}
	switch lang {
	case "":
		lang = "en"
	case "en", "es":
	default:
		return fmt.Errorf("unsupported report language %q (es, en)", lang)
	}
	var buf bytes.Buffer
	if err := htmlPageTemplate.Execute(&buf, buildHTMLPage(r, lang)); err != nil {
		return fmt.Errorf("rendering HTML report: %w", err)
	}
	_, err := buf.WriteTo(w)
	return err
}

// WriteDir creates dir if needed and writes dir/index.html (the page of
// WriteHTML) and dir/report.json ([eval.Report.WriteJSON], which
// [eval.LoadReport] reads back); it returns the path of index.html.
func WriteDir(dir string, r *eval.Report, lang string) (string, error) {
	var buf bytes.Buffer
	if err := WriteHTML(&buf, r, lang); err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("creating report directory: %w", err)
	}
	index := filepath.Join(dir, "index.html")
	if err := os.WriteFile(index, buf.Bytes(), 0o644); err != nil {
		return "", fmt.Errorf("writing report %q: %w", index, err)
	}
	if err := r.WriteJSON(filepath.Join(dir, "report.json")); err != nil {
		return "", err
	}
	return index, nil
}

// htmlLabels are the visible words of the page and plots in one language. The
// fields ending in a format verb take the arguments their comment names.
type htmlLabels struct {
	Title, Golden, Index, Depth, Date, Questions         string
	Total, Answerable, Unanswerable, ByKind, Settings    string
	ANNLabel, ANN, ANNNotInUse                           string
	SummaryHeading, SummaryIntro, BestNote               string
	Configuration, Mode, ModeChunk, ModeNote             string
	Coverage8, Coverage50                                string
	KindHeading                                          string // final config
	KindIntro, Kind, QuestionsCol, AllKinds              string
	PlotsHeading, Empty, PlotFailed                      string
	FigRecallTitle, FigRecallCaption, FigRecallContext   string // caption: k; context: 8
	FigHistTitle, FigHistCaption                         string // title: config; caption: config, k
	FigKindTitle, FigKindCaption, FigKindShallow         string // shallow: k, k
	AxisRecallK, AxisFirstRank, AxisQuestions            string
	AxisRecall8, BinNone                                 string
	LatencyHeading, Stage, Median, P95, Count, NoLatency string
	MissesHeading, MissesIntro, MissesExplain, NoMisses  string // intro: config, n; explain: k; none: config
	ID, Question, RankIn, PathOnly, FileRank, NotFound   string // rank in: config; path only: path
	Footer                                               string
	Kinds                                                map[string]string
}

func (l *htmlLabels) kind(k string) string {
	if s, ok := l.Kinds[k]; ok {
		return s
	}
	return k
}

var htmlLabelsEN = &htmlLabels{
	Title: "Retrieval evaluation", Golden: "Golden set", Index: "Index", Depth: "Depth k", Date: "Date",
	Questions: "Questions", Total: "total", Answerable: "answerable", Unanswerable: "unanswerable",
	ByKind: "By kind", Settings: "Index settings",
	ANNLabel:       "Approximate vs exact",
	ANN:            "%s: recall@%d %.3f against exact vector search over %d questions (%s, %d vectors)",
	ANNNotInUse:    "; at this size search scans exactly",
	SummaryHeading: "Summary",
	SummaryIntro: "Every configuration in both counting modes: chunk counts every chunk; one slot per note counts only " +
		"the first chunk of each note, so that configurations with different chunk sizes compare.",
	BestNote:      "Bold: the best value of the column within its mode.",
	Configuration: "Configuration", Mode: "Mode", ModeChunk: "chunk", ModeNote: "one slot per note",
	Coverage8: "coverage@8", Coverage50: "coverage@50",
	KindHeading: "By kind of question: %s",
	KindIntro:   "The last configuration, chunk mode.",
	Kind:        "Kind", QuestionsCol: "Questions", AllKinds: "all",
	PlotsHeading: "Plots", Empty: "No data to plot.", PlotFailed: "The plot could not be drawn: %s",
	FigRecallTitle:   "Recall@k by configuration",
	FigRecallCaption: "Share of answerable questions whose first relevant chunk came back within the first k, for k from 1 to %d (chunk mode).",
	FigRecallContext: " The dotted line marks k = %d, the chunks the model sees.",
	FigHistTitle:     "Rank of the first relevant chunk: %s",
	FigHistCaption:   "How many questions had their first relevant chunk at each rank in %s (chunk mode); “none”: not within the first %d.",
	FigKindTitle:     "Recall@8 by kind of question",
	FigKindCaption:   "Recall@8 for each kind of question and configuration (chunk mode).",
	FigKindShallow:   " The depth is k = %d, below 8, so these bars count only the first %d.",
	AxisRecallK:      "recall@k", AxisFirstRank: "rank of the first relevant chunk", AxisQuestions: "questions",
	AxisRecall8: "recall@8", BinNone: "none",
	LatencyHeading: "Latency", Stage: "Stage", Median: "median (ms)", P95: "p95 (ms)", Count: "samples",
	NoLatency:     "No latency was recorded.",
	MissesHeading: "Misses",
	MissesIntro:   "Questions that %s did not rank first: %d.",
	MissesExplain: "Rank is where the gold source did come back: “not found” is a retrieval failure (it never came back within the first %d), " +
		"a number is a ranking failure (found, but that low); file rank is where the first chunk of a source's note came back, relevant or not.",
	NoMisses: "None: %s ranked a relevant chunk first for every answerable question.",
	ID:       "ID", Question: "Question", RankIn: "Rank in %s", PathOnly: "%s alone", FileRank: "File rank",
	NotFound: "not found",
	Footer:   "Generated by Oráculo.",
	Kinds: map[string]string{
		eval.KindSingle: "single", eval.KindMulti: "multi", eval.KindParaphrase: "paraphrase", eval.KindUnanswerable: "unanswerable",
	},
}

var htmlLabelsES = &htmlLabels{
	Title: "Evaluación de recuperación", Golden: "Conjunto de referencia", Index: "Índice", Depth: "Profundidad k",
	Date: "Fecha", Questions: "Preguntas", Total: "total", Answerable: "con respuesta", Unanswerable: "sin respuesta",
	ByKind: "Por tipo", Settings: "Ajustes del índice",
	ANNLabel:       "Aproximada frente a exacta",
	ANN:            "%s: recall@%d %.3f frente a la búsqueda vectorial exacta en %d preguntas (%s, %d vectores)",
	ANNNotInUse:    "; a este tamaño la búsqueda es exacta",
	SummaryHeading: "Resumen",
	SummaryIntro: "Cada configuración en los dos modos de recuento: por fragmento cuenta cada fragmento; una ranura por nota " +
		"cuenta solo el primer fragmento de cada nota, para comparar configuraciones con fragmentos de distinto tamaño.",
	BestNote:      "En negrita: el mejor valor de la columna dentro de su modo.",
	Configuration: "Configuración", Mode: "Modo", ModeChunk: "fragmento", ModeNote: "una ranura por nota",
	Coverage8: "cobertura@8", Coverage50: "cobertura@50",
	KindHeading: "Por tipo de pregunta: %s",
	KindIntro:   "La última configuración, por fragmento.",
	Kind:        "Tipo", QuestionsCol: "Preguntas", AllKinds: "todas",
	PlotsHeading: "Gráficos", Empty: "No hay datos que representar.", PlotFailed: "No se pudo dibujar el gráfico: %s",
	FigRecallTitle:   "Exhaustividad@k (recall) por configuración",
	FigRecallCaption: "Proporción de preguntas con respuesta cuyo primer fragmento relevante volvió entre los k primeros, para k de 1 a %d (por fragmento).",
	FigRecallContext: " La línea de puntos marca k = %d, los fragmentos que ve el modelo.",
	FigHistTitle:     "Posición del primer fragmento relevante: %s",
	FigHistCaption:   "Cuántas preguntas tuvieron su primer fragmento relevante en cada posición en %s (por fragmento); «ninguno»: no volvió entre los %d primeros.",
	FigKindTitle:     "Exhaustividad@8 por tipo de pregunta",
	FigKindCaption:   "Exhaustividad@8 (recall@8) de cada tipo de pregunta y configuración (por fragmento).",
	FigKindShallow:   " La profundidad es k = %d, menor que 8: estas barras solo cuentan los %d primeros.",
	AxisRecallK:      "exhaustividad@k", AxisFirstRank: "posición del primer fragmento relevante", AxisQuestions: "preguntas",
	AxisRecall8: "exhaustividad@8", BinNone: "ninguno",
	LatencyHeading: "Latencia", Stage: "Etapa", Median: "mediana (ms)", P95: "p95 (ms)", Count: "muestras",
	NoLatency:     "No se registró latencia.",
	MissesHeading: "Fallos",
	MissesIntro:   "Preguntas en las que %s no puso la fuente en primer lugar: %d.",
	MissesExplain: "La posición es donde sí volvió la fuente correcta: «no encontrado» es un fallo de recuperación (no volvió entre los %d primeros) " +
		"y un número es un fallo de ordenación (se encontró, pero más abajo); la posición del archivo es donde volvió el primer fragmento de la nota fuente, sea relevante o no.",
	NoMisses: "Ninguno: %s puso un fragmento relevante en primer lugar en todas las preguntas con respuesta.",
	ID:       "ID", Question: "Pregunta", RankIn: "Posición en %s", PathOnly: "solo %s", FileRank: "Posición del archivo",
	NotFound: "no encontrado",
	Footer:   "Generado por Oráculo.",
	Kinds: map[string]string{
		eval.KindSingle: "simple", eval.KindMulti: "múltiple", eval.KindParaphrase: "paráfrasis", eval.KindUnanswerable: "sin respuesta",
	},
}

// htmlLabelsFor returns the labels of a language, English unless "es".
func htmlLabelsFor(lang string) *htmlLabels {
	if lang == "es" {
		return htmlLabelsES
	}
	return htmlLabelsEN
}

// The page model: every string already formatted, escaped by the template.
type (
	htmlPage struct {
		L                     *htmlLabels
		Lang                  string
		Golden, Index         string
		K                     int
		Date, DateISO         string
		Questions, Answerable int
		Unanswerable          int
		Kinds                 []htmlKindCount
		Settings              string
		ANN                   string
		Summary               []htmlSummaryGroup
		ShowBest              bool
		Final                 string
		KindRows              []htmlKindRow
		Figures               []htmlFigure
		Latency               []htmlLatencyRow
		MissPaths             []string
		Misses                []htmlMissRow
		MissesIntro           string
		MissesExplain         string
		NoMisses              string
	}
	htmlKindCount struct {
		Label string
		N     int
	}
	htmlCell struct {
		Text     string
		Best     bool
		NotFound bool
	}
	htmlSummaryGroup struct {
		Config string
		Color  string
		Rows   []htmlSummaryRow
	}
	htmlSummaryRow struct {
		Mode  string
		Cells []htmlCell
	}
	htmlKindRow struct {
		Kind      string
		Questions int
		All       bool
		Cells     []htmlCell
	}
	htmlFigure struct {
		Title, Caption string
		SVG            template.HTML
		Empty          string
	}
	htmlLatencyRow struct {
		Config, Color, Stage string
		Median, P95          string
		Count                int
	}
	htmlMissRow struct {
		ID, Kind, Question string
		Rank               htmlCell
		ByPath             []htmlCell
		FileRank           htmlCell
	}
)

// htmlRecallCutoffs are the recall columns of the summary table.
var htmlRecallCutoffs = []int{1, 5, 8, 20, 50}

func buildHTMLPage(r *eval.Report, lang string) *htmlPage {
	l := htmlLabelsFor(lang)
	pg := &htmlPage{
		L: l, Lang: lang, Golden: r.Golden, Index: r.Index, K: r.K,
		Questions: r.Questions, Unanswerable: r.Unanswerable, Answerable: r.Questions - r.Unanswerable,
		Date: "—",
	}
	if !r.Created.IsZero() {
		pg.Date = r.Created.UTC().Format("2006-01-02 15:04 UTC")
		pg.DateISO = r.Created.UTC().Format("2006-01-02T15:04:05Z")
	}
	kinds := map[string]bool{}
	for k := range r.Kinds {
		kinds[k] = true
	}
	for _, k := range sortKinds(kinds) {
		pg.Kinds = append(pg.Kinds, htmlKindCount{Label: l.kind(k), N: r.Kinds[k]})
	}
	if a := r.ANN; a != nil {
		pg.ANN = fmt.Sprintf(l.ANN, a.Index, a.K, a.Recall, a.Queries, a.Model, a.Vectors)
		if !a.InUse {
			pg.ANN += l.ANNNotInUse
		}
	}
	if r.Settings != nil {
		if data, err := json.Marshal(r.Settings); err == nil {
			pg.Settings = string(data)
		} else {
			pg.Settings = fmt.Sprint(r.Settings)
		}
	}

	pg.Summary = htmlSummaryTable(r, l)
	for _, g := range pg.Summary {
		for _, row := range g.Rows {
			for _, c := range row.Cells {
				pg.ShowBest = pg.ShowBest || c.Best
			}
		}
	}

	final := reportFinal(r)
	if final != nil {
		pg.Final = final.Name
		pg.KindRows = htmlKindTable(final, l)
	}

	pg.Figures = htmlFigures(r, lang, l)

	for i, c := range r.Configs {
		if c == nil {
			continue
		}
		for _, s := range c.Stages() {
			lat := c.Latency[s]
			pg.Latency = append(pg.Latency, htmlLatencyRow{
				Config: c.Name, Color: plotColorHex(i), Stage: s,
				Median: htmlFmtMS(lat.MedianMS), P95: htmlFmtMS(lat.P95MS), Count: lat.Count,
			})
		}
	}

	pg.MissPaths = htmlMissPaths(r)
	for _, m := range r.Misses {
		row := htmlMissRow{ID: m.ID, Kind: l.kind(m.Kind), Question: m.Question,
			Rank: htmlRankCell(m.Rank, l), FileRank: htmlRankCell(m.FileRank, l)}
		for _, p := range pg.MissPaths {
			if rank, ok := m.ByPath[p]; ok {
				row.ByPath = append(row.ByPath, htmlRankCell(rank, l))
			} else {
				row.ByPath = append(row.ByPath, htmlCell{Text: "—"})
			}
		}
		pg.Misses = append(pg.Misses, row)
	}
	pg.MissesIntro = fmt.Sprintf(l.MissesIntro, pg.Final, len(r.Misses))
	pg.MissesExplain = fmt.Sprintf(l.MissesExplain, r.K)
	pg.NoMisses = fmt.Sprintf(l.NoMisses, pg.Final)
	return pg
}

// htmlSummaryTable has one group per configuration, one row per mode; the best
// value of each column within a mode is marked.
func htmlSummaryTable(r *eval.Report, l *htmlLabels) []htmlSummaryGroup {
	values := func(m eval.Metrics) []float64 {
		var vs []float64
		for _, c := range htmlRecallCutoffs {
			v, ok := m.Recall[c]
			if !ok {
				v = math.NaN()
			}
			vs = append(vs, v)
		}
		return append(vs, m.MRR, m.NDCG10, m.Coverage8, m.Coverage50)
	}
	var groups []htmlSummaryGroup
	var rows [2][][]float64 // per mode, per configuration, per column
	for i, c := range r.Configs {
		if c == nil {
			continue
		}
		chunk, note := values(c.Chunk), values(c.Note)
		rows[0] = append(rows[0], chunk)
		rows[1] = append(rows[1], note)
		groups = append(groups, htmlSummaryGroup{Config: c.Name, Color: plotColorHex(i), Rows: []htmlSummaryRow{
			{Mode: l.ModeChunk, Cells: htmlCells(chunk)},
			{Mode: l.ModeNote, Cells: htmlCells(note)},
		}})
	}
	if len(groups) < 2 {
		return groups
	}
	for mode := range rows {
		for col := range rows[mode][0] {
			best := math.Inf(-1)
			for _, vs := range rows[mode] {
				if !math.IsNaN(vs[col]) {
					best = math.Max(best, vs[col])
				}
			}
			// Equal when they print the same; no mark when all tie.
			var at []int
			for g, vs := range rows[mode] {
				if !math.IsInf(best, 0) && htmlFmt3(vs[col]) == htmlFmt3(best) {
					at = append(at, g)
				}
			}
			if len(at) < len(rows[mode]) {
				for _, g := range at {
					groups[g].Rows[mode].Cells[col].Best = true
				}
			}
		}
	}
	return groups
}

// htmlKindTable is the per-kind table of one configuration, chunk mode, with
// a last row for all kinds together.
func htmlKindTable(c *eval.Result, l *htmlLabels) []htmlKindRow {
	row := func(m eval.Metrics) []htmlCell {
		return htmlCells([]float64{metricsRecallAt(m, 1), metricsRecallAt(m, eval.ContextSize), metricsRecallAt(m, 50), m.MRR, m.Coverage8})
	}
	present := map[string]bool{}
	for k := range c.ByKind {
		present[k] = true
	}
	var out []htmlKindRow
	for _, k := range sortKinds(present) {
		m := c.ByKind[k].Chunk
		out = append(out, htmlKindRow{Kind: l.kind(k), Questions: m.Questions, Cells: row(m)})
	}
	return append(out, htmlKindRow{Kind: l.AllKinds, Questions: c.Chunk.Questions, All: true, Cells: row(c.Chunk)})
}

func metricsRecallAt(m eval.Metrics, k int) float64 {
	if v, ok := m.Recall[k]; ok {
		return v
	}
	return math.NaN()
}

func htmlFigures(r *eval.Report, lang string, l *htmlLabels) []htmlFigure {
	recall := htmlFigure{Title: l.FigRecallTitle, Caption: fmt.Sprintf(l.FigRecallCaption, r.K)}
	if r.K >= eval.ContextSize {
		recall.Caption += fmt.Sprintf(l.FigRecallContext, eval.ContextSize)
	}
	final := "—"
	if f := reportFinal(r); f != nil {
		final = f.Name
	}
	hist := htmlFigure{Title: fmt.Sprintf(l.FigHistTitle, final), Caption: fmt.Sprintf(l.FigHistCaption, final, r.K)}
	kind := htmlFigure{Title: l.FigKindTitle, Caption: l.FigKindCaption}
	if r.K > 0 && r.K < eval.ContextSize {
		kind.Caption += fmt.Sprintf(l.FigKindShallow, r.K, r.K)
	}
	figs := []htmlFigure{recall, hist, kind}
	draws := []func(*eval.Report, string) ([]byte, error){recallCurveSVG, rankHistogramSVG, kindRecallSVG}
	for i, draw := range draws {
		svg, err := draw(r, lang)
		switch {
		case errors.Is(err, errNoPlotData):
			figs[i].Empty = l.Empty
		case err != nil:
			figs[i].Empty = fmt.Sprintf(l.PlotFailed, err)
		default:
			// Generated here from the report's numbers; gonum escapes the
			// text it draws (configuration names, labels).
			figs[i].SVG = template.HTML(svg)
		}
	}
	return figs
}

// htmlMissPaths are the single paths of the misses' ranks, in the order of
// their configurations, then any other by name.
func htmlMissPaths(r *eval.Report) []string {
	seen := map[string]bool{}
	for _, m := range r.Misses {
		for p := range m.ByPath {
			seen[p] = true
		}
	}
	var out []string
	for _, c := range r.Configs {
		if c != nil && len(c.Paths) == 1 && seen[c.Paths[0]] {
			out = append(out, c.Paths[0])
			delete(seen, c.Paths[0])
		}
	}
	var rest []string
	for p := range seen {
		rest = append(rest, p)
	}
	sort.Strings(rest)
	return append(out, rest...)
}

func htmlRankCell(rank int, l *htmlLabels) htmlCell {
	if rank <= 0 {
		return htmlCell{Text: l.NotFound, NotFound: true}
	}
	return htmlCell{Text: strconv.Itoa(rank)}
}

func htmlCells(vs []float64) []htmlCell {
	out := make([]htmlCell, len(vs))
	for i, v := range vs {
		out[i] = htmlCell{Text: htmlFmt3(v)}
	}
	return out
}

func htmlFmt3(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "—"
	}
	return strconv.FormatFloat(v, 'f', 3, 64)
}

func htmlFmtMS(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "—"
	}
	return strconv.FormatFloat(v, 'f', 2, 64)
}

// plotColorHex is the configuration's plot colour for the tables' swatches.
func plotColorHex(i int) string {
	c := plotColor(i)
	return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B)
}

var htmlPageTemplate = template.Must(template.New("report").Parse(htmlPageSource))

const htmlPageSource = `<!DOCTYPE html>
<html lang="{{.Lang}}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.L.Title}}</title>
<style>
:root{color-scheme:light;--fg:#1b1b1b;--muted:#575757;--line:#dcdcdc;--alt:#f4f5f7}
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:var(--fg);background:#fff}
main{max-width:62rem;margin:0 auto;padding:1rem}
h1{font-size:1.6rem;line-height:1.2;margin:.5rem 0 1rem}
h2{font-size:1.25rem;margin:2.2rem 0 .6rem;padding-bottom:.25rem;border-bottom:1px solid var(--line)}
p{margin:.4rem 0}
.note{color:var(--muted);font-size:.9rem}
dl.meta{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem;margin:0}
dl.meta dt{font-weight:600}
dl.meta dd{margin:0;min-width:0;overflow-wrap:anywhere}
ul.kinds{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:.2rem 1rem}
code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.88em;overflow-wrap:anywhere}
.scroll{overflow-x:auto;-webkit-overflow-scrolling:touch;margin:.6rem 0}
table{border-collapse:collapse;font-size:.9rem;min-width:100%}
th,td{padding:.35rem .6rem;border-bottom:1px solid var(--line);text-align:left;vertical-align:top}
thead th{background:var(--alt);white-space:nowrap}
tbody th{font-weight:600;white-space:nowrap}
.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
td.q{min-width:16rem}
tr.all td,tr.all th{border-top:2px solid var(--line);font-weight:600}
.best{font-weight:700}
.nf{color:#a1262b;white-space:nowrap}
.sw{display:inline-block;width:.75em;height:.75em;border-radius:2px;margin-right:.45em}
figure{margin:1.6rem 0}
figure svg{display:block;width:100%;height:auto;max-width:42rem}
figcaption{font-size:.9rem;color:var(--muted);margin-top:.4rem;max-width:42rem}
figcaption strong{color:var(--fg)}
.empty{max-width:42rem;padding:2.5rem 1rem;text-align:center;border:1px dashed var(--line);color:var(--muted)}
footer{margin-top:2.5rem;color:var(--muted);font-size:.8rem}
@media (max-width:34rem){main{padding:.75rem}dl.meta{grid-template-columns:1fr;gap:0}dl.meta dd{margin-bottom:.5rem}}
</style>
</head>
<body>
<main>
<header>
<h1>{{.L.Title}}</h1>
<dl class="meta">
<dt>{{.L.Golden}}</dt><dd><code>{{.Golden}}</code></dd>
<dt>{{.L.Index}}</dt><dd><code>{{.Index}}</code></dd>
<dt>{{.L.Depth}}</dt><dd>{{.K}}</dd>
<dt>{{.L.Date}}</dt><dd>{{if .DateISO}}<time datetime="{{.DateISO}}">{{.Date}}</time>{{else}}{{.Date}}{{end}}</dd>
<dt>{{.L.Questions}}</dt><dd>{{.Questions}} {{.L.Total}} · {{.Answerable}} {{.L.Answerable}} · {{.Unanswerable}} {{.L.Unanswerable}}</dd>
{{- if .Kinds}}
<dt>{{.L.ByKind}}</dt><dd><ul class="kinds">{{range .Kinds}}<li>{{.Label}}: {{.N}}</li>{{end}}</ul></dd>
{{- end}}
{{- if .Settings}}
<dt>{{.L.Settings}}</dt><dd><code>{{.Settings}}</code></dd>
{{- end}}
{{- if .ANN}}
<dt>{{.L.ANNLabel}}</dt><dd>{{.ANN}}</dd>
{{- end}}
</dl>
</header>

<section>
<h2>{{.L.SummaryHeading}}</h2>
<p class="note">{{.L.SummaryIntro}}{{if .ShowBest}} {{.L.BestNote}}{{end}}</p>
<div class="scroll">
<table>
<thead><tr><th scope="col">{{.L.Configuration}}</th><th scope="col">{{.L.Mode}}</th><th scope="col" class="n">R@1</th><th scope="col" class="n">R@5</th><th scope="col" class="n">R@8</th><th scope="col" class="n">R@20</th><th scope="col" class="n">R@50</th><th scope="col" class="n">MRR@50</th><th scope="col" class="n">nDCG@10</th><th scope="col" class="n">{{.L.Coverage8}}</th><th scope="col" class="n">{{.L.Coverage50}}</th></tr></thead>
{{- range .Summary}}{{$g := .}}
<tbody>
{{- range $i, $row := .Rows}}
<tr>{{if eq $i 0}}<th scope="rowgroup" rowspan="{{len $g.Rows}}"><span class="sw" style="background-color:{{$g.Color}}"></span>{{$g.Config}}</th>{{end}}<td>{{$row.Mode}}</td>{{range $row.Cells}}<td class="n{{if .Best}} best{{end}}">{{.Text}}</td>{{end}}</tr>
{{- end}}
</tbody>
{{- end}}
</table>
</div>
</section>
{{if .KindRows}}
<section>
<h2>{{printf .L.KindHeading .Final}}</h2>
<p class="note">{{.L.KindIntro}}</p>
<div class="scroll">
<table>
<thead><tr><th scope="col">{{.L.Kind}}</th><th scope="col" class="n">{{.L.QuestionsCol}}</th><th scope="col" class="n">R@1</th><th scope="col" class="n">R@8</th><th scope="col" class="n">R@50</th><th scope="col" class="n">MRR</th><th scope="col" class="n">{{.L.Coverage8}}</th></tr></thead>
<tbody>
{{- range .KindRows}}
<tr{{if .All}} class="all"{{end}}><th scope="row">{{.Kind}}</th><td class="n">{{.Questions}}</td>{{range .Cells}}<td class="n">{{.Text}}</td>{{end}}</tr>
{{- end}}
</tbody>
</table>
</div>
</section>
{{end}}
<section>
<h2>{{.L.PlotsHeading}}</h2>
{{- range .Figures}}
<figure>
{{if .SVG}}{{.SVG}}{{else}}<div class="empty" role="img" aria-label="{{.Title}}">{{.Empty}}</div>{{end}}
<figcaption><strong>{{.Title}}.</strong> {{.Caption}}</figcaption>
</figure>
{{- end}}
</section>

<section>
<h2>{{.L.LatencyHeading}}</h2>
{{if .Latency -}}
<div class="scroll">
<table>
<thead><tr><th scope="col">{{.L.Configuration}}</th><th scope="col">{{.L.Stage}}</th><th scope="col" class="n">{{.L.Median}}</th><th scope="col" class="n">{{.L.P95}}</th><th scope="col" class="n">{{.L.Count}}</th></tr></thead>
<tbody>
{{- range .Latency}}
<tr><th scope="row"><span class="sw" style="background-color:{{.Color}}"></span>{{.Config}}</th><td><code>{{.Stage}}</code></td><td class="n">{{.Median}}</td><td class="n">{{.P95}}</td><td class="n">{{.Count}}</td></tr>
{{- end}}
</tbody>
</table>
</div>
{{- else -}}
<p class="note">{{.L.NoLatency}}</p>
{{- end}}
</section>

<section>
<h2>{{.L.MissesHeading}}</h2>
{{if .Misses -}}
<p>{{.MissesIntro}}</p>
<p class="note">{{.MissesExplain}}</p>
<div class="scroll">
<table>
<thead><tr><th scope="col">{{.L.ID}}</th><th scope="col">{{.L.Kind}}</th><th scope="col">{{.L.Question}}</th><th scope="col" class="n">{{printf .L.RankIn .Final}}</th>{{range .MissPaths}}<th scope="col" class="n">{{printf $.L.PathOnly .}}</th>{{end}}<th scope="col" class="n">{{.L.FileRank}}</th></tr></thead>
<tbody>
{{- range .Misses}}
<tr><td><code>{{.ID}}</code></td><td>{{.Kind}}</td><td class="q">{{.Question}}</td>{{with .Rank}}<td class="n{{if .NotFound}} nf{{end}}">{{.Text}}</td>{{end}}{{range .ByPath}}<td class="n{{if .NotFound}} nf{{end}}">{{.Text}}</td>{{end}}{{with .FileRank}}<td class="n{{if .NotFound}} nf{{end}}">{{.Text}}</td>{{end}}</tr>
{{- end}}
</tbody>
</table>
</div>
{{- else -}}
<p>{{.NoMisses}}</p>
{{- end}}
</section>

<footer><p>{{.L.Footer}}</p></footer>
</main>
</body>
</html>
`
