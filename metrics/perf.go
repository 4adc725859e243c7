package metrics

import (
	"errors"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/ibreport/ibreport/parse"
)

// PerfOp holds the perf stat counters of one test or step of a DBMS,
// normalized per operation: the counts per second of the samples (each
// counter over the interval of its own perf stat block) divided by the
// operations per second of the process counted.
//
// perf stat -p counts one process. A MySQL server is one process and does
// every operation; a PostgreSQL backend serves one connection of N, so it
// does 1/N of the operations, assuming the clients share the load evenly
// (sysbench's threads run the same loop). Procs is that N (1 for a whole
// server).
type PerfOp struct {
	Samples []string // the sample files used
	Procs   int      // processes sharing the operations; 1 for a whole server
	Rate    Value    // operations per second of the test (all processes)

	InsnPerOp, CyclesPerOp, IPC                         Value
	BranchMissPerOp, CacheMissPerOp, L1DMissPerOp       Value
	DTLBMissPerOp, ITLBMissPerOp, L1IMissPerOp, CSPerOp Value
	// StallFrontend and StallBackend are stalled cycles as a share of all
	// cycles, in percent. The counts come from another block (interval)
	// than cycles, so each is a ratio of rates.
	StallFrontend, StallBackend Value
	Warnings                    []string
}

// PerfCounterDefs are the per-operation counters of PerfOp, in the order
// tables show them: column name, meaning, unit, the counter read, and
// whether more of it is worse.
var PerfCounterDefs = []struct {
	Name, What, Event string
	Get               func(*PerfOp) Value
	Cost              bool
}{
	{"insn/o", "instructions per operation", "instructions", func(p *PerfOp) Value { return p.InsnPerOp }, true},
	{"cyc/o", "CPU cycles per operation", "cycles", func(p *PerfOp) Value { return p.CyclesPerOp }, true},
	{"IPC", "instructions per cycle", "", func(p *PerfOp) Value { return p.IPC }, false},
	{"brmiss/o", "branch misses per operation", "branch-misses", func(p *PerfOp) Value { return p.BranchMissPerOp }, true},
	{"llcmiss/o", "cache misses (last-level cache references that missed) per operation", "cache-misses", func(p *PerfOp) Value { return p.CacheMissPerOp }, true},
	{"l1dmiss/o", "L1 data cache load misses per operation", "L1-dcache-load-misses", func(p *PerfOp) Value { return p.L1DMissPerOp }, true},
	{"l1imiss/o", "L1 instruction cache load misses per operation", "L1-icache-loads-misses", func(p *PerfOp) Value { return p.L1IMissPerOp }, true},
	{"dtlbmiss/o", "data TLB load misses per operation", "dTLB-load-misses", func(p *PerfOp) Value { return p.DTLBMissPerOp }, true},
	{"itlbmiss/o", "instruction TLB load misses per operation", "iTLB-load-misses", func(p *PerfOp) Value { return p.ITLBMissPerOp }, true},
	{"cs/o", "context switches of the process per operation", "context-switches", func(p *PerfOp) Value { return p.CSPerOp }, true},
	{"stallFE%", "front-end stalled cycles, percent of cycles", "", func(p *PerfOp) Value { return p.StallFrontend }, true},
	{"stallBE%", "back-end stalled cycles, percent of cycles", "", func(p *PerfOp) Value { return p.StallBackend }, true},
}

// PerfUnit is the unit of per-operation counters and IPC.
const (
	PerfUnit Unit = "events/op"
	IPCUnit  Unit = "insn/cycle"
)

