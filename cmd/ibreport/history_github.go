package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/ibreport/ibreport/internal/textfmt"
	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/report"
)

// maxHistoryAnnotations is the most error and warning annotations
// writeHistoryGitHub writes: GitHub shows 10 of each kind per step.
const maxHistoryAnnotations = 10

// writeHistoryGitHub writes the verdict of a History report as GitHub
// Actions workflow commands: an error per regression (of NEW, or of NEW
// and the runs before it) and a warning per unconfirmed regression and
// per value NEW lacks, largest drop first, at most maxHistoryAnnotations; one
// warning saying how many more; a notice with the verdict line, which is
// also the last line. The members are folders, so no annotation names a
// file.
func writeHistoryGitHub(w io.Writer, rep *report.Report) error {
	if w == nil || rep == nil {
		return errors.New("nil writer or report")
	}
	if rep.Series == nil || rep.History == nil {
		return fmt.Errorf("not a history report")
	}
	type ann struct {
		cmd, title, msg string
		change          float64
	}
	var anns []ann
	for _, g := range rep.Series.Groups {
		if g.History == nil {
			continue
		}
		for _, r := range g.History.Rows {
			if len(r.Cells) != len(g.History.Header) {
				continue
			}
			cell := func(i int) string { return r.Cells[i].Text }
			verdict := cell(len(r.Cells) - 1)
			a := ann{change: math.Inf(1)}
			switch {
			case strings.HasPrefix(verdict, "regression") && !strings.Contains(verdict, "acknowledged"):
				// "regression" and "regression, for 3 runs (since n20)";
				// an acknowledged one is not counted.
				a.cmd = "error"
				if v := r.Cells[6].Value; v != nil {
					a.change = *v
				}
			case strings.HasPrefix(verdict, "unconfirmed regression"):
				a.cmd = "warning"
				if v := r.Cells[6].Value; v != nil {
					a.change = *v
				}
			case verdict == "missing":
				a.cmd = "warning"
			default:
				continue
			}
			a.title = "ibreport diff --history " + verdict + ": " + g.Title + " " + cell(0)
			a.msg = fmt.Sprintf("%s %s: NEW %s, level %s (interval %s, %s runs from %s), change %s, detectable %s",
				g.Title, cell(0), cell(5), cell(3), cell(4), cell(2), cell(1), cell(6), cell(7))
			anns = append(anns, a)
		}
	}
	slices.SortStableFunc(anns, func(a, b ann) int {
		if a.cmd != b.cmd {
			return strings.Compare(a.cmd, b.cmd) // error before warning
		}
		return cmpFloat(a.change, b.change)
	})
	bw := bufio.NewWriter(w)
	for i, a := range anns {
		if i == maxHistoryAnnotations {
			more := metrics.Plural(len(anns)-i, "more finding")
			fmt.Fprintf(bw, "::warning title=%s::%s\n", textfmt.GitHubProp("ibreport diff --history: "+more),
				textfmt.GitHubEscape(more+" not annotated (GitHub shows 10 per step): see the job summary written with --format md, or the text report"))
			break
		}
		fmt.Fprintf(bw, "::%s title=%s::%s\n", a.cmd, textfmt.GitHubProp(a.title), textfmt.GitHubEscape(a.msg))
	}
	v := rep.History.Verdict()
	fmt.Fprintf(bw, "::notice title=%s::%s\n", textfmt.GitHubProp("ibreport diff --history "+v.Status()), textfmt.GitHubEscape(v.Line()))
	fmt.Fprintln(bw, v.Line())
	return bw.Flush()
}

// cmpFloat orders changes; unlike cmp.Compare it leaves a NaN where it is
// (equal to all), as the stable sort keeps it.
func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
