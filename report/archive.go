package report

import (
	"io/fs"
	"path"
	"strings"

	"github.com/ibreport/ibreport/parse"
)

// ArchivedSteps returns the steps of the mrg.<step> files in dir (users keep
// years of these), in report order; none when dir holds no such file.
func ArchivedSteps(fsys fs.FS, dir string) ([]parse.Step, error) {
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

// TablesFromArchive regenerates rel.<step>, mrg.some and rel.some from a
// folder of archived mrg.<step> files. Malformed lines are reported as
// warnings naming the file and line; in compat mode they are handled exactly
// as sum_met.awk did.
func TablesFromArchive(fsys fs.FS, dir string, steps []parse.Step, opt TablesOptions) ([]File, []string, error) {
	compat := opt.Metrics.Compat
	out := newFileSet()
	var warns []string
	mrg := map[string][]string{}
	for _, st := range steps {
		p := path.Join(dir, "mrg."+st.MergeName)
		f, err := fsys.Open(p)
		if err != nil {
			return nil, nil, err
		}
		t, err := parse.ReadTable(f, p)
		f.Close()
		if se := parse.SyntaxErrors(err); se != nil {
			for _, e := range se {
				warns = append(warns, e.Error())
			}
		} else if err != nil {
			return nil, nil, err
		}
		var lines []string
		for _, l := range t.Lines {
			lines = append(lines, l.Text)
		}
		mrg[st.MergeName] = lines
		out.touch("rel." + st.MergeName)
		out.line("rel."+st.MergeName, relLines(lines, compat, &warns, p)...)
	}
	writeSome(out, steps, mrg, opt.Some, compat, &warns)
	return out.Files(), warns, nil
}
