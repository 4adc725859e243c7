package report

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"path"
	"strconv"
	"strings"

	"github.com/ibreport/ibreport/internal/compat"
	"github.com/ibreport/ibreport/internal/fsout"
	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/parse"
)

// archivedSteps returns the steps of the mrg.<step> files in dir (users keep
// years of these), in report order; none when dir holds no such file.
func archivedSteps(fsys fs.FS, dir string) ([]parse.Step, error) {
	ents, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, err
	}
	var steps []parse.Step
	for _, e := range ents {
		name, ok := strings.CutPrefix(e.Name(), "mrg.")
		if !ok || e.IsDir() {
			continue
		}
		if st, ok := parse.ParseStepName(name); ok {
			steps = append(steps, st)
		}
	}
	parse.SortSteps(steps)
	return steps, nil
}

// archive is a folder of archived mrg.<step> tables, read: what users keep
// of years of results. Its values keep the text they were archived with.
type archive struct {
	Steps  []parse.Step
	tables []*mergedTable
	// Some are the steps of the archived mrg.some (else rel.some), in its
	// order: the steps its author chose; none when neither file is there.
	Some []string
	// SomeFile is the file Some was read from.
	SomeFile string
	// Warnings are the malformed lines met, each naming its file and line.
	Warnings []string
}

// errNoRegularTable is the error of a folder whose mrg.<step> files are all
// FIFOs, devices or sockets.
var errNoRegularTable = errors.New("no mrg.<step> file is a regular file")

// readArchive reads the mrg.<step> files of the steps in dir. Cells that
// are not numbers are NA values (compat: awk's reading of them).
func readArchive(fsys fs.FS, dir string, steps []parse.Step, compatMode bool) (*archive, error) {
	a := &archive{}
	var special []string
	for _, st := range steps {
		p := path.Join(dir, "mrg."+st.MergeName)
		f, err := parse.OpenRegular(fsys, p)
		if parse.IsNotRegular(err) {
			// Not opened: a FIFO would block the run, a device never end.
			a.Warnings = append(a.Warnings, err.Error()+"; skipped")
			special = append(special, err.Error())
			continue
		}
		if err != nil {
			return nil, err
		}
		a.Steps = append(a.Steps, st)
		t, err := parse.ReadTable(f, p)
		f.Close()
		if se := parse.SyntaxErrors(err); se != nil {
			for _, e := range se {
				a.Warnings = append(a.Warnings, e.Error())
			}
		} else if err != nil {
			return nil, err
		}
		mt := &mergedTable{step: st, file: p, cols: t.Header, archive: true}
		for _, l := range t.Lines {
			r := &mergedRow{line: l.Text, lineNo: l.Line}
			switch l.Kind {
			case parse.TableHeader:
				r.kind = headerRow
			case parse.TableBreak:
				r.kind = breakRow
			case parse.TableOther:
				r.kind = otherRow
			case parse.TableRow:
				last := len(l.Cells) - 1
				r.tag = l.Cells[last]
				for i, c := range l.Cells[:last] {
					u := metrics.NoUnit
					m, known := metrics.MetricByName(t.Header[i])
					if known {
						u = m.Unit(st.Kind)
					}
					v := archivedValue(c, u, compatMode)
					if _, err := strconv.ParseFloat(strings.TrimSpace(c), 64); known && err != nil && !scriptNonNumber(c) {
						// Not a number, nor what the scripts print for an
						// unknown value: a damaged file, which the reader
						// must hear of (compat mode read it as awk did).
						v = a.naCell(fmt.Sprintf("%s:%d: %s: %q is not a number", p, l.Line, t.Header[i], c), u, compatMode)
					}
					// Archived numbers are held to the rules of the raw
					// readers (a column of no known metric only to the
					// ceiling).
					if v.OK() {
						var q parse.Quantity
						if known {
							q = m.Quantity()
						}
						if err := plausibleIn(q, v.V, known); err != nil {
							v = a.naCell(fmt.Sprintf("%s:%d: %s: %v", p, l.Line, t.Header[i], err), u, compatMode)
						}
					}
					if v.OK() && len(c) > maxNumberText {
						// The number is kept; its text would not fit a
						// table, and no tool prints one so long.
						w := fmt.Sprintf("%s:%d: %s: a number written with %d characters", p, l.Line, t.Header[i], len(c))
						a.Warnings = append(a.Warnings, w+"; the report shows it rounded")
						v = metrics.Known(v.V, u)
					}
					r.cells = append(r.cells, v)
				}
			}
			mt.rows = append(mt.rows, r)
		}
		a.tables = append(a.tables, mt)
	}
	if len(a.Steps) == 0 {
		return nil, fmt.Errorf("%w (%s)", errNoRegularTable, strings.Join(special, "; "))
	}
	a.Some, a.SomeFile = archivedSome(fsys, dir, a.Steps)
	return a, nil
}

