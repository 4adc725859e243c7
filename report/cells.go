package report

import (
	"math"

	"github.com/ibreport/ibreport/metrics"
)

// valueCell is the cell of a value printed with the given decimals: the
// text, and the number with its unit or why it is NA. A cell whose text is
// "NA" gets the NA band.
func valueCell(v metrics.Value, digits int) Cell {
	return valueCellText(v, v.Format(digits))
}

// valueCellText is valueCell with the text already printed.
func valueCellText(v metrics.Value, text string) Cell {
	c := Cell{Text: text, Unit: string(v.Unit)}
	switch {
	case !v.OK():
		c.NA = v.Why
	case !math.IsInf(v.V, 0) && !math.IsNaN(v.V):
		x := v.V
		c.Value = &x
	}
	if text == "NA" {
		c.Band = NotANumber
	}
	return c
}

// textCell is a cell of text that is not a number of the model (a user's
// column); "NA" gets the NA band.
func textCell(s string) Cell {
	c := Cell{Text: s}
	if s == "NA" {
		c.Band = NotANumber
	}
	return c
}

// nameCell is a cell that names something.
func nameCell(s string) Cell { return Cell{Text: s} }

func header(cols ...string) []string { return append([]string{"dbms"}, cols...) }
