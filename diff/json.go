package diff

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/ibreport/ibreport/internal/textfmt"
)

// Schema names the version of the JSON written by Write. Fields are
// only ever added under the same name. Version 2: a gated value NEW lost
// has the verdict its row shows (fail, or warn with AllowNA) instead of
// "not comparable", counts and not_compared follow, and the status may
// be ERROR (exit 2) with problems or error.
const Schema = "ibreport-diff/2"

// jsonDiff is the JSON document of a comparison. Findings are the notable
// ones (all of them with WriteOptions.All), in order of severity; counts cover
// every comparison. Numbers that do not exist (no median, no test, a change
// from 0) are null; delta_text says why.
type jsonDiff struct {
	Schema     string   `json:"schema"`
	Status     string   `json:"status"` // PASS, WARN, FAIL or ERROR
	ExitCode   int      `json:"exit_code"`
	Base       []string `json:"base"`
	New        []string `json:"new"`
	Replicated bool     `json:"replicated"`
	Alpha      float64  `json:"alpha"`
	Tables     []string `json:"tables"`
	Tests      int      `json:"tests"`
	RunNoise   *float64 `json:"run_noise"` // one run per side only
	// RunNoiseDF is Comparison.RunNoiseDF, absent for the normal.
	RunNoiseDF float64        `json:"run_noise_df,omitempty"`
	Counts     map[string]int `json:"counts"`
	Findings   []jsonFinding  `json:"findings"`
	Geomeans   []jsonGeomean  `json:"geomeans"`
	// Shifts are Comparison.Shifts.
	Shifts []jsonShift `json:"shifts,omitempty"`
	// NotCompared lists every cell, step, DBMS or kind of table that was
	// not compared (NA on a side, or on one side only) and is not itself a
	// fail or warn finding: the counts' missing and not comparable.
	NotCompared []string          `json:"not_compared"`
	Notes       []string          `json:"notes"`
	Thresholds  map[string]jsonTh `json:"thresholds"`
	// Comparability lists where BASE and NEW did not run the same work.
	Comparability []string `json:"comparability,omitempty"`
	// Problems lists the input missing on a side that makes the status
	// ERROR (exit 2) although the rest was compared.
	Problems []string `json:"problems,omitempty"`
	// Error says why nothing was compared (status ERROR, exit 2), as
	// WriteError writes it.
	Error string `json:"error,omitempty"`
}

type jsonTh struct {
	Better string   `json:"better"`
	Warn   *float64 `json:"warn"`
	Fail   *float64 `json:"fail"`
	Floor  *float64 `json:"floor"`
}

type jsonSide struct {
	Runs   int       `json:"runs"`
	Texts  []string  `json:"texts"`
	Values []float64 `json:"values"`
	Median *float64  `json:"median"`
	Lo     *float64  `json:"lo"`
	Hi     *float64  `json:"hi"`
}

type jsonFinding struct {
	Level     string    `json:"level"`
	Verdict   string    `json:"verdict"`
	Notable   bool      `json:"notable"`
	Table     string    `json:"table"`
	Step      string    `json:"step"`
	DBMS      string    `json:"dbms"`
	Metric    string    `json:"metric"`
	Better    string    `json:"better"`
	Gated     bool      `json:"gated"`
	Base      *jsonSide `json:"base"`
	New       *jsonSide `json:"new"`
	Delta     *float64  `json:"delta"`
	DeltaText string    `json:"delta_text"`
	P         *float64  `json:"p"`
	PAdj      *float64  `json:"p_adj"`
	// Noise and Detectable: Finding.Noise and Finding.Detectable.
	Noise      *float64 `json:"noise"`
	Detectable *float64 `json:"detectable"`
	// Detectable80 is Finding.Detectable80: the change caught 4 times in 5.
	Detectable80 *float64 `json:"detectable_80,omitempty"`
	// RunNoise and RunNoiseKey: Finding.RunNoise and Finding.RunNoiseKey,
	// present only when the cell was judged with its test's own run noise.
	RunNoise    *float64 `json:"run_noise,omitempty"`
	RunNoiseKey string   `json:"run_noise_key,omitempty"`
	Note        string   `json:"note"`
	Notes       []int    `json:"notes"` // 1-based numbers of the notes
	File        string   `json:"file,omitempty"`
	Line        int      `json:"line,omitempty"`
}

