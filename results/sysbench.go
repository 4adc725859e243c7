package results

import (
	"regexp"
	"strconv"

	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/parse"
)

// reBuildName splits a result folder name, x.<dbms>.<config>.pk<N>.
var reBuildName = regexp.MustCompile(`^x\.([^.]+)\.(.+)\.pk([0-9]+)$`)

// Sysbench is the set as the typed sysbench model that reports, tables
// and the CI gate are built from: a DBMS per build in column order (the
// first the base), a result per test and build with its QPS and, where
// the set has an o.met file, the HW metrics per operation; TPS and
// latencies are NA, the tables do not keep them. Warm-up tests are left
// out, as from result folders. Threads is the set's thread count (0 when
// no file says). It returns nil for a nil set.
func (s *Set) Sysbench(opt metrics.Options) *metrics.SysbenchSet {
	if s == nil {
		return nil
	}
	dirs := make([]*parse.SysbenchDir, len(s.Builds))
	for i, b := range s.Builds {
		d := &parse.SysbenchDir{Name: b, PK: -1, Threads: map[string][]int{}}
		if m := reBuildName.FindStringSubmatch(b); m != nil {
			d.DBMS, d.Config = m[1], m[2]
			d.PK, _ = strconv.Atoi(m[3])
		}
		dirs[i] = d
	}
	var runs []*metrics.SysbenchResult
	for _, row := range s.Rows {
		if row.Test.Warmup() {
			continue
		}
		for i, c := range row.Cells {
			if i >= len(dirs) {
				break
			}
			d := dirs[i]
			test := row.Test
			if d.PK >= 0 && d.PK != test.PK {
				// The tables do not name the pk flag: the folder's.
				test, _ = parse.ParseSysbenchSfx(test.Key() + ".pk" + strconv.Itoa(d.PK))
			}
			if _, seen := d.Threads[test.Sfx]; !seen {
				d.Tests = append(d.Tests, test)
			}
			d.Threads[test.Sfx] = []int{s.Threads}
			runs = append(runs, s.result(d.Name, test, c))
		}
	}
	return metrics.NewSysbenchSet(dirs, runs, opt)
}

// result is the typed result of one cell.
func (s *Set) result(build string, t parse.SysbenchTest, c Cell) *metrics.SysbenchResult {
	na := func(u metrics.Unit) metrics.Value {
		return metrics.NA(u, "not in the summary tables")
	}
	r := &metrics.SysbenchResult{
		DBMS: build, Test: t, Threads: s.Threads, Source: c.File,
		TPS:    na(metrics.TxPerSec),
		LatAvg: na(metrics.Millis), LatPct: na(metrics.Millis), LatMax: na(metrics.Millis),
		ErrorsPerSec: na(metrics.ErrorsPerSec), Events: na(metrics.Count),
		Percentile: 95,
	}
	r.QPS = c.QPS
	op := metrics.SysbenchOp(t)
	unit := func(name string) metrics.Unit {
		p, _ := metrics.PropsByName(name)
		return p.UnitOf(op, metrics.NoUnit)
	}
	perOp := func(v metrics.Value, name string) metrics.Value {
		v.Unit = unit(name)
		return v
	}
	h := &r.HW
	h.Rate = c.QPS
	noMet := func(name string) metrics.Value { return metrics.NA(unit(name), "no o.met row of the build and test") }
	h.ReadsPerSec, h.WritesPerSec = na(metrics.ReadsPerSec), na(metrics.WritesPerSec)
	h.ReadMBPerSec, h.WriteMBPerSec = na(metrics.MiBPerSec), na(metrics.MiBPerSec)
	h.CsPerSec, h.CPUPerSec = na(metrics.CSPerSec), na(metrics.CPUPercent)
	if m := c.Met; m != nil {
		h.CPUPerOp, h.CsPerOp = perOp(m.CPUPerOp, "cpu/o"), perOp(m.CsPerOp, "cs/o")
		h.ReadsPerOp, h.ReadKBPerOp, h.WriteKBPerOp = perOp(m.ReadsPerOp, "r/o"), perOp(m.ReadKBPerOp, "rKB/o"), perOp(m.WriteKBPerOp, "wKB/o")
		h.Rate = m.OpsPerSec
		h.IostatSource, h.VmstatSource = m.File, m.File
	} else {
		h.CPUPerOp, h.CsPerOp = noMet("cpu/o"), noMet("cs/o")
		h.ReadsPerOp, h.ReadKBPerOp, h.WriteKBPerOp = noMet("r/o"), noMet("rKB/o"), noMet("wKB/o")
	}
	h.CPUMicrosPerOp = metrics.CPUMicros(h.CPUPerOp, 0, op)
	return r
}
