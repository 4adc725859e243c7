package parse

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/ibreport/ibreport/internal/names"
)

// SysbenchPhase tells where a test ran in the test list: the file name of
// a test run before the write-heavy tests ends in .pre, warm-up runs end in
// .warm or .warmpre, and the plain name is the run after the writes.
type SysbenchPhase int

// The phases.
const (
	Post SysbenchPhase = iota
	Pre
	Warm
	WarmPre
)

func (p SysbenchPhase) String() string {
	switch p {
	case Pre:
		return "pre"
	case Warm:
		return "warm"
	case WarmPre:
		return "warmpre"
	}
	return "post"
}

// SysbenchTest is one test of a run list, named by the suffix run.sh gives
// its files: <testType>.range<range>.pk<usepk>.
type SysbenchTest struct {
	Sfx   string // "point-query.pre.range100.pk1"
	Type  string // run.sh's testType: "point-query.pre"
	Base  string // the test without its phase: "point-query"
	Phase SysbenchPhase
	Range int
	PK    int
}

var reSfx = regexp.MustCompile(`^(.+)\.range([0-9]+)\.pk([0-9]+)$`)

// ParseSysbenchSfx splits a file-name suffix into its test type, range and
// pk flag.
func ParseSysbenchSfx(sfx string) (SysbenchTest, bool) {
	m := reSfx.FindStringSubmatch(sfx)
	if m == nil {
		return SysbenchTest{}, false
	}
	r, err1 := strconv.Atoi(m[2])
	pk, err2 := strconv.Atoi(m[3])
	if err1 != nil || err2 != nil {
		return SysbenchTest{}, false
	}
	t := SysbenchTest{Sfx: sfx, Type: m[1], Base: m[1], Range: r, PK: pk}
	for _, p := range []struct {
		suffix string
		phase  SysbenchPhase
	}{{".warmpre", WarmPre}, {".warm", Warm}, {".pre", Pre}} {
		if b, ok := strings.CutSuffix(m[1], p.suffix); ok && b != "" {
			t.Base, t.Phase = b, p.phase
			break
		}
	}
	return t, true
}

// Label is the test as run.sh labels it in sb.r.* files, without the
// engine: "point-query.pre range=100".
func (t SysbenchTest) Label() string { return t.Type + " range=" + strconv.Itoa(t.Range) }

// Key names the test without the pk flag, "point-query.pre.range100", as
// pre_vs_post.sh and user files do.
func (t SysbenchTest) Key() string { return t.Type + ".range" + strconv.Itoa(t.Range) }

// Scan reports whether the test is a full table scan, whose "qps" is a row
// rate.
func (t SysbenchTest) Scan() bool { return t.Base == "scan" }

// runOrder is the order of all_small.sh, the test list of the current
// driver: position of the test type in that list.
var runOrder = map[string]int{}

func init() {
	for i, t := range []string{
		"point-query.warm", "scan.warmpre", "point-query.pre", "random-points.pre", "read-only.pre",
		"points-covered-pk.pre", "points-notcovered-pk.pre", "points-covered-si.pre", "points-notcovered-si.pre",
		"range-covered-pk.pre", "range-notcovered-pk.pre", "range-covered-si.pre", "range-notcovered-si.pre",
		"update-inlist", "update-index", "update-nonindex", "update-one", "update-zipf", "update-rate",
		"write-only", "read-write", "scan.warm", "scan", "read-only", "read-only-simple", "read-only-sum",
		"read-only-order", "read-only-distinct", "read-only-count", "point-query", "random-points", "hot-points",
		"points-covered-pk", "points-notcovered-pk", "range-covered-pk", "range-notcovered-pk",
		"points-covered-si.warm", "points-covered-si", "points-notcovered-si", "range-covered-si",
		"range-notcovered-si", "delete", "insert",
	} {
		runOrder[t] = i
	}
}

// SortSysbenchTests orders tests as the current driver (all_small.sh) runs
// them; within a test type by range, ascending (its loops run 10, 100, 1000).
// Test types the driver does not know come last, by name. The original
// summarizers ordered by file modification time or by name instead (see
// FORMATS.md §7.7); copies often lose modification times, so a fixed key is
// the reproducible choice.
func SortSysbenchTests(tests []SysbenchTest) {
	sort.SliceStable(tests, func(i, j int) bool { return tests[i].Less(tests[j]) })
}

// Less reports whether t runs before u in the driver's order.
func (t SysbenchTest) Less(u SysbenchTest) bool {
	oi, ki := runOrder[t.Type]
	oj, kj := runOrder[u.Type]
	switch {
	case ki != kj:
		return ki
	case ki && oi != oj:
		return oi < oj
	case !ki && t.Type != u.Type:
		return t.Type < u.Type
	case t.Range != u.Range:
		return t.Range < u.Range
	}
	return t.PK < u.PK
}

