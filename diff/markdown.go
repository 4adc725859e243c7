package diff

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/ibreport/ibreport/internal/textfmt"
	"github.com/ibreport/ibreport/metrics"
)

// mdRow writes a table row; bold marks cell 0 as strong after escaping.
func mdRow(w io.Writer, cells []string, bold ...bool) {
	esc := make([]string, len(cells))
	for i, c := range cells {
		esc[i] = textfmt.MarkdownCell(c)
	}
	if len(bold) > 0 && bold[0] && len(esc) > 0 {
		esc[0] = "**" + esc[0] + "**"
	}
	fmt.Fprintf(w, "| %s |\n", strings.Join(esc, " | "))
}

// mdRule is the header separator with the given columns right-aligned.
func mdRule(w io.Writer, n int, right ...int) {
	cells := make([]string, n)
	for i := range cells {
		cells[i] = "---"
	}
	for _, i := range right {
		cells[i] = "---:"
	}
	fmt.Fprintf(w, "|%s|\n", strings.Join(cells, "|"))
}

// writeDiffMarkdown writes a report for a pull-request comment or a GitHub
// job summary, cut to r.MaxBytes.
func writeDiffMarkdown(w io.Writer, c *Comparison, r WriteOptions) error {
	rows := listed(c, r.All)
	if r.MaxBytes <= 0 {
		return writeMarkdownRows(w, c, r, rows, len(rows))
	}
	render := func(k int) []byte {
		var b bytes.Buffer
		writeMarkdownRows(&b, c, r, rows, k) // a bytes.Buffer takes every write
		return b.Bytes()
	}
	out := render(len(rows))
	if len(out) > r.MaxBytes {
		// The most rows that fit: the report grows with the rows it
		// lists, so a binary search finds them in log₂(rows) renderings.
		lo, hi := 0, len(rows)-1
		if len(render(0)) > r.MaxBytes {
			out = cutLines(render(0), r.MaxBytes, r.FullReport)
		} else {
			for lo < hi {
				mid := (lo + hi + 1) / 2
				if len(render(mid)) <= r.MaxBytes {
					lo = mid
				} else {
					hi = mid - 1
				}
			}
			out = render(lo)
		}
	}
	_, err := w.Write(out)
	return err
}

// fullReport is where the full report is, for the line of a cut report.
func fullReport(where string) string {
	where = strings.Join(strings.Fields(where), " ")
	if where == "" {
		return "the job summary and report file of the run"
	}
	return where
}

// cutLines cuts a Markdown report of more than max bytes at the last line
// that fits with the line saying what was left out, closing a <details>
// or code block left open; a report whose first line does not fit keeps
// that line (the headline).
func cutLines(md []byte, max int, where string) []byte {
	text := string(md)
	if !strings.HasSuffix(text, "\n") {
		text += "\n" // so that what is added after it starts a line
	}
	md = []byte(text)
	lines := strings.SplitAfter(text, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	note := func(kept, size int) string {
		return fmt.Sprintf("\n**Cut to %d characters:** %s (%d bytes) left out; the full report: %s.\n",
			max, metrics.Plural(len(lines)-kept, "line"), len(md)-size, fullReport(where))
	}
	var b strings.Builder
	size, details, fence := 0, 0, false
	kept := 0
	for i, l := range lines {
		// The state after l: what must be closed if the text ends there.
		d, f := details, fence
		t := strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(t, "```"):
			f = !f
		case strings.HasPrefix(t, "<details"):
			d++
		case strings.HasPrefix(t, "</details>") && d > 0:
			d--
		}
		closing := 0
		if f {
			closing += len("```\n")
		}
		closing += d * len("\n</details>\n")
		if i > 0 && size+len(l)+closing+len(note(i+1, size+len(l))) > max {
			break
		}
		b.WriteString(l)
		size += len(l)
		kept = i + 1
		details, fence = d, f
	}
	out := b.String()
	if !fence && kept > 2 && strings.HasPrefix(lines[kept-1], "|---") && strings.HasPrefix(lines[kept-2], "|") {
		// A table's header and rule with no row under it say nothing;
		// the first line, the headline, stays.
		out = strings.TrimSuffix(strings.TrimSuffix(out, lines[kept-1]), lines[kept-2])
		size -= len(lines[kept-1]) + len(lines[kept-2])
		kept -= 2
	}
	b.Reset()
	b.WriteString(out)
	if fence {
		b.WriteString("```\n")
	}
	for range details {
		b.WriteString("\n</details>\n")
	}
	b.WriteString(note(kept, size))
	return []byte(b.String())
}

