package parse_test

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/ibreport/ibreport/parse"
)

// stepOpts shapes the files addStep writes.
type stepOpts struct {
	dop, clients int
	deletes      bool
}

// addStep writes a complete, well-formed step directory into m.
func addStep(m fstest.MapFS, dir string, o stepOpts) {
	put := func(name, content string) { m[dir+"/"+name] = &fstest.MapFile{Data: []byte(content)} }
	sfx := fmt.Sprintf("dop%d", o.dop)
	cmd := fmt.Sprintf("python3 iibench.py --dbms=postgres --max_rows=100 --dop=%d", o.dop)
	if o.deletes {
		cmd += " --delete_per_insert"
	}
	for n := 1; n <= o.clients; n++ {
		put(fmt.Sprintf("o.ib.%s.%d", sfx, n), join(cmd+fmt.Sprintf(" --my_id=%d", n), hdr17, stat17a, insHdr, insData, "Done"))
		put(fmt.Sprintf("o.ctime.%s.%d", sfx, n), join(timeLine1, timeLine2))
	}
	put("o.vm."+sfx, join(vmGroup, vmCols, vmRow1, vmRow2))
	put("o.io."+sfx, ioFile(ioInterval(ioHdrUB22, ioRowUB22)))
	put("o.ps."+sfx, join(psPg1, psPg2))
	put("o.dbsz."+sfx, "0.5\n")
	put("o.dbdirsz."+sfx, "1855920495\t../../pgdata.c1\n")
	put("o.res."+sfx, join(resLine1, ""))
	put("o.rt.c.insert", "not read by ReadStep\n")
}

func problemStrings(sd *parse.StepData) []string {
	var out []string
	for _, p := range sd.Problems {
		out = append(out, p.Error())
	}
	return out
}

func readStep(t *testing.T, fsys fs.FS, dir string) *parse.StepData {
	t.Helper()
	name := dir[strings.LastIndex(dir, "/")+1:]
	step, ok := parse.ParseStepName(name)
	if !ok {
		t.Fatalf("bad step name %q", name)
	}
	sd, err := parse.ReadStep(fsys, dir, step)
	if err != nil {
		t.Fatalf("ReadStep(%s): %v", dir, err)
	}
	return sd
}

func TestReadStepComplete(t *testing.T) {
	m := fstest.MapFS{}
	addStep(m, "t/l.i1", stepOpts{dop: 2, clients: 2, deletes: true})
	sd := readStep(t, m, "t/l.i1")
	if p := problemStrings(sd); len(p) != 0 {
		t.Errorf("Problems = %q", p)
	}
	if sd.Step.Kind != parse.LoadWithDeletes || !sd.Deletes() {
		t.Errorf("Kind = %v, Deletes() = %v; want load with deletes", sd.Step.Kind, sd.Deletes())
	}
	if sd.Dop != 2 || sd.Dir != "t/l.i1" || sd.Step.Name != "l.i1" {
		t.Errorf("Dop %d Dir %q Step %q", sd.Dop, sd.Dir, sd.Step.Name)
	}
	if len(sd.Clients) != 2 || sd.Clients[0].Name != "t/l.i1/o.ib.dop2.1" || sd.Clients[1].Name != "t/l.i1/o.ib.dop2.2" {
		t.Fatalf("Clients = %v", sd.Clients)
	}
	if v, _ := sd.Clients[1].Option("my_id"); v != "2" {
		t.Errorf("second client my_id = %q", v)
	}
	if len(sd.Times) != 2 || sd.Times[0] == nil || sd.Times[0].User != 5.17 || sd.Times[1].Name != "t/l.i1/o.ctime.dop2.2" {
		t.Errorf("Times = %v", sd.Times)
	}
	if sd.Vmstat == nil || len(sd.Vmstat.Samples) != 2 {
		t.Errorf("Vmstat = %+v", sd.Vmstat)
	}
	if sd.Iostat == nil || sd.Iostat.Layout != parse.UB22 || sd.Iostat.Name != "t/l.i1/o.io.dop2" {
		t.Errorf("Iostat = %+v", sd.Iostat)
	}
	if sd.Ps == nil || len(sd.Ps.Rows) != 2 {
		t.Errorf("Ps = %+v", sd.Ps)
	}
	if sd.DBSize == nil || sd.DBSize.Value != 0.5 || sd.DBDir == nil || sd.DBDir.Path != "../../pgdata.c1" {
		t.Errorf("DBSize = %+v, DBDir = %+v", sd.DBSize, sd.DBDir)
	}
	if sd.Res == nil || sd.Res.RealDop != 2 || sd.Res.Deletes != "yes" {
		t.Errorf("Res = %+v", sd.Res)
	}
}

