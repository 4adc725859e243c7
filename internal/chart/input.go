package chart

// Chart is what one chart draws: the caller converts its own model into it,
// so that this package depends on nothing of the module but the decimation
// rule of metrics. Missing values are NaN.
type Chart struct {
	ID         string
	Kind       string // "bar" or "line"
	Title      string
	XLabel     string
	YLabel     string
	Categories []string // bar charts: a row each
	Series     []Series
	// Panels draws each series of a bar chart in a panel of its own, with
	// its own scale and unit.
	Panels bool
	// Reference, when not 0, is drawn as a dashed line; a line chart's y
	// axis then spans at least ±10% around it.
	Reference float64
	// Band, with a Reference, shades a line chart's values within Band of
	// it (relative: 0.05 for ±5%), the materiality floor.
	Band float64
	// Marks are x values to mark with a thin line; MarkSeries, when set,
	// has for each mark the index of the series whose colour it takes.
	Marks      []float64
	MarkSeries []int
	// XTicks, when set, are the x values to label instead of evenly spaced
	// ones; XLabels, when set, name them.
	XTicks  []float64
	XLabels []string
	// Levels are horizontal segments of a line chart.
	Levels []Level
}

// Series is one named series of a chart.
type Series struct {
	Name   string
	Unit   string    // of a panel's axis
	Values []float64 // bar charts: one per category
	Points []Point   // line charts
}

// Point is one point of a line chart; Err, when above 0, is the half-width
// of an error bar around Y.
type Point struct {
	X, Y, Err float64
}

// Level is a horizontal segment of a line chart from X0 to X1 at Y.
type Level struct {
	X0, X1, Y float64
}

// hasData reports whether a chart has a finite value to draw.
func (c *Chart) hasData() bool {
	if c == nil {
		return false
	}
	for _, s := range c.Series {
		for _, v := range s.Values {
			if finite(v) {
				return true
			}
		}
		for _, p := range s.Points {
			if finite(p.Y) {
				return true
			}
		}
	}
	return false
}
