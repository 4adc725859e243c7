package report

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strconv"
	"strings"

	"github.com/ibreport/ibreport/internal/compat"
	"github.com/ibreport/ibreport/internal/fsout"
	"github.com/ibreport/ibreport/internal/names"
	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/parse"
)

// ibenchPerfCompatFiles writes, in compat mode, what np.sh's
// post-processing wrote for its perf stat samples, in each step folder:
//
//	<tree>/<step>/o.perf.hw.dop<D>.<n>.raw, .sorted    bash grep_perfstat.sh; sort -k 1,1
//
// for n from 1 to the number in o.perf.last.dop<D>. np.sh does this only
// when o.perf.last.dop<D> exists (and holds a number from 0 on), so a step
// without it gets no files. The .sorted order is the collation's, like
// the sysbench summaries (--collate). np.sh has no join step.
func (r *Results) ibenchPerfCompatFiles() ([]File, []string) {
	if r.FS == nil || len(r.Trees) == 0 {
		return nil, nil
	}
	coll, err := compat.ParseCollation(cmp.Or(r.SysbenchOptions.Collate, "en_US"))
	if err != nil {
		return nil, []string{err.Error()}
	}
	out := fsout.NewSet()
	var warns []string
	found := false
	for _, t := range r.Trees {
		for _, sr := range t.Steps {
			dir := path.Join(t.Tree.Dir, sr.Step.Name)
			sfx := fmt.Sprintf("dop%d", sr.Dop)
			lastFile := path.Join(dir, "o.perf.last."+sfx)
			b, err := parse.ReadRegular(r.FS, lastFile, 64<<10)
			if err != nil {
				if !errors.Is(err, fs.ErrNotExist) {
					warns = append(warns, err.Error())
				}
				continue
			}
			last, err := strconv.Atoi(strings.TrimSpace(string(b)))
			if err != nil || last < 0 {
				// np.sh's `[[ $last_loop -ge 0 ]]` fails: no files.
				warns = append(warns, fmt.Sprintf("%s: %s is not one sample number from 0 on (runs appended to one file?); np.sh writes no perf files for the step, nor does compat mode", lastFile, names.Quoted(strings.TrimSpace(string(b)))))
				continue
			}
			samples, _, err := metrics.PerfSamples(r.FS, dir)
			if err != nil {
				warns = append(warns, err.Error())
				continue
			}
			// PerfSamples keeps 1..last of the samples present; np.sh runs
			// grep_perfstat.sh on a missing one too (cat fails), which
			// writes empty files.
			have := map[int]string{}
			for _, s := range samples[sfx] {
				have[s.N] = s.Name
			}
			for n := 1; n <= last; n++ {
				name := "o.perf.hw." + sfx + "." + strconv.Itoa(n)
				var raw []string
				if _, ok := have[n]; ok {
					data, err := parse.ReadRegular(r.FS, path.Join(dir, name), parse.MaxPerfFile)
					if err != nil {
						warns = append(warns, err.Error())
						continue
					}
					raw = compat.PerfRaw(string(data))
				} else {
					warns = append(warns, fmt.Sprintf("%s: o.perf.last.%s says %d samples; %s is missing (np.sh wrote empty .raw and .sorted files for it)", dir, sfx, last, name))
				}
				found = true
				out.Touch(path.Join(dir, name+".raw"))
				out.Touch(path.Join(dir, name+".sorted"))
				out.Line(path.Join(dir, name+".raw"), raw...)
				out.Line(path.Join(dir, name+".sorted"), compat.PerfSorted(raw, coll)...)
			}
		}
	}
	if !found {
		return nil, warns
	}
	return filesOf(out.Files()), warns
}