func TestReadStepKinds(t *testing.T) {
	for _, tc := range []struct {
		dir     string
		deletes bool
		want    parse.StepKind
	}{
		{"t/l.i0", false, parse.Load},
		{"t/l.i1", false, parse.Load},
		{"t/l.i1", true, parse.LoadWithDeletes},
		{"t/l.x", false, parse.CreateIndex},
		{"t/qr100.L1", true, parse.ReadWriteRange},
		{"t/qp100.L2", true, parse.ReadWritePoint},
	} {
		m := fstest.MapFS{}
		addStep(m, tc.dir, stepOpts{dop: 1, clients: 1, deletes: tc.deletes})
		sd := readStep(t, m, tc.dir)
		if sd.Step.Kind != tc.want || sd.Deletes() != tc.deletes {
			t.Errorf("%s deletes=%v: Kind %v Deletes() %v, want %v", tc.dir, tc.deletes, sd.Step.Kind, sd.Deletes(), tc.want)
		}
	}
}

func TestReadStepMissingFiles(t *testing.T) {
	m := fstest.MapFS{}
	addStep(m, "t/l.i0", stepOpts{dop: 1, clients: 2})
	delete(m, "t/l.i0/o.vm.dop1")
	delete(m, "t/l.i0/o.ctime.dop1.2")
	delete(m, "t/l.i0/o.res.dop1")
	sd := readStep(t, m, "t/l.i0")
	want := []string{
		"t/l.i0/o.ctime.dop1.2: missing",
		"t/l.i0/o.vm.dop1: missing",
		"t/l.i0/o.res.dop1: missing",
	}
	if got := problemStrings(sd); !slices.Equal(got, want) {
		t.Errorf("Problems = %q, want %q", got, want)
	}
	for _, p := range sd.Problems {
		if parse.SyntaxErrors(p) != nil {
			t.Errorf("missing-file problem %q is a SyntaxError", p)
		}
	}
	if sd.Vmstat != nil || sd.Res != nil {
		t.Errorf("Vmstat %v Res %v, want nil for missing files", sd.Vmstat, sd.Res)
	}
	if len(sd.Times) != 2 || sd.Times[0] == nil || sd.Times[1] != nil {
		t.Errorf("Times = %v, want [time nil]", sd.Times)
	}
	if sd.Iostat == nil || sd.Ps == nil || len(sd.Clients) != 2 {
		t.Errorf("files present were not read: Iostat %v Ps %v Clients %d", sd.Iostat, sd.Ps, len(sd.Clients))
	}
}

func TestReadStepNoClientLogs(t *testing.T) {
	m := fstest.MapFS{}
	addStep(m, "t/l.i0", stepOpts{dop: 4, clients: 1})
	delete(m, "t/l.i0/o.ib.dop4.1")
	sd := readStep(t, m, "t/l.i0")
	if want := []string{"t/l.i0: no client logs (o.ib.dop<D>.<n>)"}; !slices.Equal(problemStrings(sd), want) {
		t.Errorf("Problems = %q, want %q", problemStrings(sd), want)
	}
	if sd.Dop != 4 {
		t.Errorf("Dop = %d, want 4 from o.res.dop4", sd.Dop)
	}
	if len(sd.Clients) != 0 || len(sd.Times) != 0 || sd.Vmstat == nil || sd.Res == nil {
		t.Errorf("Clients %d Times %d Vmstat %v Res %v", len(sd.Clients), len(sd.Times), sd.Vmstat, sd.Res)
	}
}