// writeMarkdownRows writes the md report listing the first k of rows.
func writeMarkdownRows(w io.Writer, c *Comparison, r WriteOptions, rows []Finding, k int) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "### %s\n\n", headline(c, r.Strict))
	fmt.Fprintf(bw, "%s\n\n", textfmt.MarkdownCell(modeLine(c)))
	for _, p := range problemLines(c) {
		fmt.Fprintf(bw, "- %s\n", textfmt.MarkdownCell(p))
	}
	if len(c.Problems) > 0 {
		fmt.Fprintln(bw)
	}
	for _, w := range c.Comparability {
		fmt.Fprintf(bw, "- **Not comparable:** %s\n", textfmt.MarkdownCell(w))
	}
	if len(c.Comparability) > 0 {
		fmt.Fprintln(bw)
	}
	fn := newFootnotes(c, rows[:k])
	switch {
	case len(rows) == 0:
		fmt.Fprintln(bw, "No notable changes.")
	case k > 0:
		mdRow(bw, diffColumns)
		mdRule(bw, len(diffColumns), 5, 6, 7)
		for _, f := range rows[:k] {
			mdRow(bw, findingCells(f, fn), f.Level >= LevelWarn)
		}
	}
	if k < len(rows) {
		// Cut to WriteOptions.MaxBytes: the rows come most severe first.
		if k > 0 {
			fmt.Fprintln(bw)
		}
		fmt.Fprintf(bw, "**Cut to %d characters:** %d of %s listed, the most severe first; the other %d are in the full report: %s.\n",
			r.MaxBytes, k, metrics.Plural(len(rows), "row"), len(rows)-k, fullReport(r.FullReport))
	}
	if h := hiddenLine(c, rows); h != "" {
		fmt.Fprintf(bw, "\n%s\n", h)
	}
	fmt.Fprintf(bw, "\n#### Geometric mean of NEW/BASE throughput ratios per step and DBMS\n\n")
	gs := changedGeomeans(c, r.All)
	if len(gs) > 0 {
		mdRow(bw, geomeanColumns)
		mdRule(bw, len(geomeanColumns), 3, 4, 5)
		for _, g := range gs {
			mdRow(bw, geomeanCells(g))
		}
	}
	if l := geomeanLine(c, len(gs)); l != "" {
		if len(gs) > 0 {
			fmt.Fprintln(bw)
		}
		fmt.Fprintln(bw, l)
	}
	if nc := notCompared(c); len(nc) > 0 {
		fmt.Fprintf(bw, "\n<details><summary>%s</summary>\n\n", notComparedSummary(c))
		for _, n := range nc {
			fmt.Fprintf(bw, "- %s\n", textfmt.MarkdownCell(n))
		}
		fmt.Fprintf(bw, "\n</details>\n")
	}
	if len(fn.numbered)+len(fn.remarks) > 0 {
		fmt.Fprintln(bw)
		for i, n := range fn.numbered {
			fmt.Fprintf(bw, "[%d] %s  \n", i+1, textfmt.MarkdownCell(n))
		}
		for _, n := range fn.remarks {
			fmt.Fprintf(bw, "Note: %s  \n", textfmt.MarkdownCell(n))
		}
	}
	return bw.Flush()
}

// MaxAnnotations is the most error and warning annotations the github
// format writes: GitHub shows 10 of each kind per step and drops the rest
// silently, so the eleventh says how many more there are and where.
const MaxAnnotations = 10

// annotation is one error or warning annotation: a row of a table (a step
// and DBMS, or a sysbench test and thread count and DBMS) with every
// finding of it at warn or fail level, most severe first, or a finding
// that is not a cell (a step or DBMS on one side only).
type annotation struct {
	findings []Finding
}

// rowAnnotations groups the warn and fail findings by row. Findings are
// sorted most severe first, so each row's first finding leads it.
func rowAnnotations(c *Comparison) []annotation {
	var out []annotation
	idx := map[string]int{}
	for _, f := range c.Findings {
		if f.Level < LevelWarn || len(c.Problems) > 0 && f.Verdict == VerdictMissing {
			// What is missing is annotated once, as the problem it is.
			continue
		}
		if f.Metric == "" || f.DBMS == "" {
			out = append(out, annotation{[]Finding{f}})
			continue
		}
		// mrg and rel rows of a step are one row: rel cells are folded
		// into mrg ones, and a rel-only cell joins its mrg row.
		k := f.Step + "\x00" + f.DBMS
		if f.Table == "sbgroup" {
			// A sysbench group's geometric mean falls with its tests:
			// it joins the first row annotated of a test run by the same
			// DBMS with the same thread count, and is a row of its own
			// only when no test is annotated.
			k = "sbgroup\x00" + dopOf(f.Step) + "\x00" + f.DBMS
		}
		if i, ok := idx[k]; ok {
			out[i].findings = append(out[i].findings, f)
			continue
		}
		idx[k] = len(out)
		if f.Table == "sb" {
			if _, ok := idx["sbgroup\x00"+dopOf(f.Step)+"\x00"+f.DBMS]; !ok {
				idx["sbgroup\x00"+dopOf(f.Step)+"\x00"+f.DBMS] = len(out)
			}
		}
		out = append(out, annotation{[]Finding{f}})
	}
	return out
}