// ComputePerfOp normalizes samples by rate, the operations per second of
// the test, shared by procs processes. A counter missing from every
// sample, or not supported, is NA with the reason.
func ComputePerfOp(samples []*parse.PerfStat, rate Value, procs int) *PerfOp {
	p := &PerfOp{Procs: max(procs, 1), Rate: rate}
	for _, s := range samples {
		p.Samples = append(p.Samples, s.Name)
	}
	// perSec sums an event's counts and its blocks' intervals.
	perSec := func(event string) Value {
		var n, secs float64
		why := "no sample counted " + event
		for _, s := range samples {
			c, b, ok := s.Counter(event)
			if !ok {
				if f, found := s.Find(event); found {
					why = event + " " + f.State.String()
					if f.Bad != "" {
						why = event + ": " + f.Bad
					}
				}
				continue
			}
			if b.Elapsed <= 0 {
				continue
			}
			n += c.Value
			secs += b.Elapsed
		}
		if secs == 0 {
			return NA(Unit(event+"/s"), why)
		}
		return Known(n/secs, Unit(event+"/s"))
	}
	opsPerProc := NA("op/s", "no operation rate: "+rate.Why)
	if rate.OK() && rate.V > 0 {
		opsPerProc = Known(rate.V/float64(p.Procs), "op/s")
	} else if rate.OK() {
		opsPerProc = NA("op/s", "the operation rate is 0")
	}
	perOp := func(event string) Value {
		v := perSec(event)
		switch {
		case !v.OK():
			return NA(PerfUnit, v.Why)
		case !opsPerProc.OK():
			return NA(PerfUnit, opsPerProc.Why)
		}
		return Known(v.V/opsPerProc.V, PerfUnit)
	}
	ratio := func(a, b string, scale float64, u Unit) Value {
		x, y := perSec(a), perSec(b)
		switch {
		case !x.OK():
			return NA(u, x.Why)
		case !y.OK():
			return NA(u, y.Why)
		case y.V == 0:
			return NA(u, b+" is 0")
		}
		return Known(scale*x.V/y.V, u)
	}
	p.InsnPerOp = perOp("instructions")
	p.CyclesPerOp = perOp("cycles")
	p.IPC = ratio("instructions", "cycles", 1, IPCUnit)
	p.BranchMissPerOp = perOp("branch-misses")
	p.CacheMissPerOp = perOp("cache-misses")
	p.L1DMissPerOp = perOp("L1-dcache-load-misses")
	p.L1IMissPerOp = perOp("L1-icache-loads-misses")
	p.DTLBMissPerOp = perOp("dTLB-load-misses")
	p.ITLBMissPerOp = perOp("iTLB-load-misses")
	p.CSPerOp = perOp("context-switches")
	p.StallFrontend = ratio("stalled-cycles-frontend", "cycles", 100, Percent)
	p.StallBackend = ratio("stalled-cycles-backend", "cycles", 100, Percent)
	return p
}

// PerfSample is one perf stat sample file of a test or step.
type PerfSample struct {
	Name string // file name
	N    int    // sample number
}

var rePerfSample = regexp.MustCompile(`^(sb|o)\.perf\.hw\.(.+)\.([0-9]+)$`)

// PerfSamples lists the perf stat sample files in dir by test (sysbench,
// sb.perf.hw.<test>.<n>) or step (o.perf.hw.<step>.<n>) name, each with
// the samples to use: 1 to the number in sb.perf.last.<test> (np.sh:
// o.perf.last.<step suffix>) when that file exists, as run.sh's and np.sh's
// post-processing do (sample 0 covers the warm-up
// when present, and the sample after the last recorded one was still
// running when the test ended, so it counted idle time); all samples from 1
// on otherwise. The warnings are those of the perf.last files
// (parse.PerfLast), each naming its file and line.
func PerfSamples(fsys fs.FS, dir string) (map[string][]PerfSample, []string, error) {
	if fsys == nil {
		return nil, nil, errors.New("nil file system")
	}
	ents, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, nil, err
	}
	out := map[string][]PerfSample{}
	prefix := map[string]string{} // test → "sb" or "o", naming its .perf.last file
	for _, e := range ents {
		m := rePerfSample.FindStringSubmatch(e.Name())
		if m == nil || e.IsDir() {
			continue
		}
		n, err := strconv.Atoi(m[3])
		if err != nil || n < 1 {
			continue
		}
		out[m[2]] = append(out[m[2]], PerfSample{Name: e.Name(), N: n})
		prefix[m[2]] = m[1]
	}
	tests := make([]string, 0, len(out))
	for test := range out {
		tests = append(tests, test)
	}
	sort.Strings(tests)
	var warns []string
	for _, test := range tests {
		l := out[test]
		sort.Slice(l, func(i, j int) bool { return l[i].N < l[j].N })
		last, ok, w, err := parse.PerfLast(fsys, path.Join(dir, prefix[test]+".perf.last."+test))
		warns = append(warns, w...)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			warns = append(warns, err.Error())
		}
		if ok {
			k := 0
			for _, s := range l {
				if s.N <= last {
					l[k] = s
					k++
				}
			}
			l = l[:k]
		}
		out[test] = l
	}
	return out, warns, nil
}

// PerfProcs is the number of processes that share the operations when perf
// stat counted one process of a DBMS: the thread count for PostgreSQL (one
// backend per connection), 1 for a server that is one process (MySQL,
// MariaDB, MyRocks). The DBMS is told by its folder name (pg…, postgres…,
// oriole…).
func PerfProcs(dbms string, threads int) int {
	d := strings.ToLower(strings.TrimPrefix(dbms, "x."))
	if strings.HasPrefix(d, "pg") || strings.HasPrefix(d, "postgres") || strings.HasPrefix(d, "oriole") {
		return max(threads, 1)
	}
	return 1
}
