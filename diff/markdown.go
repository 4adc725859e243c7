package diff

import (
	"bufio"
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
// job summary.
func writeDiffMarkdown(w io.Writer, c *Comparison, r WriteOptions) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "### %s\n\n", headline(c, r.Strict))
	fmt.Fprintf(bw, "%s\n\n", textfmt.MarkdownCell(modeLine(c)))
	for _, w := range c.Comparability {
		fmt.Fprintf(bw, "- **Not comparable:** %s\n", textfmt.MarkdownCell(w))
	}
	if len(c.Comparability) > 0 {
		fmt.Fprintln(bw)
	}
	rows := listed(c, r.All)
	if len(rows) == 0 {
		fmt.Fprintln(bw, "No notable changes.")
	} else {
		mdRow(bw, diffColumns)
		mdRule(bw, len(diffColumns), 5, 6, 7)
		for _, f := range rows {
			mdRow(bw, findingCells(f), f.Level >= LevelWarn)
		}
	}
	if h := hiddenLine(c, len(rows)); h != "" {
		fmt.Fprintf(bw, "\n%s\n", h)
	}
	fmt.Fprintf(bw, "\n#### Geometric mean of NEW/BASE throughput ratios per step and DBMS\n\n")
	mdRow(bw, geomeanColumns)
	mdRule(bw, len(geomeanColumns), 3, 4, 5)
	for _, g := range c.Geomeans {
		mdRow(bw, geomeanCells(g))
	}
	if nc := notCompared(c); len(nc) > 0 {
		fmt.Fprintf(bw, "\n<details><summary>%d not compared</summary>\n\n", len(nc))
		for _, n := range nc {
			fmt.Fprintf(bw, "- %s\n", textfmt.MarkdownCell(n))
		}
		fmt.Fprintf(bw, "\n</details>\n")
	}
	if len(c.Notes) > 0 {
		fmt.Fprintln(bw)
		for i, n := range c.Notes {
			fmt.Fprintf(bw, "[%d] %s  \n", i+1, textfmt.MarkdownCell(n))
		}
	}
	return bw.Flush()
}

// ghEscape escapes the message of a workflow command; ghProp also escapes
// the characters that separate properties.
func ghEscape(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

func ghProp(s string) string {
	return strings.NewReplacer(":", "%3A", ",", "%2C").Replace(ghEscape(s))
}

// MaxAnnotations is the most error and warning annotations the github
// format writes: GitHub shows 10 of each kind per step and drops the rest
// silently, so the eleventh says how many more there are and where.
const MaxAnnotations = 10

// writeDiffGitHub writes GitHub Actions workflow commands: an error
// annotation per failure and a warning per warning, most severe first, at
// most MaxAnnotations of them, pointing at the NEW file and line when the
// finding names a file that exists; one more warning saying how many were
// left out; a notice with the headline; then the headline and notes as
// plain lines for the log.
func writeDiffGitHub(w io.Writer, c *Comparison, r WriteOptions) error {
	bw := bufio.NewWriter(w)
	var lines []string
	more := 0
	for _, f := range c.Findings {
		var cmd string
		switch {
		case f.Level == LevelFail:
			cmd = "error"
		case f.Level == LevelWarn:
			cmd = "warning"
		default:
			continue
		}
		if len(lines) == MaxAnnotations {
			more++
			continue
		}
		var props []string
		if f.File != "" {
			props = append(props, "file="+ghProp(f.File))
			if f.Line > 0 {
				props = append(props, fmt.Sprintf("line=%d", f.Line))
			}
		}
		subject := strings.Join(nonEmpty(f.Table+"."+f.Step, f.DBMS, f.Metric), " ")
		props = append(props, "title="+ghProp("ibreport diff "+verdictLabel(f.Verdict)+": "+subject))
		msg := subject
		if f.Metric != "" && f.DBMS != "" {
			msg += ": " + strings.Join(nonEmpty(sideText(f.Base, true)+" -> "+sideText(f.New, true), deltaText(f.Delta)), " ")
		}
		if n := noteText(f); n != "" {
			msg += " (" + n + ")"
		}
		lines = append(lines, fmt.Sprintf("::%s %s::%s", cmd, strings.Join(props, ","), ghEscape(msg)))
	}
	for _, l := range lines {
		fmt.Fprintln(bw, l)
	}
	if more > 0 {
		fmt.Fprintf(bw, "::warning title=%s::%s\n", ghProp("ibreport diff: "+metrics.Plural(more, "more finding")),
			ghEscape(fmt.Sprintf("%s at warn or fail level not annotated (GitHub shows %d per step): "+
				"see the job summary written by ibreport diff --format md, or the text report", metrics.Plural(more, "more finding"), MaxAnnotations)))
	}
	fmt.Fprintf(bw, "::notice title=%s::%s\n", ghProp("ibreport diff "+status(c, r.Strict)), ghEscape(headline(c, r.Strict)))
	fmt.Fprintln(bw, headline(c, r.Strict))
	for i, n := range c.Notes {
		fmt.Fprintf(bw, "[%d] %s\n", i+1, n)
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