func TestReadStepEmptyDir(t *testing.T) {
	m := fstest.MapFS{"t/l.x": &fstest.MapFile{Mode: fs.ModeDir | 0o755}}
	sd := readStep(t, m, "t/l.x")
	want := []string{
		"t/l.x: no client logs (o.ib.dop<D>.<n>)",
		"t/l.x/o.vm.dop0: missing",
		"t/l.x/o.io.dop0: missing",
		"t/l.x/o.ps.dop0: missing",
		"t/l.x/o.dbsz.dop0: missing",
		"t/l.x/o.dbdirsz.dop0: missing",
		"t/l.x/o.res.dop0: missing",
	}
	if got := problemStrings(sd); !slices.Equal(got, want) {
		t.Errorf("Problems = %q, want %q", got, want)
	}
}

func TestReadStepTwoDops(t *testing.T) {
	m := fstest.MapFS{}
	addStep(m, "t/l.i0", stepOpts{dop: 2, clients: 1})
	m["t/l.i0/o.ib.dop4.1"] = &fstest.MapFile{Data: m["t/l.i0/o.ib.dop2.1"].Data}
	sd := readStep(t, m, "t/l.i0")
	if want := []string{"t/l.i0: client logs with two dop values (2 and 4)"}; !slices.Equal(problemStrings(sd), want) {
		t.Errorf("Problems = %q, want %q", problemStrings(sd), want)
	}
	if sd.Dop != 2 || len(sd.Clients) != 1 {
		t.Errorf("Dop %d, %d clients; want 2, 1", sd.Dop, len(sd.Clients))
	}
}

func TestReadStepClientOrder(t *testing.T) {
	m := fstest.MapFS{}
	addStep(m, "t/qr100.L1", stepOpts{dop: 10, clients: 10})
	sd := readStep(t, m, "t/qr100.L1")
	var names []string
	for _, c := range sd.Clients {
		names = append(names, c.Name[strings.LastIndex(c.Name, "/")+1:])
	}
	want := []string{"o.ib.dop10.1", "o.ib.dop10.2", "o.ib.dop10.3", "o.ib.dop10.4", "o.ib.dop10.5",
		"o.ib.dop10.6", "o.ib.dop10.7", "o.ib.dop10.8", "o.ib.dop10.9", "o.ib.dop10.10"}
	if !slices.Equal(names, want) {
		t.Errorf("clients in order %v, want %v", names, want)
	}
	if len(sd.Problems) != 0 {
		t.Errorf("Problems = %q", problemStrings(sd))
	}
}

func TestReadStepSyntaxErrorsBecomeProblems(t *testing.T) {
	m := fstest.MapFS{}
	addStep(m, "t/l.i0", stepOpts{dop: 1, clients: 1})
	m["t/l.i0/o.vm.dop1"] = &fstest.MapFile{Data: []byte(join(vmGroup, vmCols, vmRow1, "junk", vmRow2))}
	m["t/l.i0/o.ib.dop1.1"] = &fstest.MapFile{Data: []byte(join(cmdLine, hdr17, stat17a))}
	sd := readStep(t, m, "t/l.i0")
	want := []string{
		"t/l.i0/o.ib.dop1.1:3: log ends without the closing Done line (client crashed or was stopped)",
		"t/l.i0/o.vm.dop1:4: 1 fields, the header has 17",
	}
	if got := problemStrings(sd); !slices.Equal(got, want) {
		t.Errorf("Problems = %q, want %q", got, want)
	}
	for _, p := range sd.Problems {
		var se *parse.SyntaxError
		if !errors.As(p, &se) || se.File == "" || se.Line == 0 {
			t.Errorf("problem %q is not a positioned *SyntaxError", p)
		}
	}
	if sd.Vmstat == nil || len(sd.Vmstat.Samples) != 2 || len(sd.Clients) != 1 || !slices.Equal(intervalLines(sd.Clients[0]), []int{3}) {
		t.Errorf("files with syntax errors were not kept: Vmstat %+v, Clients %v", sd.Vmstat, sd.Clients)
	}
}