type jsonShift struct {
	Table  string  `json:"table"`
	DBMS   string  `json:"dbms"`
	Metric string  `json:"metric"`
	Delta  float64 `json:"delta"`
	Cells  int     `json:"cells"`
	Moved  int     `json:"moved"`
}

type jsonGeomean struct {
	Step  string   `json:"step"`
	DBMS  string   `json:"dbms"`
	Table string   `json:"table"`
	Ratio *float64 `json:"ratio"`
	N     int      `json:"n"`
	// Detectable is StepGeomean.Detectable.
	Detectable *float64 `json:"detectable"`
}

func num(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

// positive is v, or null when v is not a level (0 disables one); NaN and
// Inf are null too, as the encoder refuses them.
func positive(v float64) *float64 {
	if !(v > 0) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

func jside(s Side, cell bool) *jsonSide {
	if !cell {
		return nil
	}
	v := s.Values
	if v == nil {
		v = []float64{}
	}
	return &jsonSide{Runs: s.Runs, Texts: sideTexts(s), Values: v, Median: num(s.Median), Lo: num(s.Lo), Hi: num(s.Hi)}
}

func writeDiffJSON(w io.Writer, c *Comparison, r WriteOptions) error {
	d := jsonDiff{Schema: Schema, Status: status(c, r.Strict), ExitCode: ExitCode(c, r.Strict),
		Base: c.Base, New: c.New, Replicated: c.Replicated, Alpha: c.Alpha, Tables: c.Tables, Tests: c.Tests,
		Counts: map[string]int{}, Findings: []jsonFinding{}, Geomeans: []jsonGeomean{}, Notes: c.Notes,
		Thresholds: map[string]jsonTh{}, NotCompared: notCompared(c), Comparability: c.Comparability,
		Problems: c.Problems}
	if d.Notes == nil {
		d.Notes = []string{}
	}
	if !c.Replicated {
		d.RunNoise, d.RunNoiseDF = num(c.RunNoise), c.RunNoiseDF
	}
	n := shownCounts(c)
	for _, v := range reportVerdicts {
		d.Counts[string(v)] = n[v]
	}
	for _, f := range c.Findings {
		if f.Metric != "" {
			d.Thresholds[f.Metric] = jsonTh{Better: f.Rule.Better.String(), Warn: positive(f.Rule.Warn),
				Fail: positive(f.Rule.Fail), Floor: positive(f.Rule.Floor)}
		}
		if !f.Notable && !r.All {
			continue
		}
		cell := f.Metric != "" && f.DBMS != ""
		jf := jsonFinding{Level: f.Level.String(), Verdict: string(shown(f)), Notable: f.Notable,
			Table: f.Table, Step: f.Step, DBMS: f.DBMS, Metric: f.Metric, Better: f.Rule.Better.String(), Gated: f.Gated,
			Base: jside(f.Base, cell), New: jside(f.New, cell), Delta: num(f.Delta), DeltaText: deltaText(f.Delta),
			P: num(f.P), PAdj: num(f.PAdj), Noise: num(f.Noise), Detectable: num(f.Detectable), Detectable80: num(f.Detectable80), Note: f.Note, Notes: []int{}, File: f.File, Line: f.Line}
		if f.RunNoiseKey != "" {
			jf.RunNoise, jf.RunNoiseKey = num(f.RunNoise), f.RunNoiseKey
		}
		for _, n := range f.Notes {
			jf.Notes = append(jf.Notes, n+1)
		}
		d.Findings = append(d.Findings, jf)
	}
	for _, sh := range c.Shifts {
		d.Shifts = append(d.Shifts, jsonShift(sh))
	}
	for _, g := range c.Geomeans {
		d.Geomeans = append(d.Geomeans, jsonGeomean{Step: g.Step, DBMS: g.DBMS, Table: g.Table, Ratio: num(g.Ratio), N: g.N, Detectable: num(g.Detectable)})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(d)
}

// notCompared names every finding that is not a comparison and does not
// warn or fail (those are findings with their own rows): "mrg.l.x pg15.c1
// p50: NA on both sides". They are the headline's missing and not
// comparable.
func notCompared(c *Comparison) []string {
	out := []string{}
	for _, f := range c.Findings {
		if v := shown(f); v != VerdictMissing && v != VerdictNotComparable {
			continue
		}
		subject := strings.Join(nonEmpty(f.Table+"."+f.Step, f.DBMS, f.Metric), " ")
		out = append(out, subject+": "+f.Note)
	}
	return out
}

// notComparedSummary counts notCompared as the headline does: "1 missing,
// 6 not comparable".
func notComparedSummary(c *Comparison) string {
	n := shownCounts(c)
	var parts []string
	for _, v := range []Verdict{VerdictMissing, VerdictNotComparable} {
		if n[v] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n[v], v))
		}
	}
	return strings.Join(parts, ", ")
}

