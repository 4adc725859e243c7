package report

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"

	"github.com/ibreport/ibreport/metrics"
)

// newTextTable returns a borderless table with a rule under the header.
// Note: tablewriter v1 title-cases headers unless told not to, and metric
// names are lower case on purpose.
func newTextTable(w io.Writer, header []string, right []int) *tablewriter.Table {
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
		tablewriter.WithRenderer(renderer.NewBlueprint(tw.Rendition{
			Borders: tw.BorderNone,
			Symbols: tw.NewSymbols(tw.StyleASCII),
			Settings: tw.Settings{
				Separators: tw.Separators{BetweenColumns: tw.Off, BetweenRows: tw.Off},
				Lines:      tw.Lines{ShowHeaderLine: tw.On},
			},
		})),
	)
	t.Header(header)
	return t
}

func writeDiffText(w io.Writer, c *metrics.Comparison, r DiffRender) error {
	bw := &bytes.Buffer{}
	fmt.Fprintln(bw, headline(c, r.Strict))
	fmt.Fprintln(bw, modeLine(c))
	fmt.Fprintln(bw)
	rows := listed(c, r.All)
	if len(rows) == 0 {
		fmt.Fprintln(bw, "No notable changes.")
	} else {
		t := newTextTable(bw, diffColumns, []int{5, 6, 7})
		for _, f := range rows {
			if err := t.Append(findingCells(f)); err != nil {
				return err
			}
		}
		if err := t.Render(); err != nil {
			return err
		}
	}
	if h := hiddenLine(c, len(rows)); h != "" {
		fmt.Fprintln(bw, h)
	}
	fmt.Fprintln(bw)
	fmt.Fprintln(bw, "Geometric mean of NEW/BASE throughput ratios (ips qps p50 p99) per step:")
	t := newTextTable(bw, geomeanColumns, []int{2, 3, 4})
	for _, g := range c.Geomeans {
		if err := t.Append(geomeanCells(g)); err != nil {
			return err
		}
	}
	if err := t.Render(); err != nil {
		return err
	}
	if len(c.Notes) > 0 {
		fmt.Fprintln(bw)
		for i, n := range c.Notes {
			fmt.Fprintf(bw, "[%d] %s\n", i+1, n)
		}
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
