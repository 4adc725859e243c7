package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"

	"github.com/ibreport/ibreport/metrics"
)

// WriteText writes the report as plain text: headings, the introduction's
// Markdown source and aligned tables, with markers for the bands.
func WriteText(w io.Writer, r *Report) error {
	bw := bufio.NewWriter(w)
	tw := &textWriter{w: bw}
	tw.heading(r.Title, '=')
	tw.para(strings.TrimSpace(r.Intro))
	if r.Summary != nil {
		tw.heading("Summary", '-')
		tw.table(r.Summary)
		tw.table(r.Relative)
		tw.table(r.InsertRate)
		for _, s := range r.Sections {
			tw.heading(s.Step.Description, '-')
			for _, n := range s.Notes {
				tw.para(n)
			}
			for _, h := range s.Histograms {
				tw.table(h)
			}
			tw.table(s.Metrics)
			tw.table(s.Iostat)
		}
		tw.heading("Metrics of all DBMS", '-')
		for _, t := range r.AllMetrics {
			tw.table(t)
		}
		tw.heading("Response times", '-')
		for _, s := range r.ResponseTimes {
			tw.para(s.Step.Description)
			for _, n := range s.Notes {
				tw.para(n)
			}
			for _, t := range s.Tables {
				tw.table(t)
			}
		}
	}
	if sb := r.Sysbench; sb != nil {
		tw.heading("sysbench", '-')
		for _, n := range sb.Notes {
			tw.para(n)
		}
		tw.table(sb.Load)
		for _, th := range sb.Threads {
			tw.heading("sysbench, "+metrics.Plural(th.Threads, "thread"), '-')
			tw.table(th.Groups)
			tw.table(th.Relative)
			for _, group := range [][]*Table{th.Absolute, th.Efficiency, th.PerQuery} {
				for _, t := range group {
					tw.table(t)
				}
			}
		}
		for _, t := range sb.PrePost {
			tw.table(t)
		}
	}
	tw.heading("Legend", '-')
	legend := &Table{Header: []string{"metric", "meaning"}}
	for _, l := range r.Legend {
		legend.Rows = append(legend.Rows, Row{Cells: []Cell{{Text: l.Name}, {Text: l.Meaning}}})
	}
	tw.table(legend)
	bands := &Table{Header: []string{"band", "marker", "meaning"}}
	for _, b := range r.Bands {
		bands.Rows = append(bands.Rows, Row{Cells: []Cell{{Text: string(b.Band)}, {Text: b.Marker}, {Text: b.Meaning}}})
	}
	tw.table(bands)
	if len(r.Notes) > 0 {
		tw.heading("Notes", '-')
		for _, n := range r.Notes {
			tw.line("- " + n)
		}
	}
	if tw.err != nil {
		return tw.err
	}
	return bw.Flush()
}

type textWriter struct {
	w   *bufio.Writer
	err error
}

func (t *textWriter) line(s string) {
	if t.err == nil {
		_, t.err = t.w.WriteString(s + "\n")
	}
}

func (t *textWriter) heading(s string, under rune) {
	t.line("")
	t.line(s)
	t.line(strings.Repeat(string(under), len([]rune(s))))
	t.line("")
}

func (t *textWriter) para(s string) {
	t.line(s)
	t.line("")
}

// table lays out one table with tablewriter: headers as given (no
// title-casing), numbers right-aligned.
func (t *textWriter) table(tab *Table) {
	if tab == nil || t.err != nil {
		return
	}
	if tab.Title != "" {
		t.line(tab.Title)
	}
	right := make([]int, 0, len(tab.Header))
	for i := 1; i < len(tab.Header); i++ {
		right = append(right, i) // numbers; the DBMS column stays left
	}
	tbl := newTextTable(t.w, tab.Header, right, renderer.NewBlueprint(tw.Rendition{Symbols: tw.NewSymbols(tw.StyleASCII)}))
	for _, r := range tab.Rows {
		if err := tbl.Append(rowTexts(r)); err != nil {
			t.err = fmt.Errorf("table %s: %w", tab.ID, err)
			return
		}
	}
	if err := tbl.Render(); err != nil {
		t.err = fmt.Errorf("table %s: %w", tab.ID, err)
		return
	}
	for _, n := range tab.Notes {
		t.line("  note: " + n)
	}
	t.line("")
}

// newTextTable returns a table that lays out header and rows with the given
// renderer: headers as given (tablewriter v1 title-cases them otherwise, and
// metric names are lower case on purpose), no wrapping, the right columns
// right-aligned and the others left-aligned.
func newTextTable(w io.Writer, header []string, right []int, r tw.Renderer) *tablewriter.Table {
	align := make([]tw.Align, len(header))
	for i := range align {
		align[i] = tw.AlignLeft
	}
	for _, i := range right {
		align[i] = tw.AlignRight
	}
	t := tablewriter.NewTable(w,
		tablewriter.WithHeaderAutoFormat(tw.Off),
		tablewriter.WithHeaderAlignment(tw.AlignLeft),
		tablewriter.WithRowAlignmentConfig(tw.CellAlignment{PerColumn: align}),
		tablewriter.WithRowAutoWrap(tw.WrapNone),
		tablewriter.WithRenderer(r),
	)
	t.Header(header)
	return t
}