// archivedSome reads the steps listed in the archived mrg.some (else
// rel.some) of dir. No script wrote these files: their author concatenated
// a hand-picked list of steps (FORMATS.md §5.7: for each, an empty line,
// the step name, then the step's table), and nothing else records the
// choice. So the archived file is the rule: a step is chosen when a line
// holding only its name follows an empty line, in that order. Names of
// steps with no mrg.<step> file are not kept (the file would not be
// rebuilt as it was anyway); a file that names no known step gives none.
func archivedSome(fsys fs.FS, dir string, steps []parse.Step) ([]string, string) {
	have := map[string]bool{}
	for _, st := range steps {
		have[st.MergeName] = true
	}
	for _, name := range []string{"mrg.some", "rel.some"} {
		p := path.Join(dir, name)
		f, err := parse.OpenRegular(fsys, p)
		if err != nil {
			continue
		}
		b, err := io.ReadAll(io.LimitReader(f, maxSomeFile))
		f.Close()
		if err != nil {
			continue
		}
		var out []string
		seen := map[string]bool{}
		prevEmpty := true // the file starts with the empty line of its first step
		for _, l := range strings.Split(string(b), "\n") {
			l = strings.TrimRight(l, "\r")
			if prevEmpty && have[l] && !seen[l] {
				out = append(out, l)
				seen[l] = true
			}
			prevEmpty = strings.TrimSpace(l) == ""
		}
		if len(out) > 0 {
			return out, p
		}
	}
	return nil, ""
}

// maxSomeFile bounds what is read of an archived mrg.some: all the steps
// of a study take a few hundred kilobytes.
const maxSomeFile = 64 << 20

// naCell is the NA of an archived cell that breaks a rule, why naming its
// file, line and column, with a warning. The cell keeps its line, so compat
// mode's text tables, made from the lines, stay the original's; only its
// report shows NA.
func (a *archive) naCell(why string, u metrics.Unit, compatMode bool) metrics.Value {
	if compatMode {
		a.Warnings = append(a.Warnings, why+"; the report shows NA, the tables keep the original's reading")
	} else {
		a.Warnings = append(a.Warnings, why+"; the cell is NA")
	}
	return metrics.NA(u, why)
}

// maxNumberText is the longest text of an archived number shown as it was
// written: more than any tool prints ("-1.234567890123456e+15" has 22).
const maxNumberText = 32

// plausibleIn checks an archived number: against the rule of its column's
// quantity when the column is known, else only against the ceiling every
// measured number keeps (an unknown column may hold negative values).
func plausibleIn(q parse.Quantity, v float64, known bool) error {
	switch {
	case known:
		return parse.Plausible(q, v)
	case math.Abs(v) > parse.Ceiling:
		return fmt.Errorf("%g is beyond %g, not a measured value", v, parse.Ceiling)
	}
	return nil
}

// scriptNonNumber reports whether an archived cell is how the original
// scripts print a value they do not have: NA, empty, or awk's inf and nan.
func scriptNonNumber(text string) bool {
	switch strings.TrimSpace(text) {
	case "", "NA", "inf", "-inf", "nan", "-nan":
		return true
	}
	return false
}

// archivedValue reads an archived cell, keeping its text: a finite number,
// else NA (compat mode: as awk read it).
func archivedValue(text string, u metrics.Unit, compatMode bool) metrics.Value {
	if compatMode {
		return compat.CellValue(text, u)
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(text), 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		why := fmt.Sprintf("%q in the archived table is not a number", text)
		if text == "NA" {
			why = "NA in the archived table"
		}
		return metrics.NA(u, why).Printed(text)
	}
	return metrics.Known(v, u).Printed(text)
}

// tablesFromArchive regenerates rel.<step>, mrg.some and rel.some from a
// read archive. Malformed lines are reported as warnings naming the file
// and line; in compat mode they are handled exactly as sum_met.awk did.
func tablesFromArchive(a *archive, opt tablesOptions) ([]File, []string) {
	fs := fsout.NewSet()
	warns := append([]string(nil), a.Warnings...)
	if len(opt.Some) == 0 && len(a.Some) > 0 {
		opt.Some = a.Some
		warns = append(warns, fmt.Sprintf("mrg.some: the steps %s of the archived %s (--some overrides)", strings.Join(a.Some, " "), a.SomeFile))
	}
	writeMerged(fs, a.tables, nil, "", opt, &warns)
	return filesOf(fs.Files()), warns
}
