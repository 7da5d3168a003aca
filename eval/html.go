package eval

import (
	_ "embed" // the page template
	"fmt"
	"html/template"
	"io"

	"github.com/gameassist/gameassist/tool"
)

//go:embed report.html.tmpl
var pageSource string

var page = template.Must(template.New("report").Funcs(template.FuncMap{
	"mul100": func(f float64) float64 { return f * 100 },
	"deref":  deref,
	"add": func(xs ...float64) float64 {
		sum := 0.0
		for _, x := range xs {
			sum += x
		}
		return sum
	},
}).Parse(pageSource))

// chartRow is one scenario's bars in the chart.
type chartRow struct {
	Name                 string
	Y, LatencyW, TokensW float64
	LatencyMS            float64
	Tokens               int
	Passed               bool
}

// chart lays out the per-scenario bars of latency (sum of its turns) and
// prompt plus completion tokens, each scaled to its own maximum.
type chart struct {
	Width, Height, BarMax, LabelW float64
	Rows                          []chartRow
}

const (
	chartRowH   = 22.0
	chartLabelW = 260.0
	chartBarMax = 280.0
)

func newChart(r Report) chart {
	c := chart{LabelW: chartLabelW, BarMax: chartBarMax, Width: chartLabelW + 2*chartBarMax + 140}
	maxLat, maxTok := 0.0, 0
	for _, sc := range r.Scenarios {
		lat, tok := 0.0, 0
		for _, st := range sc.Steps {
			lat += st.LatencyMS
			tok += st.PromptTokens + st.CompletionTokens
		}
		c.Rows = append(c.Rows, chartRow{Name: tool.Clip(sc.Name, 38), LatencyMS: round2(lat), Tokens: tok, Passed: sc.Passed})
		maxLat, maxTok = max(maxLat, lat), max(maxTok, tok)
	}
	for i := range c.Rows {
		row := &c.Rows[i]
		row.Y = 30 + float64(i)*chartRowH
		if maxLat > 0 {
			row.LatencyW = round2(row.LatencyMS / maxLat * chartBarMax)
		}
		if maxTok > 0 {
			row.TokensW = round2(float64(row.Tokens) / float64(maxTok) * chartBarMax)
		}
	}
	c.Height = 40 + float64(len(c.Rows))*chartRowH
	return c
}

// WriteHTML writes the report as one static page: the summary, a chart of
// latency and tokens per scenario (inline SVG) and every step's outcome.
// It loads nothing from elsewhere.
func (r Report) WriteHTML(w io.Writer) error {
	if err := page.Execute(w, struct {
		Report
		Chart chart
	}{r, newChart(r)}); err != nil {
		return fmt.Errorf("eval: write HTML: %w", err)
	}
	return nil
}
