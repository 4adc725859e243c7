package report

import (
	"cmp"
	"path"
	"strconv"

	"github.com/ibreport/ibreport/internal/compat"
	"github.com/ibreport/ibreport/internal/fsout"
	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/parse"
)

// perfCompatFiles writes, in compat mode, the files of the perf stat
// scripts:
//
//	<dbms>/sb.perf.hw.<test>.<n>.raw, .sorted     grep_perfstat.sh, samples 1..sb.perf.last
//	join<V>.{abs,rel}.<PREFIX>.sb.perf.hw.<test>.<V>.sorted   join_perfstat_sb.sh PREFIX V DBMS…
//
// with the DBMS in report order (the first is the base of rel) and the
// test list of the current join_perfstat_sb.sh. Nothing without samples.
func (r *Results) perfCompatFiles() ([]File, []string) {
	set, opt := r.Sysbench, r.SysbenchOptions
	if set == nil || r.FS == nil {
		return nil, nil
	}
	coll, err := compat.ParseCollation(cmp.Or(opt.Collate, "en_US"))
	if err != nil {
		return nil, []string{err.Error()}
	}
	prefix := cmp.Or(opt.PerfPrefix, cmp.Or(opt.Tag, "sb"))
	v := opt.PerfSample
	if v == 0 {
		v = 1
	}
	out := fsout.NewSet()
	var warns []string
	found := false
	sorted := map[string]map[string][]string{} // DBMS → test.sample → lines
	for _, d := range set.DBMS {
		sorted[d.Name] = map[string][]string{}
		samples, pw, err := metrics.PerfSamples(r.FS, d.Dir.Dir)
		warns = append(warns, pw...)
		if err != nil {
			warns = append(warns, err.Error())
			continue
		}
		for test, l := range samples {
			for _, s := range l {
				b, err := parse.ReadRegular(r.FS, path.Join(d.Dir.Dir, s.Name), parse.MaxPerfFile)
				if err != nil {
					warns = append(warns, err.Error())
					continue
				}
				found = true
				raw := compat.PerfRaw(string(b))
				so := compat.PerfSorted(raw, coll)
				out.Line(d.Name+"/"+s.Name+".raw", raw...)
				out.Line(d.Name+"/"+s.Name+".sorted", so...)
				sorted[d.Name][test+"."+strconv.Itoa(s.N)] = so
			}
		}
	}
	if !found {
		return nil, warns
	}
	for _, test := range compat.PerfJoinTests {
		var in [][]string
		for _, d := range set.DBMS {
			in = append(in, sorted[d.Name][test+"."+strconv.Itoa(v)])
		}
		abs, rel := compat.PerfJoin(in, coll)
		out.Line(compat.PerfJoinName("abs", prefix, v, test), abs...)
		out.Line(compat.PerfJoinName("rel", prefix, v, test), rel...)
	}
	return filesOf(out.Files()), warns
}