// SysbenchDir is the result folder of one DBMS configuration,
// x.<dbms>.<cnf>.pk<usepk>/, holding the sb.* files of every test.
type SysbenchDir struct {
	Name   string // folder name, e.g. "x.pg15.c1.pk1"; the DBMS tag of the summaries
	Dir    string // path inside the fs.FS
	Group  string // enclosing res.dop<N>.<rsecs>.<wsecs> folder, "" when none
	DBMS   string // "pg15" of x.pg15.c1.pk1; "" when the name has another shape
	Config string // "c1"
	PK     int    // -1 when the name has no .pk<n>
	Tests  []SysbenchTest
	// Threads lists, per test suffix, the thread counts that have a
	// sb.o, sb.vm, sb.io or sb.met file, ascending.
	Threads map[string][]int
	// Prepare is the suffix of sb.prepare.o.<sfx>, "" without a load step.
	Prepare string
	// ModTime holds the modification time of every sb.* file, by name. The
	// original summarizers listed files with `ls -rt`; compat mode does too.
	ModTime map[string]time.Time
}

// Warmup reports whether the test is a warm-up run (.warm, .warmpre),
// whose thread count is not one of the folder's: point-query.warm runs
// with as many threads as tables.
func (t SysbenchTest) Warmup() bool { return t.Phase == Warm || t.Phase == WarmPre }

// AllThreads returns the thread counts of the folder, ascending: those of
// every test but the warm-up runs.
func (d *SysbenchDir) AllThreads() []int {
	if d == nil {
		return nil
	}
	seen := map[int]bool{}
	var out []int
	for _, t := range d.Tests {
		if t.Warmup() {
			continue
		}
		for _, n := range d.Threads[t.Sfx] {
			if !seen[n] {
				seen[n] = true
				out = append(out, n)
			}
		}
	}
	sort.Ints(out)
	return out
}

// HasFile reports whether the folder holds the named sb.* file.
func (d *SysbenchDir) HasFile(name string) bool {
	if d == nil {
		return false
	}
	_, ok := d.ModTime[name]
	return ok
}

var (
	reSbRunFile = regexp.MustCompile(`^sb\.(o|vm|io|met)\.(.+)\.dop([0-9]+)$`)
	reSbDirName = regexp.MustCompile(`^x\.([^.]+)\.(.+)\.pk([0-9]+)$`)
)