// failFS serves a MapFS but breaks one file: opening it fails with openErr,
// or, when openErr is nil, reading it fails with errBoom after at most 20
// bytes.
type failFS struct {
	fstest.MapFS
	name    string
	openErr error
}

func (f failFS) Open(name string) (fs.File, error) {
	file, err := f.MapFS.Open(name)
	if err != nil || name != f.name {
		return file, err
	}
	if f.openErr != nil {
		file.Close()
		return nil, f.openErr
	}
	return &failFile{File: file, left: 20}, nil
}

// ReadFile goes through Open, so that fs.ReadFile meets the broken file too
// (the promoted fstest.MapFS.ReadFile would bypass it).
func (f failFS) ReadFile(name string) ([]byte, error) {
	file, err := f.Open(name)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	return io.ReadAll(file)
}

type failFile struct {
	fs.File
	left int
}

func (f *failFile) Read(p []byte) (int, error) {
	if f.left <= 0 {
		return 0, errBoom
	}
	if len(p) > f.left {
		p = p[:f.left]
	}
	n, err := f.File.Read(p)
	f.left -= n
	if err == io.EOF {
		err = errBoom // a short file fails where it would have ended
	}
	return n, err
}

func TestReadStepIOError(t *testing.T) {
	for _, name := range []string{"o.ib.dop1.1", "o.ctime.dop1.1", "o.vm.dop1", "o.io.dop1", "o.ps.dop1", "o.dbsz.dop1", "o.dbdirsz.dop1", "o.res.dop1"} {
		m := fstest.MapFS{}
		addStep(m, "t/l.i0", stepOpts{dop: 1, clients: 1})
		step, _ := parse.ParseStepName("l.i0")
		sd, err := parse.ReadStep(failFS{MapFS: m, name: "t/l.i0/" + name}, "t/l.i0", step)
		if !errors.Is(err, errBoom) || sd != nil {
			t.Errorf("%s: ReadStep = %v, %v; want nil and an error wrapping %v", name, sd, err, errBoom)
			continue
		}
		if parse.SyntaxErrors(err) != nil {
			t.Errorf("%s: I/O error reported as a syntax error: %v", name, err)
		}
		if want := "t/l.i0/" + name + ": " + errBoom.Error(); err.Error() != want {
			t.Errorf("%s: error %q, want %q", name, err, want)
		}
	}
}

func TestReadStepOpenError(t *testing.T) {
	m := fstest.MapFS{}
	addStep(m, "t/l.i0", stepOpts{dop: 1, clients: 1})
	step, _ := parse.ParseStepName("l.i0")
	sd, err := parse.ReadStep(failFS{MapFS: m, name: "t/l.i0/o.ps.dop1", openErr: fs.ErrPermission}, "t/l.i0", step)
	if !errors.Is(err, fs.ErrPermission) || sd != nil {
		t.Errorf("ReadStep = %v, %v; want a permission error", sd, err)
	}
}

func TestReadStepMissingDir(t *testing.T) {
	step, _ := parse.ParseStepName("l.i0")
	sd, err := parse.ReadStep(fstest.MapFS{}, "t/l.i0", step)
	if !errors.Is(err, fs.ErrNotExist) || sd != nil {
		t.Errorf("ReadStep of a missing dir = %v, %v; want fs.ErrNotExist", sd, err)
	}
}

// treeSummary is "<name> <dir>: step/merge ..." for each tree.
func treeSummary(trees []*parse.Tree) []string {
	var out []string
	for _, t := range trees {
		var steps []string
		for _, s := range t.Steps {
			if s.MergeName != s.Name {
				steps = append(steps, s.Name+"="+s.MergeName)
			} else {
				steps = append(steps, s.Name)
			}
		}
		out = append(out, t.Name+" "+t.Dir+": "+strings.Join(steps, " "))
	}
	return out
}

