package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/ibreport/ibreport/diff"
	"github.com/ibreport/ibreport/internal/fsout"
	"github.com/ibreport/ibreport/internal/textfmt"
	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/parse"
	"github.com/ibreport/ibreport/report"
)

// listFlag collects a repeatable flag whose values may be comma-separated.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }
func (l *listFlag) Set(s string) error {
	*l = append(*l, splitList(s)...)
	return nil
}

func splitList(s string) []string {
	var out []string
	for p := range strings.SplitSeq(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// minMaxChars is the least --max-chars: a headline, the mode line and the
// line saying what was cut take about 1,000.
const minMaxChars = 2000

func runDiff(e *env, args []string) error {
	stdout, stderr := e.stdout, e.stderr
	var c common
	var base, newer listFlag
	var threshold, warn, format, tables string
	var alpha, runDF float64
	var maxChars int
	var fullReport, acknowledged string
	var confirm bool
	var allowMissing, allowNA, strict, all, history bool
	fs := newFlagSet("diff", stderr)
	fs.Var(&base, "base", "BASE run `folder` (repeatable, or comma-separated)")
	fs.Var(&newer, "new", "NEW run `folder` (repeatable, or comma-separated)")
	fs.StringVar(&threshold, "threshold", "", "fail `levels`, e.g. ips=5%,cpupq=10% or maxop=off")
	fs.StringVar(&warn, "warn", "", "warn `levels`, e.g. ips=2%")
	fs.Float64Var(&alpha, "alpha", 0.05, "significance `level` of the U test on replicated runs")
	fs.Float64Var(&c.runNoise, "run-noise", 0, "run-to-run relative standard deviation (a `fraction`) of one run, that one-run comparisons are judged with (default: BASE's settings key run-noise, else 0.01); a test's own in BASE's settings (run-noise.<step>.<metric>) wins for its cells")
	fs.Float64Var(&runDF, "run-noise-df", 0, "shape of that noise: the degrees of freedom (`df`, above 2) of a Student t, whose tails are heavier than the normal's (3: a run now and then far off), or 0 for the normal (default: BASE's settings key run-noise-df, which series --noise-settings learns, else 0)")
	fs.StringVar(&format, "format", "text", "output `format`: "+strings.Join(diff.Formats, ", ")+" (md also spelled markdown)")
	fs.StringVar(&c.out, "o", "", "output `file`, written atomically (default: stdout)")
	fs.StringVar(&tables, "tables", "auto", "`kind` of tables to compare: auto, mrg, rel or both")
	fs.BoolVar(&allowMissing, "allow-missing", false, "report kinds of tables, steps, DBMS and columns found on one side only instead of failing")
	fs.BoolVar(&allowNA, "allow-na", false, "a gated value that BASE has and NEW lacks (NA) warns instead of failing")
	fs.BoolVar(&strict, "strict", false, "exit 1 on warnings too")
	fs.BoolVar(&all, "all", false, "list every comparison, not only the notable ones (text, md, json)")
	fs.IntVar(&maxChars, "max-chars", 0, "cut the md report to at most `N` characters, for a pull-request comment (GitHub takes 65536): the most severe rows that fit, and a line saying how many were left out and where the full report is")
	fs.StringVar(&fullReport, "full-report", "", "where the full report is, for the line of a report cut by --max-chars (`text`, e.g. the job summary of the run's URL)")
	fs.StringVar(&acknowledged, "acknowledged", "", "with --history: `file` of acknowledged changes, one a line, \"<result set>[ / <test>]: <why>\" (03-pg180.x10b: io_method config): the level starts anew there, and NEW's acknowledged move is not a regression")
	fs.BoolVar(&confirm, "confirm", false, "with --history: a regression of NEW alone counts only when the run before it fell too; otherwise it is unconfirmed (shown, exit 0) until the next run")
	fs.BoolVar(&history, "history", false, "judge the last of the folders given (NEW) against the noise of those before it, oldest first: DIR… NEW")
	fs.IntVar(&c.cores, "cores", 0, "`CPUs` of the database host (raw trees)")
	fs.StringVar(&c.psUser, "ps-user", "", "OS `user` of the DBMS processes (raw trees)")
	fs.StringVar(&c.device, "device", "", "block `device` of the database (raw trees)")
	fs.StringVar(&c.dbms, "dbms", "", "`file` listing the DBMS in report order (raw trees)")
	fs.StringVar(&c.sbSet, "set", "", "sysbench summary tables: the `set` each side compares (qps.abs.<set>.tsv; default: latest or *.latest, else all or *.all, else the largest set)")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if err := checkFlags(fs, &c); err != nil {
		return err
	}
	format = textfmt.FormatName(format)
	if history {
		if len(base) > 0 || len(newer) > 0 {
			return badUsage("diff", "--history takes folders, not --base and --new")
		}
		// The history judges against its own noise: a level or switch it
		// would ignore must not look as if it applied.
		for _, name := range []string{"threshold", "warn", "alpha", "tables", "allow-missing", "allow-na", "strict", "all", "run-noise", "run-noise-df", "o", "max-chars", "full-report"} {
			if isSet(fs, name) {
				flag := "--" + name
				if name == "o" {
					flag = "-o" // the report goes to stdout
				}
				return badUsage("diff", fmt.Sprintf("--history judges NEW against the noise of its history and takes no %s", flag))
			}
		}
		return runHistory(e, c, format, pos, acknowledged, confirm)
	}
	if confirm {
		return badUsage("diff", "--confirm goes with --history: a regression of NEW counts when the run before it agrees")
	}
	if acknowledged != "" {
		return badUsage("diff", "--acknowledged goes with --history: a history's known changes")
	}
	switch {
	case len(pos) == 2 && len(base) == 0 && len(newer) == 0:
		base, newer = splitList(pos[0]), splitList(pos[1])
	case len(pos) != 0 || len(base) == 0 || len(newer) == 0:
		return badUsage("diff", "want BASE and NEW (or --base DIR… --new DIR…)")
	}
	if !slices.Contains(diff.Formats, format) {
		return usageError{fmt.Errorf("--format %q: want one of %s", format, strings.Join(diff.Formats, ", "))}
	}
	if c.out != "" {
		if err := fsout.CheckOutputFile(c.out, c.inputs(append(slices.Clone(base), newer...)...)...); err != nil {
			return usageError{fmt.Errorf("-o: %w", err)}
		}
	}
	switch {
	case isSet(fs, "max-chars") && format != "md":
		return usageError{fmt.Errorf("--max-chars cuts the md report; --format is %s", format)}
	case isSet(fs, "max-chars") && maxChars < minMaxChars:
		return usageError{fmt.Errorf("--max-chars %d: want at least %d, room for the headline and the line saying what was cut", maxChars, minMaxChars)}
	case isSet(fs, "full-report") && !isSet(fs, "max-chars"):
		return usageError{errors.New("--full-report is the text of the line of a report cut by --max-chars; give --max-chars too")}
	}
	wopt := diff.WriteOptions{Format: format, All: all, Strict: strict, MaxBytes: maxChars, FullReport: fullReport}
	// emit writes the report to stdout or, atomically, to -o.
	emit := func(write func(io.Writer) error) error {
		var buf bytes.Buffer
		if err := write(&buf); err != nil {
			return err
		}
		if c.out == "" {
			_, err := stdout.Write(buf.Bytes())
			return err
		}
		return e.write(func() error { return fsout.WriteFileContext(e.ctx, c.out, buf.Bytes()) })
	}
	// From here on, a run that cannot compare says why in its report too:
	// a CI gate shows the report (job summary, annotations), not stderr.
	if isSet(fs, "run-noise-df") && !parse.ValidRunNoiseDF(runDF) {
		return badUsage("diff", fmt.Sprintf("--run-noise-df %g: want 0 (normal) or degrees of freedom above 2, at most 1000 (3 for heavy tails)", runDF))
	}
	cmp, err := compareDiff(e, c, base, newer, alpha, c.runNoise, runDF, allowMissing, allowNA, tables, threshold, warn)
	if cmp == nil {
		if werr := emit(func(w io.Writer) error { return diff.WriteError(w, base, newer, err, wopt) }); werr != nil {
			return werr
		}
		return err
	}
	if werr := emit(func(w io.Writer) error { return diff.Write(w, cmp, wopt) }); werr != nil {
		return werr
	}
	if err != nil {
		// What is missing on a side: exit 2, after the rest is reported.
		return err
	}
	if diff.ExitCode(cmp, strict) != 0 {
		// The report is written; the error only sets the exit status.
		if cmp.Worst() == diff.LevelFail {
			return regression{errors.New("NEW has fail-level regressions against BASE")}
		}
		return regression{errors.New("NEW has warnings against BASE (--strict)")}
	}
	return nil
}

// compareDiff checks the comparison flags and runs the comparison. It
// returns a comparison with an error when part of the input was missing
// (diff.Run), and no comparison when nothing could be compared.
func compareDiff(e *env, c common, base, newer []string, alpha, runNoise, runDF float64, allowMissing, allowNA bool, tables, threshold, warn string) (*diff.Comparison, error) {
	opt := diff.Options{Compare: diff.DefaultCompareOptions()}
	opt.Compare.Alpha, opt.Compare.AllowMissing, opt.Compare.AllowNA = alpha, allowMissing, allowNA
	opt.Compare.RunNoise, opt.Compare.RunNoiseDF = runNoise, runDF
	switch tables {
	case "auto":
	case "mrg", "rel":
		opt.Compare.Tables = []string{tables}
	case "both":
		opt.Compare.Tables = []string{"mrg", "rel"}
	default:
		return nil, usageError{fmt.Errorf("--tables %q: want auto, mrg, rel or both", tables)}
	}
	if !(alpha > 0 && alpha < 1) {
		return nil, usageError{fmt.Errorf("--alpha %v: must lie between 0 and 1", alpha)}
	}
	if err := opt.Compare.SetThresholds(threshold, false); err != nil {
		return nil, usageError{fmt.Errorf("--threshold: %w", err)}
	}
	if err := opt.Compare.SetThresholds(warn, true); err != nil {
		return nil, usageError{fmt.Errorf("--warn: %w", err)}
	}
	opt.Load = report.LoadOptions{Metrics: metrics.Options{Cores: c.cores, PsUser: c.psUser, Device: c.device}, DBMSList: c.dbms, Sysbench: report.SysbenchOptions{Set: c.sbSet}}
	cmp, warns, err := diff.Run(base, newer, opt)
	for _, w := range warns {
		printNote(e, "warning:", w)
	}
	return cmp, err
}
