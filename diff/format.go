package diff

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/ibreport/ibreport/internal/textfmt"
	"github.com/ibreport/ibreport/metrics"
)

// Write writes a comparison in the chosen format, one of Formats (md may
// also be spelled markdown, text txt).
func Write(w io.Writer, c *Comparison, r WriteOptions) error {
	if w == nil {
		return errors.New("diff.Write: nil writer")
	}
	if c == nil {
		return errors.New("diff.Write: no comparison (WriteError writes why there is none)")
	}
	switch textfmt.FormatName(r.Format) {
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

// findingCells are the cells of one finding in diffColumns order, with the
// numbers of its footnotes.
func findingCells(f Finding, fn *footnotes) []string {
	return []string{verdictLabel(shown(f)), f.Table, f.Step, f.DBMS, f.Metric,
		sideText(f.Base, f.Metric != ""), sideText(f.New, f.Metric != ""), deltaText(f.Delta),
		strings.TrimSpace(noteText(f) + fn.marks(f))}
}

// footnotes numbers the notes of a comparison that the listed findings
// refer to, in order of first reference; the other notes are remarks on
// the whole report, printed without a number, so that every number
// printed is referred to.
type footnotes struct {
	num      map[int]int // index into Comparison.Notes → number printed
	numbered []string
	remarks  []string
}

func newFootnotes(c *Comparison, rows []Finding) *footnotes {
	fn := &footnotes{num: map[int]int{}}
	for _, f := range rows {
		for _, i := range f.Notes {
			if _, ok := fn.num[i]; !ok && i >= 0 && i < len(c.Notes) {
				fn.numbered = append(fn.numbered, c.Notes[i])
				fn.num[i] = len(fn.numbered)
			}
		}
	}
	for i, n := range c.Notes {
		if _, ok := fn.num[i]; !ok {
			fn.remarks = append(fn.remarks, n)
		}
	}
	return fn
}

// marks are the footnote markers of a finding: " [1] [2]".
func (fn *footnotes) marks(f Finding) string {
	var s string
	for _, i := range f.Notes {
		if n, ok := fn.num[i]; ok {
			s += fmt.Sprintf(" [%d]", n)
		}
	}
	return s
}

// lines are the footnotes, then the remarks, as the text report prints
// them.
func (fn *footnotes) lines() []string {
	var out []string
	for i, n := range fn.numbered {
		out = append(out, fmt.Sprintf("[%d] %s", i+1, n))
	}
	for _, n := range fn.remarks {
		out = append(out, "Note: "+n)
	}
	return out
}

func verdictLabel(v Verdict) string {
	switch v {
	case VerdictFail, VerdictWarn:
		return strings.ToUpper(string(v))
	}
	return string(v)
}

// valueText prints a cell: the text of its source when it keeps one (an
// archived table), else as the report's tables print it, with the
// column's digits. Cells are printed only here, by the writers.
func valueText(v metrics.Value, digits int) string {
	return v.Format(digits)
}

// sideTexts are the cells of a side as printed, one per run.
func sideTexts(s Side) []string {
	if s.Cells == nil {
		return nil
	}
	out := make([]string, len(s.Cells))
	for i, c := range s.Cells {
		out[i] = valueText(c, s.Digits)
	}
	return out
}

// sideText is a side's value: the cell as printed for one run, the median
// (± the larger half-width of its interval, in percent) for several.
func sideText(s Side, cell bool) string {
	switch {
	case !cell || s.Runs == 0:
		return ""
	case s.Runs == 1:
		if t := strings.TrimSpace(valueText(s.Cells[0], s.Digits)); t != "" {
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

// noteText is the note column without footnote markers: the test result,
// the rule that decided and the short note.
func noteText(f Finding) string {
	var parts []string
	if !math.IsNaN(f.PAdj) {
		parts = append(parts, fmt.Sprintf("p=%.3f n=%d+%d", f.PAdj, len(f.Base.Values), len(f.New.Values)))
	}
	if f.Verdict == VerdictFail || f.Verdict == VerdictWarn {
		// A threshold decided; a lost value says so in its note.
		th := f.Rule.Fail
		if f.Verdict == VerdictWarn {
			th = f.Rule.Warn
		}
		parts = append(parts, fmt.Sprintf("%s is better; %s at %s", f.Rule.Better, f.Verdict, pct(th)))
	}
	if f.Note != "" {
		parts = append(parts, f.Note)
	}
	switch {
	case f.Verdict == VerdictNotComparable && f.Level == LevelFail:
		parts = append(parts, "a gated value NEW lost fails (--allow-na: warns)")
	case f.Verdict == VerdictNotComparable && f.Level == LevelWarn:
		parts = append(parts, "a gated value NEW lost warns (--allow-na)")
	}
	return strings.Join(parts, "; ")
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

// changedGeomeans returns the geometric means a report lists: those whose
// ratio prints other than 1.0000, or that have none, or all of them.
func changedGeomeans(c *Comparison, all bool) []StepGeomean {
	var out []StepGeomean
	for _, g := range c.Geomeans {
		if all || geomeanCells(g)[3] != "1.0000" {
			out = append(out, g)
		}
	}
	return out
}

// geomeanLine says how many geometric means are not listed: "18 of 20
// (step and DBMS) are unchanged (1.0000) and not listed".
func geomeanLine(c *Comparison, listed int) string {
	h := len(c.Geomeans) - listed
	switch {
	case h == 0:
		return ""
	case listed == 0:
		return fmt.Sprintf("NEW/BASE is 1.0000 in all %d rows (step and DBMS).", h)
	}
	return fmt.Sprintf("%d of %d rows (step and DBMS) are unchanged (1.0000) and not listed (--all lists them).", h, len(c.Geomeans))
}

// headline is the first line of text and md reports.
func headline(c *Comparison, strict bool) string {
	return fmt.Sprintf("ibreport diff: %s (%s)", status(c, strict), counts(c))
}

// modeLine says what was compared and how.
func modeLine(c *Comparison) string {
	shape := ""
	if c.RunNoiseDF > 0 {
		shape = fmt.Sprintf(", heavy-tailed: a t of %g degrees of freedom", c.RunNoiseDF)
	}
	mode := fmt.Sprintf("one run per side, each change judged against its noise (run-to-run %.1f%% per run%s%s)", 100*c.RunNoise, shape, perTestNoiseText(c))
	if c.Replicated {
		mode = fmt.Sprintf("%d BASE and %d NEW runs, medians; a change is real when a Mann-Whitney U test shows it at alpha %g or every NEW run is beyond every BASE run", len(c.Base), len(c.New), c.Alpha)
	}
	return fmt.Sprintf("BASE %s; NEW %s; tables %s; %s", strings.Join(c.Base, ","), strings.Join(c.New, ","),
		strings.Join(c.Tables, "+"), mode)
}

// hiddenLine says how many comparisons a short report leaves out, and how
// many of them are cells NA on both sides (counted in the headline's not
// comparable).
func hiddenLine(c *Comparison, listed []Finding) string {
	h := len(c.Findings) - len(listed)
	if h <= 0 {
		return ""
	}
	na := c.Count(VerdictNotComparable)
	for _, f := range listed {
		if f.Verdict == VerdictNotComparable {
			na--
		}
	}
	if na > 0 {
		return fmt.Sprintf("%d of %d comparisons are not listed (--all lists them): %d unremarkable, %s NA on both sides.",
			h, len(c.Findings), h-na, metrics.Plural(na, "cell"))
	}
	return fmt.Sprintf("%d of %d comparisons are unremarkable and not listed (--all lists them).", h, len(c.Findings))
}

// problemLines say what input was missing, for the top of a report that
// exits 2.
func problemLines(c *Comparison) []string {
	var out []string
	for _, p := range c.Problems {
		out = append(out, "Bad input (exit 2): "+p)
	}
	if len(out) > 0 {
		out = append(out, "The rest was compared and is listed below; --allow-missing accepts what is on one side only (a warning when NEW lacks it).")
	}
	return out
}
