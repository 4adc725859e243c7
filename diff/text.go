package diff

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"

	"github.com/ibreport/ibreport/internal/textfmt"
)

// borderless renders a table without borders and with a rule under the
// header, for the diff's long listings.
func borderless() tw.Renderer {
	return renderer.NewBlueprint(tw.Rendition{
		Borders: tw.BorderNone,
		Symbols: tw.NewSymbols(tw.StyleASCII),
		Settings: tw.Settings{
			Separators: tw.Separators{BetweenColumns: tw.Off, BetweenRows: tw.Off},
			Lines:      tw.Lines{ShowHeaderLine: tw.On},
		},
	})
}

func writeDiffText(w io.Writer, c *Comparison, r WriteOptions) error {
	bw := &bytes.Buffer{}
	fmt.Fprintln(bw, headline(c, r.Strict))
	fmt.Fprintln(bw, modeLine(c))
	fmt.Fprintln(bw)
	for _, p := range problemLines(c) {
		fmt.Fprintln(bw, p)
	}
	if len(c.Problems) > 0 {
		fmt.Fprintln(bw)
	}
	for _, w := range c.Comparability {
		fmt.Fprintln(bw, "Not comparable: "+w)
	}
	if len(c.Comparability) > 0 {
		fmt.Fprintln(bw)
	}
	rows := listed(c, r.All)
	fn := newFootnotes(c, rows)
	if len(rows) == 0 {
		fmt.Fprintln(bw, "No notable changes.")
	} else {
		t := textfmt.NewTable(bw, diffColumns, []int{5, 6, 7}, borderless())
		for _, f := range rows {
			if err := t.Append(findingCells(f, fn)); err != nil {
				return err
			}
		}
		if err := t.Render(); err != nil {
			return err
		}
	}
	if h := hiddenLine(c, rows); h != "" {
		fmt.Fprintln(bw, h)
	}
	fmt.Fprintln(bw)
	gs := changedGeomeans(c, r.All)
	fmt.Fprintln(bw, "Geometric mean of NEW/BASE throughput ratios (ips qps p50 p99) per step and DBMS:")
	if len(gs) > 0 {
		t := textfmt.NewTable(bw, geomeanColumns, []int{3, 4, 5}, borderless())
		for _, g := range gs {
			if err := t.Append(geomeanCells(g)); err != nil {
				return err
			}
		}
		if err := t.Render(); err != nil {
			return err
		}
	}
	if l := geomeanLine(c, len(gs)); l != "" {
		fmt.Fprintln(bw, l)
	}
	if l := fn.lines(); len(l) > 0 {
		fmt.Fprintln(bw)
		fmt.Fprintln(bw, strings.Join(l, "\n"))
	}
	// tablewriter pads the last column; trailing blanks only make diffs of
	// saved reports noisy.
	for line := range strings.Lines(bw.String()) {
		if _, err := io.WriteString(w, strings.TrimRight(line, " \n")+"\n"); err != nil {
			return err
		}
	}
	return nil
}