func dirs(paths ...string) fstest.MapFS {
	m := fstest.MapFS{}
	for _, p := range paths {
		m[p] = &fstest.MapFile{Mode: fs.ModeDir | 0o755}
	}
	return m
}

func TestReadTree(t *testing.T) {
	for _, tc := range []struct {
		name string
		fsys fstest.MapFS
		dir  string
		want []string
	}{
		{
			name: "two trees, other entries ignored",
			fsys: func() fstest.MapFS {
				m := dirs("b/2m.pg.c2/l.i0", "b/2m.pg.c2/l.x", "b/2m.pg.c1/qr100.L1", "b/2m.pg.c1/l.i0",
					"b/2m.pg.c1/end", "b/2m.pg.c1/l.x", "b/res.x", "b/sum.2m.dop1/mrg.l.i0")
				m["b/notes.txt"] = &fstest.MapFile{Data: []byte("x")}
				m["b/2m.pg.c1/l.i1"] = &fstest.MapFile{Data: []byte("a file, not a step")}
				return m
			}(),
			dir: "b",
			want: []string{
				"2m.pg.c1 b/2m.pg.c1: l.i0 l.x qr100.L1",
				"2m.pg.c2 b/2m.pg.c2: l.i0 l.x",
			},
		},
		{
			name: "natural order of tree directories",
			fsys: dirs("b/20m.pg15.c1/l.i0", "b/2m.pg15.c1/l.i0", "b/20m.pg9.c1/l.i0", "b/20m.pg15.c10/l.i0", "b/20m.pg15.c2/l.i0"),
			dir:  "b",
			want: []string{
				"2m.pg15.c1 b/2m.pg15.c1: l.i0",
				"20m.pg9.c1 b/20m.pg9.c1: l.i0",
				"20m.pg15.c1 b/20m.pg15.c1: l.i0",
				"20m.pg15.c2 b/20m.pg15.c2: l.i0",
				"20m.pg15.c10 b/20m.pg15.c10: l.i0",
			},
		},
		{
			name: "one grouping level is searched, two are not",
			fsys: dirs("b/8u.1tyes/20m.my.c1/l.i0", "b/1u.1tno/20m.pg.c1/l.i0", "b/1u.1tno/20m.pg.c1/l.x",
				"b/deep/er/20m.x.c1/l.i0", "b/2m.a.c1/l.i0"),
			dir: "b",
			want: []string{
				"20m.pg.c1 b/1u.1tno/20m.pg.c1: l.i0 l.x",
				"2m.a.c1 b/2m.a.c1: l.i0",
				"20m.my.c1 b/8u.1tyes/20m.my.c1: l.i0",
			},
		},
		{
			name: "the directory is itself a tree",
			fsys: dirs("b/2m.pg.c1/l.x", "b/2m.pg.c1/l.i0", "b/2m.pg.c1/other/l.i0"),
			dir:  "b/2m.pg.c1",
			want: []string{"2m.pg.c1 b/2m.pg.c1: l.i0 l.x"},
		},
		{
			name: "the root is a tree",
			fsys: dirs("l.i0", "l.x", "qr100.L1"),
			dir:  ".",
			want: []string{". .: l.i0 l.x qr100.L1"},
		},
		{
			name: "Jun 2020 generation merge names",
			fsys: dirs("b/20m.my.c1/l.i0", "b/20m.my.c1/l.x", "b/20m.my.c1/l.i1", "b/20m.my.c1/q.L2.ips100",
				"b/20m.my.c1/q.L1.ips100", "b/20m.my.c1/q.L3.ips200", "b/20m.my.c1/q.L4.ips200", "b/20m.my.c1/q.L10.ips1000"),
			dir: "b",
			want: []string{"20m.my.c1 b/20m.my.c1: l.i0 l.x l.i1 q.L1.ips100=q100.1 q.L2.ips100=q100.2 " +
				"q.L3.ips200=q200.1 q.L4.ips200=q200.2 q.L10.ips1000=q1000.1"},
		},
		{
			name: "Nov 2021 generation merge names",
			fsys: dirs("b/t/l.i0", "b/t/q.L3.ips1000", "b/t/q.L2.ips500", "b/t/q.L1.ips100"),
			dir:  "b",
			want: []string{"t b/t: l.i0 q.L1.ips100=q100.1 q.L2.ips500=q500.1 q.L3.ips1000=q1000.1"},
		},
		{
			name: "merge-name directories keep their names",
			fsys: dirs("b/t/q100.1", "b/t/l.i0", "b/t/l.x", "b/t/q500.1"),
			dir:  "b",
			want: []string{"t b/t: l.i0 l.x q100.1 q500.1"},
		},
		{
			name: "no trees",
			fsys: dirs("b/x/y", "b/z"),
			dir:  "b",
			want: nil,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			trees, err := parse.ReadTree(tc.fsys, tc.dir)
			if err != nil {
				t.Fatal(err)
			}
			if got := treeSummary(trees); !slices.Equal(got, tc.want) {
				t.Errorf("trees:\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}

func TestReadTreeOldStepKinds(t *testing.T) {
	trees, err := parse.ReadTree(dirs("t/q.L1.ips100", "t/q.L2.ips100", "t/q100.1"), "t")
	if err != nil {
		t.Fatal(err)
	}
	if len(trees) != 1 || len(trees[0].Steps) != 3 {
		t.Fatalf("trees = %q", treeSummary(trees))
	}
	for _, s := range trees[0].Steps {
		if s.Kind != parse.ReadWriteRange || s.Rate != 100 {
			t.Errorf("%s: Kind %v Rate %d, want read+write range at 100", s.Name, s.Kind, s.Rate)
		}
	}
	byName := map[string]parse.Step{}
	for _, s := range trees[0].Steps {
		byName[s.Name] = s
	}
	if s := byName["q.L2.ips100"]; s.MergeName != "q100.2" || s.Seq != 2 {
		t.Errorf("q.L2.ips100 = %+v, want MergeName q100.2 Seq 2", s)
	}
	if s := byName["q100.1"]; s.MergeName != "q100.1" || s.Seq != 1 {
		t.Errorf("q100.1 = %+v, want MergeName q100.1 Seq 1", s)
	}
}

func TestReadTreeErrors(t *testing.T) {
	if trees, err := parse.ReadTree(fstest.MapFS{}, "missing"); !errors.Is(err, fs.ErrNotExist) || trees != nil {
		t.Errorf("ReadTree(missing) = %v, %v; want fs.ErrNotExist", trees, err)
	}
	m := fstest.MapFS{"f": &fstest.MapFile{Data: []byte("x")}}
	if trees, err := parse.ReadTree(m, "f"); err == nil || trees != nil {
		t.Errorf("ReadTree(a file) = %v, %v; want an error", trees, err)
	}
}

// readDirFailFS fails ReadDir of one directory, as an unreadable
// subdirectory would.
type readDirFailFS struct {
	fstest.MapFS
	dir string
}

func (f readDirFailFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if name == f.dir {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: errBoom}
	}
	return f.MapFS.ReadDir(name)
}

func TestReadTreeSubdirError(t *testing.T) {
	fsys := readDirFailFS{MapFS: dirs("b/t1/l.i0", "b/t2/l.i0"), dir: "b/t2"}
	trees, err := parse.ReadTree(fsys, "b")
	if !errors.Is(err, errBoom) || trees != nil {
		t.Errorf("ReadTree = %q, %v; want the ReadDir error", treeSummary(trees), err)
	}
}

// Make sure the failing file really fails, so that TestReadStepIOError tests
// what it claims.
func TestFailFSReads(t *testing.T) {
	m := fstest.MapFS{"a": &fstest.MapFile{Data: []byte(strings.Repeat("x", 100))}}
	f, err := failFS{MapFS: m, name: "a"}.Open("a")
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(f)
	if len(b) != 20 || !errors.Is(err, errBoom) {
		t.Errorf("ReadAll = %d bytes, %v", len(b), err)
	}
}
