package main

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/ibreport/ibreport/internal/fsout"
	"github.com/ibreport/ibreport/parse"
	"github.com/ibreport/ibreport/report"
	"github.com/ibreport/ibreport/report/render"
)

// loadSets loads each folder as one result set, named by its folder name
// (its path when two share a name).
func (c *common) loadSets(dirs []string) ([]report.ResultSet, error) {
	seen := map[string]int{}
	for _, d := range dirs {
		seen[filepath.Base(filepath.Clean(d))]++
	}
	sets := make([]report.ResultSet, len(dirs))
	for i, d := range dirs {
		res, err := c.load(d)
		if err != nil {
			return nil, err
		}
		name := filepath.Base(filepath.Clean(d))
		if seen[name] > 1 {
			name = filepath.Clean(d)
		}
		sets[i] = report.ResultSet{Name: name, Results: res}
	}
	return sets, nil
}

func runSeries(e *env, args []string) error {
	var c buildFlags
	fs := flags("series", &c.common, e.stderr)
	fs.StringVar(&c.out, "o", "", "output `file`, written atomically (default: stdout)")
	fs.StringVar(&c.format, "format", "html", "output `format`: "+strings.Join(render.Formats, ", "))
	fs.StringVar(&c.title, "title", "", "report `title` (default: \"Series of N result sets\")")
	var noiseFile string
	fs.StringVar(&noiseFile, "noise-settings", "", "write the run-to-run noise learned per test to this settings `file` (a baseline's ibreport.settings; its other lines are kept), atomically")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if err := checkFlags(fs, &c.common); err != nil {
		return err
	}
	if len(pos) == 0 {
		return badUsage("series", "want the result folders, oldest first")
	}
	if c.out != "" {
		if err := fsout.CheckOutputFile(c.out, c.inputs(pos...)...); err != nil {
			return usageError{fmt.Errorf("-o: %w", err)}
		}
		if err := fsout.CheckOutputFolder(c.out); err != nil {
			return fmt.Errorf("-o: %w", err)
		}
	}
	if noiseFile != "" {
		if len(pos) < 2 {
			return badUsage("series", "--noise-settings learns from a series of result sets (nightly runs): give their folders, oldest first")
		}
		if err := checkNoiseSettings(noiseFile); err != nil {
			return err
		}
	}
	sets, err := c.loadSets(pos)
	if err != nil {
		return err
	}
	rep, err := report.BuildSeries(sets, report.BuildOptions{Title: c.title})
	if err != nil {
		return err
	}
	if noiseFile != "" {
		if err := writeNoiseSettings(e, noiseFile, rep, sets); err != nil {
			return err
		}
	}
	if rep.Series != nil {
		for _, g := range rep.Series.Groups {
			for _, n := range g.Notes {
				printNote(e, "note:", n)
			}
		}
	}
	return c.writeReport(e, rep)
}

// writeReport renders a report in the chosen format to stdout or, atomically, to -o.
func (c *buildFlags) writeReport(e *env, rep *report.Report) error {
	var buf bytes.Buffer
	if err := render.Write(&buf, rep, c.format); err != nil {
		return err
	}
	return c.emit(e, rep, buf.Bytes())
}

// runHistory is diff --history: the last folder against those before it.
// ackFile is the --acknowledged file: a few dozen lines.
var ackFile = parse.UserFile{Flag: "--acknowledged", What: "a file of acknowledged changes", Limit: 1 << 20}

func runHistory(e *env, c common, format string, dirs []string, acknowledged string, confirm bool) error {
	if len(dirs) < report.MinHistory+1 {
		return badUsage("diff", fmt.Sprintf("--history wants at least %d folders: %d of history, oldest first, then NEW", report.MinHistory+1, report.MinHistory))
	}
	switch format {
	case "text", "md", "json", "github":
	default:
		return usageError{fmt.Errorf("--format %q: --history writes text, md, json or github", format)}
	}
	opt := report.BuildOptions{Confirm: confirm}
	if acknowledged != "" {
		b, err := parse.ReadUserFile(acknowledged, ackFile)
		if err != nil {
			return fmt.Errorf("%w: %w", report.ErrBadInput, err)
		}
		if opt.Acknowledged, err = report.ReadAcknowledged(bytes.NewReader(b), acknowledged); err != nil {
			return err
		}
	}
	c.stall = c.stall.WithDefaults()
	sets, err := c.loadSets(dirs)
	if err != nil {
		return err
	}
	rep, v, err := report.History(sets, opt)
	if err != nil {
		return err
	}
	if format == "github" {
		if err := writeHistoryGitHub(e.stdout, rep); err != nil {
			return err
		}
	} else {
		bf := buildFlags{common: c, format: format}
		if err := bf.writeReport(e, rep); err != nil {
			return err
		}
	}
	fmt.Fprintf(e.stderr, "history: %s\n", v.Counts())
	switch {
	case v.Missing > 0:
		return fmt.Errorf("%w: NEW lacks %d values the history has", report.ErrBadInput, v.Missing)
	case v.Regressions > 0:
		return regression{errors.New("NEW has regressions against its history")}
	}
	return nil
}
