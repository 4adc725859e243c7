package parse

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/ibreport/ibreport/internal/names"
)

// Tree is the result tree of one DBMS configuration, e.g. 20m.pg131.cx5/.
type Tree struct {
	Name  string // directory name, the tag of the original reports
	Dir   string // path inside the fs.FS
	Steps []Step // in report order
}

// RowPrefix returns the "<N>m" prefix of a tree name ("20m" of
// "20m.pg131.cx5"), or "" when the name has none.
func RowPrefix(name string) string {
	if m := rePrefix.FindStringSubmatch(name); m != nil {
		return m[1]
	}
	return ""
}

var rePrefix = regexp.MustCompile(`^([0-9]+m)\.`)

// ReadTree finds the DBMS trees below dir: dir itself when it holds step
// directories, otherwise its subdirectories (one more level is searched, for
// the <dop>u.1t<x>/ grouping of the run drivers). Symbolic links to folders
// are followed, but not back into an enclosing folder (a loop). Trees are
// returned in natural sort order of their paths.
func ReadTree(fsys fs.FS, dir string) ([]*Tree, error) {
	fsys = orNoInput(fsys)
	if t, err := readOneTree(fsys, dir); err != nil {
		return nil, err
	} else if t != nil {
		return []*Tree{t}, nil
	}
	var trees []*Tree
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
		for _, e := range ents {
			sub := path.Join(d, e.Name())
			if !isDir(fsys, d, e) {
				continue
			}
			t, err := readOneTree(fsys, sub)
			if err != nil {
				return err
			}
			switch {
			case t != nil:
				trees = append(trees, t)
			case RowPrefix(e.Name()) != "":
				// Named like a DBMS tree (<N>m.<dbms>…) but without a step
				// folder: a run that wrote nothing. Keep it, so that its
				// steps are NA with a reason instead of the DBMS vanishing.
				if err := CheckName(e.Name()); err != nil {
					return fmt.Errorf("%s: %w", names.Quoted(sub), err)
				}
				trees = append(trees, &Tree{Name: e.Name(), Dir: sub})
			case depth > 0:
				if err := walk(sub, depth-1); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if err := walk(dir, 1); err != nil {
		return nil, err
	}
	sort.SliceStable(trees, func(i, j int) bool { return names.NaturalLess(trees[i].Dir, trees[j].Dir) })
	return trees, nil
}

func readOneTree(fsys fs.FS, dir string) (*Tree, error) {
	ents, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, err
	}
	var steps []Step
	for _, e := range ents {
		if !isDir(fsys, dir, e) {
			continue
		}
		if s, ok := ParseStepName(e.Name()); ok {
			steps = append(steps, s)
		}
	}
	if len(steps) == 0 {
		return nil, nil
	}
	SortSteps(steps)
	assignMergeNames(steps)
	name := path.Base(dir)
	if dir == "." {
		name = "."
	}
	if err := CheckName(name); err != nil {
		return nil, fmt.Errorf("%s: %w", names.Quoted(dir), err)
	}
	return &Tree{Name: name, Dir: dir, Steps: steps}, nil
}

// CheckSteps refuses two step folders of the tree that are one step of the
// report (one mrg name, e.g. q.L1.ips100 and q100.1): the report knows a
// step by that name, so one of them would be left out of sight. Which of
// the two holds the run meant cannot be told, so it is an error naming
// both, for the user to move one away.
func (t *Tree) CheckSteps() error {
	if t == nil {
		return errors.New("nil tree")
	}
	seen := map[string]string{}
	for _, s := range t.Steps {
		if other, ok := seen[s.MergeName]; ok {
			return fmt.Errorf("step folders %s and %s are both step %s; move one of them out of the tree",
				path.Join(t.Dir, other), path.Join(t.Dir, s.Name), s.MergeName)
		}
		seen[s.MergeName] = s.Name
	}
	return nil
}

// CheckName refuses a DBMS name that cannot be shown safely in every
// output: one with control characters (a newline would split a table row
// or start a CI annotation) or that is not UTF-8.
func CheckName(name string) error {
	if !utf8.ValidString(name) {
		return fmt.Errorf("the name %q is not UTF-8", name)
	}
	for _, r := range name {
		if r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 {
			return fmt.Errorf("the name %q has a control character; rename the folder", name)
		}
	}
	return nil
}

// StepData is everything read from one step directory.
type StepData struct {
	Step    Step
	Dir     string
	Dop     int          // the D of the dop<D> file suffix
	Clients []*ClientLog // o.ib.dop<D>.<n>, by n
	Times   []*Time      // o.ctime.dop<D>.<n>, by n
	Vmstat  *Vmstat
	Iostat  *Iostat
	Ps      *PsSamples
	DBSize  *DBSize // o.dbsz.dop<D>
	DBDir   *DBSize // o.dbdirsz.dop<D>
	Res     *Res    // o.res.dop<D>, the driver's own summary
	// Problems lists syntax errors and missing files; none of them is fatal.
	Problems []error
}

var reClientFile = regexp.MustCompile(`^o\.ib\.dop([0-9]+)\.([0-9]+)$`)

// ReadStep reads the raw files of one step directory. A missing or malformed
// file is recorded in Problems and leaves the corresponding field nil; only
// I/O errors other than "not found" are returned.
func ReadStep(fsys fs.FS, dir string, step Step) (*StepData, error) {
	return ScanStep(fsys, dir, step, StepSinks{})
}

// StepSinks receive the records of a step's large files as ScanStep reads
// them. A nil sink keeps the records of its file in the StepData instead.
// The records passed are reused after the call returns.
type StepSinks struct {
	// Interval gets the stats lines of the client logs; client is the
	// log's index in StepData.Clients.
	Interval func(client int, iv *Interval)
	// ClientSize, when not nil, gets the size in bytes of each client log
	// before its stats lines, for a sink to reserve room for them.
	ClientSize func(client int, size int64)
	Iostat     func(s *Iostat, row *IostatRow)
	// IostatDevice, when not "", is the only device whose iostat rows
	// Iostat gets (ScanIostatDevice).
	IostatDevice string
	Vmstat       func(s *VmstatSample)
	Ps           func(row *PsRow)
}

// ScanStep reads a step like ReadStep, handing the records of the client
// logs, iostat, vmstat and ps files to the sinks as they are read, so that
// memory does not grow with the length of the step.
func ScanStep(fsys fs.FS, dir string, step Step, sinks StepSinks) (*StepData, error) {
	fsys = orNoInput(fsys)
	sd := &StepData{Step: step, Dir: dir}
	// A kept client log reserves room for its intervals from its size:
	// growing the slice by doubling copies it about once.
	readClient := func(r io.Reader, name string) (*ClientLog, error) {
		var size int64
		if f, ok := r.(interface{ Stat() (fs.FileInfo, error) }); ok {
			if st, err := f.Stat(); err == nil {
				size = st.Size()
			}
		}
		return scanClientLog(r, name, size, nil)
	}
	readIostat := ReadIostat
	readVmstat := ReadVmstat
	readPs := ReadPs
	if sinks.Interval != nil {
		readClient = func(r io.Reader, name string) (*ClientLog, error) {
			i := len(sd.Clients)
			if f, ok := r.(interface{ Stat() (fs.FileInfo, error) }); ok && sinks.ClientSize != nil {
				if st, err := f.Stat(); err == nil {
					sinks.ClientSize(i, st.Size())
				}
			}
			return ScanClientLog(r, name, func(iv *Interval) { sinks.Interval(i, iv) })
		}
	}
	if sinks.Iostat != nil {
		readIostat = func(r io.Reader, name string) (*Iostat, error) {
			return ScanIostatDevice(r, name, sinks.IostatDevice, sinks.Iostat)
		}
	}
	if sinks.Vmstat != nil {
		readVmstat = func(r io.Reader, name string) (*Vmstat, error) { return ScanVmstat(r, name, sinks.Vmstat) }
	}
	if sinks.Ps != nil {
		readPs = func(r io.Reader, name string) (*PsSamples, error) { return ScanPs(r, name, sinks.Ps) }
	}
	ents, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, err
	}
	var nums []int
	for _, e := range ents {
		m := reClientFile.FindStringSubmatch(e.Name())
		if m == nil || e.IsDir() {
			continue
		}
		d, _ := strconv.Atoi(m[1])
		n, _ := strconv.Atoi(m[2])
		if sd.Dop == 0 {
			sd.Dop = d
		} else if d != sd.Dop {
			sd.Problems = append(sd.Problems, fmt.Errorf("%s: client logs with two dop values (%d and %d)", dir, sd.Dop, d))
			continue
		}
		nums = append(nums, n)
	}
	sort.Ints(nums)
	if len(nums) == 0 {
		sd.Problems = append(sd.Problems, fmt.Errorf("%s: no client logs (o.ib.dop<D>.<n>)", dir))
		// Other files may still name the dop.
		for _, e := range ents {
			if strings.HasPrefix(e.Name(), "o.res.dop") {
				sd.Dop, _ = strconv.Atoi(strings.TrimPrefix(e.Name(), "o.res.dop"))
			}
		}
	}
	sfx := "dop" + strconv.Itoa(sd.Dop)
	for _, n := range nums {
		name := fmt.Sprintf("o.ib.%s.%d", sfx, n)
		c, err := readFile(fsys, dir, name, readClient, &sd.Problems)
		if err != nil {
			return nil, err
		}
		if c != nil {
			sd.Clients = append(sd.Clients, c)
		}
		t, err := readFile(fsys, dir, fmt.Sprintf("o.ctime.%s.%d", sfx, n), ReadTime, &sd.Problems)
		if err != nil {
			return nil, err
		}
		sd.Times = append(sd.Times, t)
	}
	if sd.Vmstat, err = readFile(fsys, dir, "o.vm."+sfx, readVmstat, &sd.Problems); err != nil {
		return nil, err
	}
	if sd.Iostat, err = readFile(fsys, dir, "o.io."+sfx, readIostat, &sd.Problems); err != nil {
		return nil, err
	}
	if sd.Ps, err = readFile(fsys, dir, "o.ps."+sfx, readPs, &sd.Problems); err != nil {
		return nil, err
	}
	if sd.DBSize, err = readFile(fsys, dir, "o.dbsz."+sfx, ReadDBSize, &sd.Problems); err != nil {
		return nil, err
	}
	if sd.DBDir, err = readFile(fsys, dir, "o.dbdirsz."+sfx, ReadDBSize, &sd.Problems); err != nil {
		return nil, err
	}
	if sd.Res, err = readFile(fsys, dir, "o.res."+sfx, ReadRes, &sd.Problems); err != nil {
		return nil, err
	}
	if sd.Step.Kind == Load && sd.Deletes() {
		sd.Step.Kind = LoadWithDeletes
	}
	return sd, nil
}

