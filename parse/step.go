package parse

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
)

// StepKind is what the benchmark client does in a step.
type StepKind int

// The kinds of insert-benchmark steps.
const (
	Load            StepKind = iota // inserts only (l.i0, and l.i1/l.i2 without deletes)
	CreateIndex                     // l.x: insert a few rows, then create the secondary indexes
	LoadWithDeletes                 // l.i1/l.i2 with delete_per_insert
	ReadWriteRange                  // rate-limited inserts plus range queries (qr…, q.L…, q<R>.<n>)
	ReadWritePoint                  // rate-limited inserts plus point queries (qp…)
)

func (k StepKind) String() string {
	switch k {
	case Load:
		return "load"
	case CreateIndex:
		return "create index"
	case LoadWithDeletes:
		return "load with deletes"
	case ReadWriteRange:
		return "read+write range"
	case ReadWritePoint:
		return "read+write point"
	}
	return "kind" + strconv.Itoa(int(k))
}

// ReadWrite reports whether the step runs queries next to rate-limited
// inserts; such steps are measured by queries per second.
func (k StepKind) ReadWrite() bool { return k == ReadWriteRange || k == ReadWritePoint }

// Step identifies one step of a DBMS tree by its directory name.
type Step struct {
	Name string   // directory name, e.g. "qr100.L1" or "q.L2.ips100"
	Kind StepKind // LoadWithDeletes is only known after reading the client logs
	// Rate is the target insert rate per client of a read+write step (rows/s).
	Rate int
	// Seq is the step's position: the i in l.i<i> for loads, the k in L<k> or
	// the run number for read+write steps.
	Seq int
	// MergeName is the name used for mrg/rel files. It differs from Name only
	// in the 2020-2023 generations (q.L1.ips100 is merged as q100.1).
	MergeName string
}

var (
	reLoad   = regexp.MustCompile(`^l\.i([0-9]+)$`)
	reQRP    = regexp.MustCompile(`^q([rp])([0-9]+)\.L([0-9]+)$`)
	reQLIps  = regexp.MustCompile(`^q\.L([0-9]+)\.ips([0-9]+)$`)
	reQMerge = regexp.MustCompile(`^q([0-9]+)\.([0-9]+)$`)
)

// ParseStepName recognizes a step directory or mrg step name of any
// generation (FORMATS.md §2.2–2.3).
func ParseStepName(name string) (Step, bool) {
	if name == "l.x" {
		return Step{Name: name, Kind: CreateIndex, MergeName: name}, true
	}
	if m := reLoad.FindStringSubmatch(name); m != nil {
		seq, err := strconv.Atoi(m[1])
		if err != nil || seq > 1000 {
			return Step{}, false
		}
		return Step{Name: name, Kind: Load, Seq: seq, MergeName: name}, true
	}
	if m := reQRP.FindStringSubmatch(name); m != nil {
		rate, e1 := strconv.Atoi(m[2])
		seq, e2 := strconv.Atoi(m[3])
		if e1 != nil || e2 != nil {
			return Step{}, false
		}
		kind := ReadWriteRange
		if m[1] == "p" {
			kind = ReadWritePoint
		}
		return Step{Name: name, Kind: kind, Rate: rate, Seq: seq, MergeName: name}, true
	}
	if m := reQLIps.FindStringSubmatch(name); m != nil {
		seq, e1 := strconv.Atoi(m[1])
		rate, e2 := strconv.Atoi(m[2])
		if e1 != nil || e2 != nil {
			return Step{}, false
		}
		return Step{Name: name, Kind: ReadWriteRange, Rate: rate, Seq: seq, MergeName: name}, true
	}
	if m := reQMerge.FindStringSubmatch(name); m != nil {
		rate, e1 := strconv.Atoi(m[1])
		seq, e2 := strconv.Atoi(m[2])
		if e1 != nil || e2 != nil {
			return Step{}, false
		}
		return Step{Name: name, Kind: ReadWriteRange, Rate: rate, Seq: seq, MergeName: name}, true
	}
	return Step{}, false
}

// order is the sort key of a step: loads first (l.i0, l.x, l.i1, l.i2, …),
// then read+write steps by position.
func (s Step) order() (int, int, int) {
	switch {
	case s.Kind == CreateIndex:
		return 0, 0, 1
	case !s.Kind.ReadWrite():
		if s.Seq == 0 {
			return 0, 0, 0
		}
		return 0, s.Seq, 2
	}
	if reQMerge.MatchString(s.Name) {
		return 1, s.Rate, s.Seq // q100.1 q100.2 q200.1 …: the run number counts within a rate
	}
	return 1, s.Seq, s.Rate
}

// Less orders steps as the report shows them.
func (s Step) Less(t Step) bool {
	a1, a2, a3 := s.order()
	b1, b2, b3 := t.order()
	if a1 != b1 {
		return a1 < b1
	}
	if a2 != b2 {
		return a2 < b2
	}
	if a3 != b3 {
		return a3 < b3
	}
	return s.Name < t.Name
}

// SortSteps sorts steps in report order.
func SortSteps(steps []Step) {
	sort.SliceStable(steps, func(i, j int) bool { return steps[i].Less(steps[j]) })
}

// assignMergeNames gives q.L<k>.ips<R> steps their mrg names q<R>.<n>, n
// counting the steps with the same rate in order.
func assignMergeNames(steps []Step) {
	count := map[int]int{}
	for i := range steps {
		if reQLIps.MatchString(steps[i].Name) {
			count[steps[i].Rate]++
			steps[i].MergeName = fmt.Sprintf("q%d.%d", steps[i].Rate, count[steps[i].Rate])
		}
	}
}