// WriteError writes, in the format of r, why BASE and NEW (the folders
// given) could not be compared at all: a mistyped path, an unreadable
// table, nothing in common. A CI gate writes it where the reviewer looks
// (the job summary, an error annotation) instead of leaving them empty;
// the exit status is 2. The text format writes the headline and the
// message.
func WriteError(w io.Writer, base, newer []string, err error, r WriteOptions) error {
	if err == nil {
		return errors.New("diff.WriteError: no error to write")
	}
	msg := err.Error()
	const head = "ibreport diff: ERROR (nothing compared, exit 2)"
	where := fmt.Sprintf("BASE %s; NEW %s", strings.Join(base, ","), strings.Join(newer, ","))
	var werr error
	switch textfmt.FormatName(r.Format) {
	case "", "text":
		_, werr = fmt.Fprintf(w, "%s\n%s\n\n%s\n", head, where, msg)
	case "md":
		out := fmt.Sprintf("### %s\n\n%s\n\n**Bad input:** %s\n", head, textfmt.MarkdownCell(where), textfmt.MarkdownCell(msg))
		if r.MaxBytes > 0 && len(out) > r.MaxBytes {
			out = cutError(out, r.MaxBytes, r.FullReport)
		}
		_, werr = io.WriteString(w, out)
	case "github":
		_, werr = fmt.Fprintf(w, "::error title=%s::%s\n%s\n%s\n", textfmt.GitHubProp("ibreport diff ERROR: bad input"), textfmt.GitHubEscape(msg), head, msg)
	case "json":
		d := jsonDiff{Schema: Schema, Status: "ERROR", ExitCode: 2, Base: base, New: newer, Tables: []string{},
			Counts: map[string]int{}, Findings: []jsonFinding{}, Geomeans: []jsonGeomean{}, NotCompared: []string{},
			Notes: []string{}, Thresholds: map[string]jsonTh{}, Error: msg}
		if d.Base == nil {
			d.Base = []string{}
		}
		if d.New == nil {
			d.New = []string{}
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		werr = enc.Encode(d)
	default:
		return fmt.Errorf("unknown format %q; want one of %s", r.Format, strings.Join(Formats, ", "))
	}
	return werr
}

// cutError cuts an error report of more than max bytes, one line of which
// may be longer than max (a message listing every missing item), to max
// bytes: its text ends where the line saying what was left out still
// fits, on a character boundary.
func cutError(md string, max int, where string) string {
	note := func(left int) string {
		return fmt.Sprintf(" …\n\n**Cut to %d characters:** %d bytes left out; the full report: %s.\n", max, left, fullReport(where))
	}
	n := max - len(note(len(md)))
	for n > 0 && !utf8.RuneStart(md[n]) {
		n--
	}
	if n <= 0 {
		return md // not even the headline and the note fit: a cut would say nothing
	}
	return md[:n] + note(len(md)-n)
}