// Deletes reports whether the step deleted rows as it inserted them: some
// client ran with --delete_per_insert.
func (sd *StepData) Deletes() bool {
	if sd == nil {
		return false
	}
	for _, c := range sd.Clients {
		if _, ok := c.Option("delete_per_insert"); ok {
			return true
		}
	}
	return false
}

// readFile opens dir/name and parses it. A missing file and syntax errors go
// to problems (the parsed value is still returned when there is one); other
// errors are returned.
func readFile[T any](fsys fs.FS, dir, name string, read func(io.Reader, string) (*T, error), problems *[]error) (*T, error) {
	return readMaybe(fsys, dir, name, read, problems, false)
}

// readMaybe is readFile, but when optional is set a missing file is not a
// problem.
func readMaybe[T any](fsys fs.FS, dir, name string, read func(io.Reader, string) (*T, error), problems *[]error, optional bool) (*T, error) {
	p := path.Join(dir, name)
	f, err := OpenRegular(fsys, p)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			if !optional {
				*problems = append(*problems, fmt.Errorf("%s: missing", p))
			}
			return nil, nil
		}
		if IsNotRegular(err) {
			// Skipped, not opened: a FIFO would block the run, a link to
			// a device would never end.
			*problems = append(*problems, fmt.Errorf("%w; skipped", err))
			return nil, nil
		}
		return nil, err
	}
	defer f.Close()
	v, err := read(f, p)
	if err != nil {
		if se := SyntaxErrors(err); se != nil {
			for _, e := range se {
				*problems = append(*problems, e)
			}
			return v, nil
		}
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	return v, nil
}

