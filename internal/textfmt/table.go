package textfmt

import (
	"io"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/tw"
)

// NewTable returns a table that lays out header and rows with the given
// renderer: headers as given (tablewriter v1 title-cases them otherwise, and
// metric names are lower case on purpose), no wrapping, the right columns
// right-aligned and the others left-aligned.
func NewTable(w io.Writer, header []string, right []int, r tw.Renderer) *tablewriter.Table {
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