// dopOf is the thread count of a sysbench step: "dop1" of
// "read-only.range100.dop1", "" without one.
func dopOf(step string) string {
	if i := strings.LastIndex(step, ".dop"); i >= 0 {
		return step[i+1:]
	}
	return ""
}

// cellText is one cell's change for an annotation: "ips 111111 -> 104444
// -6.00%".
func cellText(f Finding) string {
	return strings.Join(nonEmpty(f.Metric, sideText(f.Base, true)+" -> "+sideText(f.New, true), deltaText(f.Delta)), " ")
}

// named reports whether a throughput finding's note names metric among
// its causes ("cpupq +14%").
func named(note, metric string) bool {
	return strings.Contains(note, metric+" +") || strings.Contains(note, metric+" -")
}

// line is the workflow command of an annotation. Its title names the row
// and its verdict; its message the lead cell with its rule and causes,
// then the other cells of the row that warn or fail and are not among the
// causes already named.
func (a annotation) line() string {
	lead := a.findings[0]
	cmd := "warning"
	if lead.Level == LevelFail {
		cmd = "error"
	}
	var props []string
	if lead.File != "" {
		props = append(props, "file="+textfmt.GitHubProp(lead.File))
		if lead.Line > 0 {
			props = append(props, fmt.Sprintf("line=%d", lead.Line))
		}
	}
	row := strings.Join(nonEmpty(lead.Table+"."+lead.Step, lead.DBMS), " ")
	if lead.Metric == "" || lead.DBMS == "" {
		row = strings.Join(nonEmpty(row, lead.Metric), " ")
		props = append(props, "title="+textfmt.GitHubProp("ibreport diff "+verdictLabel(shown(lead))+": "+row))
		return fmt.Sprintf("::%s %s::%s", cmd, strings.Join(props, ","), textfmt.GitHubEscape(row+": "+noteText(lead)))
	}
	props = append(props, "title="+textfmt.GitHubProp("ibreport diff "+verdictLabel(shown(lead))+": "+row))
	msg := cellText(lead)
	if n := noteText(lead); n != "" {
		msg += " (" + n + ")"
	}
	for _, f := range a.findings[1:] {
		same := f.Table == lead.Table && f.Step == lead.Step
		if same && named(lead.Note, f.Metric) {
			continue
		}
		msg += "; " + verdictLabel(shown(f)) + " "
		if !same {
			msg += f.Table + "." + f.Step + " "
		}
		msg += cellText(f)
		if n := noteText(f); n != "" {
			msg += " (" + n + ")"
		}
	}
	return fmt.Sprintf("::%s %s::%s", cmd, strings.Join(props, ","), textfmt.GitHubEscape(row+": "+msg))
}

// writeDiffGitHub writes GitHub Actions workflow commands: an error
// annotation per problem of the input (what is missing, exit 2), then one
// per row (step and DBMS) with a failure and a warning per row with a
// warning, most severe first, at most MaxAnnotations of them, pointing at
// the NEW file and line when the finding names a file that exists; one
// more warning saying how many rows were left out; a notice with the
// headline; then the headline and notes as plain lines for the log.
func writeDiffGitHub(w io.Writer, c *Comparison, r WriteOptions) error {
	bw := bufio.NewWriter(w)
	var lines []string
	for _, p := range c.Problems {
		lines = append(lines, fmt.Sprintf("::error title=%s::%s", textfmt.GitHubProp("ibreport diff ERROR: bad input"),
			textfmt.GitHubEscape(p+" (the rest was compared; --allow-missing accepts what is on one side only)")))
	}
	more := 0
	for _, a := range rowAnnotations(c) {
		if len(lines) >= MaxAnnotations {
			more++
			continue
		}
		lines = append(lines, a.line())
	}
	for _, l := range lines {
		fmt.Fprintln(bw, l)
	}
	if more > 0 {
		fmt.Fprintf(bw, "::warning title=%s::%s\n", textfmt.GitHubProp("ibreport diff: "+metrics.Plural(more, "more row")),
			textfmt.GitHubEscape(fmt.Sprintf("%s at warn or fail level not annotated (GitHub shows %d per step): "+
				"see the job summary written by ibreport diff --format md, or the text report", metrics.Plural(more, "more row"), MaxAnnotations)))
	}
	fmt.Fprintf(bw, "::notice title=%s::%s\n", textfmt.GitHubProp("ibreport diff "+status(c, r.Strict)), textfmt.GitHubEscape(headline(c, r.Strict)))
	fmt.Fprintln(bw, headline(c, r.Strict))
	for _, n := range c.Notes {
		fmt.Fprintf(bw, "Note: %s\n", n)
	}
	return bw.Flush()
}

func nonEmpty(s ...string) []string {
	var out []string
	for _, x := range s {
		if x != "" {
			out = append(out, x)
		}
	}
	return out
}