// ReadClientOptions reads only the command lines of the client logs of a
// step directory: the options each client ran with, in client order. A log
// without a command line gives an empty map.
func ReadClientOptions(fsys fs.FS, dir string) ([]map[string]string, error) {
	fsys = orNoInput(fsys)
	ents, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, err
	}
	type log struct {
		n    int
		name string
	}
	var logs []log
	for _, e := range ents {
		if m := reClientFile.FindStringSubmatch(e.Name()); m != nil && !e.IsDir() {
			n, _ := strconv.Atoi(m[2])
			logs = append(logs, log{n, e.Name()})
		}
	}
	sort.Slice(logs, func(i, j int) bool { return logs[i].n < logs[j].n })
	var out []map[string]string
	for _, l := range logs {
		f, err := OpenRegular(fsys, path.Join(dir, l.name))
		if IsNotRegular(err) {
			out = append(out, map[string]string{}) // ScanStep warns of it
			continue
		}
		if err != nil {
			return nil, err
		}
		sc := newLineScanner(f)
		opts := map[string]string{}
		if sc.Scan() && strings.Contains(sc.Text(), "iibench") {
			parseOptions(fields(sc.Text()), opts)
		}
		err = sc.Err()
		sc.release()
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path.Join(dir, l.name), err)
		}
		out = append(out, opts)
	}
	return out, nil
}