// FindSysbenchDirs finds the sysbench result folders at dir, in its
// subfolders and one level deeper (the res.dop<N>.… grouping of rdop.sh). A
// folder is a sysbench result when it holds a sb.o.*, sb.met.* or
// sb.prepare.o.* file (archives may keep only sb.met of a run). Symbolic
// links to folders are followed, but not back into an enclosing folder (a
// loop).
// Folders are returned in natural order of their paths.
func FindSysbenchDirs(fsys fs.FS, dir string) ([]*SysbenchDir, error) {
	fsys = orNoInput(fsys)
	var out []*SysbenchDir
	up := &ancestors{fsys: fsys}
	var walk func(d string, depth int) error
	walk = func(d string, depth int) error {
		if !up.enter(d) {
			return nil // a link back to an enclosing folder
		}
		defer up.leave()
		ents, err := fs.ReadDir(fsys, d)
		if err != nil {
			return err
		}
		sd, err := readSysbenchDir(fsys, d, ents)
		if err != nil {
			return err
		}
		if sd != nil {
			out = append(out, sd)
			return nil
		}
		if depth == 0 {
			return nil
		}
		for _, e := range ents {
			if isDir(fsys, d, e) {
				if err := walk(path.Join(d, e.Name()), depth-1); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if err := walk(dir, 2); err != nil {
		return nil, err
	}
	sort.SliceStable(out, func(i, j int) bool { return names.NaturalLess(out[i].Dir, out[j].Dir) })
	for _, d := range out {
		if err := CheckName(d.Name); err != nil {
			return nil, fmt.Errorf("%s: %w", names.Quoted(d.Dir), err)
		}
	}
	for _, d := range out {
		if parent := path.Dir(d.Dir); parent != path.Clean(dir) && parent != "." {
			d.Group = path.Base(parent)
		}
	}
	return out, nil
}

func readSysbenchDir(fsys fs.FS, dir string, ents []fs.DirEntry) (*SysbenchDir, error) {
	d := &SysbenchDir{Dir: dir, Name: path.Base(dir), PK: -1, Threads: map[string][]int{}, ModTime: map[string]time.Time{}}
	if dir == "." {
		d.Name = "."
	}
	found := false
	tests := map[string]SysbenchTest{}
	seen := map[string]map[int]bool{}
	for _, e := range ents {
		name := e.Name()
		if e.IsDir() || !strings.HasPrefix(name, "sb.") {
			continue
		}
		info, err := entryInfo(fsys, dir, e)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue // a link to nothing
		case err != nil:
			return nil, err
		case info.IsDir():
			continue
		}
		d.ModTime[name] = info.ModTime()
		if sfx, ok := strings.CutPrefix(name, "sb.prepare.o."); ok {
			found = true
			if d.Prepare == "" || sfx < d.Prepare {
				d.Prepare = sfx
			}
			continue
		}
		m := reSbRunFile.FindStringSubmatch(name)
		if m == nil {
			continue
		}
		t, ok := ParseSysbenchSfx(m[2])
		if !ok {
			continue
		}
		nt, err := strconv.Atoi(m[3])
		if err != nil || nt <= 0 {
			continue
		}
		if m[1] == "o" || m[1] == "met" {
			found = true
		}
		if seen[t.Sfx] == nil {
			seen[t.Sfx] = map[int]bool{}
			tests[t.Sfx] = t
		}
		if !seen[t.Sfx][nt] {
			seen[t.Sfx][nt] = true
			d.Threads[t.Sfx] = append(d.Threads[t.Sfx], nt)
		}
	}
	if !found {
		return nil, nil
	}
	for sfx := range d.Threads {
		sort.Ints(d.Threads[sfx])
	}
	for _, t := range tests {
		d.Tests = append(d.Tests, t)
	}
	sort.Slice(d.Tests, func(i, j int) bool { return d.Tests[i].Sfx < d.Tests[j].Sfx })
	SortSysbenchTests(d.Tests)
	if m := reSbDirName.FindStringSubmatch(d.Name); m != nil {
		d.DBMS, d.Config = m[1], m[2]
		d.PK, _ = strconv.Atoi(m[3])
	}
	return d, nil
}

// SysbenchRun is everything read for one test at one thread count: the
// sysbench output and the vmstat, iostat, ps and /usr/bin/time files
// recorded beside it, and the sb.met file an.sh computed from them. The
// prepare (load) step has the same shape, with Threads 0 and no time file.
type SysbenchRun struct {
	Dir     string
	Test    SysbenchTest
	Threads int
	Output  *SysbenchOutput // sb.o.<sfx>.dop<nt>
	Vmstat  *Vmstat         // sb.vm.…
	Iostat  *Iostat         // sb.io.…
	Ps      *PsSamples      // sb.ps.…
	Time    *Time           // sb.time.…
	// Met is the sb.met file, nil when there is none. A run that has one
	// is archived: its missing sb.vm, sb.io, sb.ps and sb.time files are
	// not problems (the HW values come from sb.met where sb.vm or sb.io is
	// missing).
	Met *SysbenchMet
	// Problems lists syntax errors and missing files; none is fatal.
	Problems []error
}

// ReadSysbenchRun reads the files of one test at nt threads. A missing or
// malformed file is recorded in Problems (the parsed part is kept), a
// missing sb.met only when it is malformed, and a missing sb.vm, sb.io,
// sb.ps or sb.time not when the run has sb.met; only I/O errors other than
// "not found" are returned.
func ReadSysbenchRun(fsys fs.FS, dir string, t SysbenchTest, nt int) (*SysbenchRun, error) {
	fsys = orNoInput(fsys)
	sfx := t.Sfx + ".dop" + strconv.Itoa(nt)
	r := &SysbenchRun{Dir: dir, Test: t, Threads: nt}
	var err error
	if r.Met, err = readMaybe(fsys, dir, "sb.met."+sfx, ReadSysbenchMet, &r.Problems, true); err != nil {
		return r, err
	}
	return r, r.read(fsys, "sb.o."+sfx, "sb.vm."+sfx, "sb.io."+sfx, "sb.ps."+sfx, "sb.time."+sfx)
}

// ReadSysbenchPrepare reads the load step, sb.prepare.{o,vm,io,ps}.<sfx>.
func ReadSysbenchPrepare(fsys fs.FS, dir, sfx string) (*SysbenchRun, error) {
	fsys = orNoInput(fsys)
	t, _ := ParseSysbenchSfx(sfx)
	r := &SysbenchRun{Dir: dir, Test: t}
	return r, r.read(fsys, "sb.prepare.o."+sfx, "sb.prepare.vm."+sfx, "sb.prepare.io."+sfx, "sb.prepare.ps."+sfx, "")
}

func (r *SysbenchRun) read(fsys fs.FS, o, vm, io, ps, tm string) error {
	var err error
	if r.Output, err = readFile(fsys, r.Dir, o, ReadSysbench, &r.Problems); err != nil {
		return err
	}
	// An archived run (one with sb.met) is not expected to have the rest.
	archived := r.Met != nil
	if r.Vmstat, err = readMaybe(fsys, r.Dir, vm, ReadVmstat, &r.Problems, archived); err != nil {
		return err
	}
	if r.Iostat, err = readMaybe(fsys, r.Dir, io, ReadIostat, &r.Problems, archived); err != nil {
		return err
	}
	if r.Ps, err = readMaybe(fsys, r.Dir, ps, ReadPs, &r.Problems, archived); err != nil {
		return err
	}
	if tm != "" {
		r.Time, err = readMaybe(fsys, r.Dir, tm, ReadTime, &r.Problems, archived)
	}
	return err
}
