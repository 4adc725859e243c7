package diff

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// Write writes a comparison in the chosen format.
func Write(w io.Writer, c *Comparison, r WriteOptions) error {
	switch r.Format {
	case "", "text":
		return writeDiffText(w, c, r)
	case "md":
		return writeDiffMarkdown(w, c, r)
	case "json":
		return writeDiffJSON(w, c, r)
	case "github":
		return writeDiffGitHub(w, c, r)
	}
	return fmt.Errorf("unknown format %q; want one of %s", r.Format, strings.Join(Formats, ", "))
}

// diffColumns are the columns of the findings table of text and md.
var diffColumns = []string{"verdict", "table", "step", "dbms", "metric", "base", "new", "delta", "note"}

// listed returns the findings a report lists.
func listed(c *Comparison, all bool) []Finding {
	var out []Finding
	for _, f := range c.Findings {
		if all || f.Notable {
			out = append(out, f)
		}
	}
	return out
}

// findingCells are the cells of one finding in diffColumns order.
func findingCells(f Finding) []string {
	return []string{verdictLabel(f.Verdict), f.Table, f.Step, f.DBMS, f.Metric,
		sideText(f.Base, f.Metric != ""), sideText(f.New, f.Metric != ""), deltaText(f.Delta), noteText(f)}
}

func verdictLabel(v Verdict) string {
	switch v {
	case VerdictFail, VerdictWarn:
		return strings.ToUpper(string(v))
	}
	return string(v)
}

// sideText is a side's value: the cell as printed for one run, the median
// (± the larger half-width of its interval, in percent) for several.
func sideText(s Side, cell bool) string {
	switch {
	case !cell || s.Runs == 0:
		return ""
	case s.Runs == 1:
		if t := strings.TrimSpace(s.Texts[0]); t != "" {
			return t
		}
		return `""`
	case len(s.Values) == 0:
		return "NA"
	}
	out := strconv.FormatFloat(s.Median, 'f', s.Decimals, 64)
	if !math.IsNaN(s.Lo) && s.Median != 0 {
		hw := math.Max(s.Hi-s.Median, s.Median-s.Lo) / math.Abs(s.Median) * 100
		if hw < 10 {
			out += fmt.Sprintf(" ±%.1f%%", hw)
		} else {
			out += fmt.Sprintf(" ±%.0f%%", hw)
		}
	}
	return out
}

// deltaText is a relative change as a signed percentage.
func deltaText(d float64) string {
	switch {
	case math.IsNaN(d):
		return ""
	case math.IsInf(d, 1):
		return "+inf%"
	case math.IsInf(d, -1):
		return "-inf%"
	}
	return fmt.Sprintf("%+.2f%%", d*100)
}

// noteText is the note column: the short note, the test result and the
// footnote markers.
func noteText(f Finding) string {
	var parts []string
	if !math.IsNaN(f.PAdj) {
		parts = append(parts, fmt.Sprintf("p=%.3f n=%d+%d", f.PAdj, len(f.Base.Values), len(f.New.Values)))
	}
	if f.Verdict == VerdictFail || f.Verdict == VerdictWarn {
		th := f.Rule.Fail
		if f.Verdict == VerdictWarn {
			th = f.Rule.Warn
		}
		parts = append(parts, fmt.Sprintf("%s is better; %s at %s", f.Rule.Better, f.Verdict, pct(th)))
	}
	if f.Note != "" {
		parts = append(parts, f.Note)
	}
	s := strings.Join(parts, "; ")
	for _, n := range f.Notes {
		s += fmt.Sprintf(" [%d]", n+1)
	}
	return strings.TrimSpace(s)
}

func pct(v float64) string { return strconv.FormatFloat(v*100, 'f', -1, 64) + "%" }

// geomeanCells are the cells of one geomean row: step, DBMS, table, ratio,
// delta, and the number of ratios.
func geomeanCells(g StepGeomean) []string {
	if math.IsNaN(g.Ratio) {
		return []string{g.Step, g.DBMS, g.Table, "n/a", "", "0"}
	}
	return []string{g.Step, g.DBMS, g.Table, fmt.Sprintf("%.4f", g.Ratio), deltaText(g.Ratio - 1), strconv.Itoa(g.N)}
}

var geomeanColumns = []string{"step", "dbms", "table", "NEW/BASE", "delta", "ratios"}

// headline is the first line of text and md reports.
func headline(c *Comparison, strict bool) string {
	return fmt.Sprintf("ibreport diff: %s (%s)", status(c, strict), counts(c))
}

// modeLine says what was compared and how.
func modeLine(c *Comparison) string {
	mode := fmt.Sprintf("one run per side, each change judged against its noise (run-to-run %.1f%% per run)", 100*c.RunNoise)
	if c.Replicated {
		mode = fmt.Sprintf("%d BASE and %d NEW runs, medians; a change is real when a Mann-Whitney U test shows it at alpha %g or every NEW run is beyond every BASE run", len(c.Base), len(c.New), c.Alpha)
	}
	return fmt.Sprintf("BASE %s; NEW %s; tables %s; %s", strings.Join(c.Base, ","), strings.Join(c.New, ","),
		strings.Join(c.Tables, "+"), mode)
}

// hiddenLine says how many comparisons a short report leaves out.
func hiddenLine(c *Comparison, listed int) string {
	if h := len(c.Findings) - listed; h > 0 {
		return fmt.Sprintf("%d of %d comparisons are unremarkable and not listed (--all lists them).", h, len(c.Findings))
	}
	return ""
}
