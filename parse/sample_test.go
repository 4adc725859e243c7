package parse_test

import (
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/ibreport/ibreport/parse"
)

// Tests on the real result files of testdata/example (two PostgreSQL 15
// configurations, dop 2, ten steps each) and on the reference tables the
// original scripts wrote for them.

var exampleTrees = []string{"2m.pg15.c1", "2m.pg15.c2"}

func openSample[T any](t *testing.T, rel string, read func(io.Reader, string) (*T, error)) (*T, error) {
	t.Helper()
	f, err := os.DirFS(exampleDir).Open(rel)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	return read(f, rel)
}

func TestSampleClientLogLoadWithDeletes(t *testing.T) {
	c, err := openSample(t, "2m.pg15.c1/l.i1/o.ib.dop2.1", parse.ReadClientLog)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Columns) != 17 || c.HeaderLine != 2 || !c.Done || c.Lines != 54 {
		t.Errorf("columns %d, header line %d, Done %v, Lines %d", len(c.Columns), c.HeaderLine, c.Done, c.Lines)
	}
	if c.Name != "2m.pg15.c1/l.i1/o.ib.dop2.1" {
		t.Errorf("Name = %q", c.Name)
	}
	if len(c.Intervals) != 42 || c.Intervals[0].Line != 5 || c.Intervals[41].Line != 46 {
		t.Fatalf("%d intervals", len(c.Intervals))
	}
	last := c.Intervals[41]
	if last.Get(parse.TSec) != 42 || last.Get(parse.TIns) != 600000 || last.Get(parse.TDel) != 600000 || last.Get(parse.IIps) != 9348 {
		t.Errorf("last interval = %v", last.Values)
	}
	if c.WidthLines != 43 {
		t.Errorf("WidthLines = %d, want 43 (header and 42 stats lines)", c.WidthLines)
	}
	ins, del := c.Hist(parse.Insert), c.Hist(parse.Delete)
	if ins == nil || del == nil {
		t.Fatalf("histograms: insert %v delete %v", ins, del)
	}
	if !slices.Equal(ins.Counts, []int64{0, 0, 9708, 2248, 27, 17, 0, 0, 0, 0}) || ins.Max != 0.088891 || ins.Pos.Line != 48 {
		t.Errorf("insert histogram = %+v", ins)
	}
	if !slices.Equal(del.Counts, []int64{0, 2456, 8943, 568, 21, 12, 0, 0, 0, 0}) || del.Max != 0.088138 || del.Pos.Line != 50 {
		t.Errorf("delete histogram = %+v", del)
	}
	if c.Hist(parse.Query) != nil {
		t.Error("l.i1 has no query thread, but Hist(Query) is not nil")
	}
	if _, ok := c.Option("delete_per_insert"); !ok {
		t.Error("--delete_per_insert not found")
	}
	if c.IntOption("max_rows", 0) != 600000 || c.IntOption("rows_per_commit", 0) != 50 || c.IntOption("my_id", 0) != 1 {
		t.Errorf("options = %v", c.Options)
	}
}

func TestSampleClientLogReadWrite(t *testing.T) {
	c, err := openSample(t, "2m.pg15.c1/qr100.L1/o.ib.dop2.1", parse.ReadClientLog)
	if err != nil {
		t.Fatal(err)
	}
	q := c.Hist(parse.Query)
	if q == nil || q.Counts[0] != 524908 || q.Max != 0.007827 {
		t.Fatalf("query histogram = %+v", q)
	}
	last := c.Intervals[len(c.Intervals)-1]
	if last.Get(parse.TQuery) != 531040 || last.Get(parse.TIns) != 3000 {
		t.Errorf("last interval = %v", last.Values)
	}
	if c.IntOption("inserts_per_second", 0) != 100 || c.IntOption("query_threads", 0) != 1 {
		t.Errorf("options = %v", c.Options)
	}
}

func TestSampleFilesParseCleanly(t *testing.T) {
	for _, tc := range []struct {
		pattern string
		read    func(io.Reader, string) (any, error)
	}{
		{"o.ib.dop*", wrap(parse.ReadClientLog)},
		{"o.vm.dop*", wrap(parse.ReadVmstat)},
		{"o.io.dop*", wrap(parse.ReadIostat)},
		{"o.ps.dop*", wrap(parse.ReadPs)},
		{"o.ctime.dop*", wrap(parse.ReadTime)},
		{"o.res.dop*", wrap(parse.ReadRes)},
		{"o.dbsz.dop*", wrap(parse.ReadDBSize)},
		{"o.dbdirsz.dop*", wrap(parse.ReadDBSize)},
	} {
		files := sampleFiles(t, tc.pattern)
		for _, file := range files {
			_, err := tc.read(strings.NewReader(readSample(t, file)), file)
			if err != nil {
				t.Errorf("%s: %v", file, err)
			}
		}
	}
}

func TestSampleClientLogsAreComplete(t *testing.T) {
	for _, file := range sampleFiles(t, "o.ib.dop*") {
		c, _ := parse.ReadClientLog(strings.NewReader(readSample(t, file)), file)
		if len(c.Columns) != 17 || !c.Done || c.Hist(parse.Insert) == nil || len(c.Intervals) == 0 {
			t.Errorf("%s: %d columns, Done %v, insert histogram %v, %d intervals",
				file, len(c.Columns), c.Done, c.Hist(parse.Insert) != nil, len(c.Intervals))
		}
		step := filepath.Base(filepath.Dir(file))
		readWrite := strings.HasPrefix(step, "q")
		if got := c.Hist(parse.Query) != nil; got != readWrite {
			t.Errorf("%s: query histogram present = %v, want %v", file, got, readWrite)
		}
	}
}

func TestSampleIostat(t *testing.T) {
	for _, tree := range exampleTrees {
		for _, step := range currentSteps {
			rel := tree + "/" + step + "/o.io.dop2"
			s, err := openSample(t, rel, parse.ReadIostat)
			if err != nil {
				t.Errorf("%s: %v", rel, err)
				continue
			}
			if s.Layout != parse.UB22 || s.CPUs != 2 || !slices.Equal(s.Devices(), []string{"vda"}) || s.BusiestDevice() != "vda" {
				t.Errorf("%s: layout %q, CPUs %d, devices %v, busiest %q", rel, s.Layout, s.CPUs, s.Devices(), s.BusiestDevice())
			}
			if len(s.Rows) != s.Intervals || s.Intervals == 0 {
				t.Errorf("%s: %d rows in %d intervals, want one per interval", rel, len(s.Rows), s.Intervals)
			}
		}
	}
	s, _ := openSample(t, "2m.pg15.c1/l.i1/o.io.dop2", parse.ReadIostat)
	first := s.Rows[0]
	if first.Line != 8 || first.Values[s.Col.WKB] != 144652 || first.Values[s.Col.WS] != 2178 || first.Values[s.Col.RKB] != 96 {
		t.Errorf("first row = %+v", first)
	}
}

func TestSampleVmstat(t *testing.T) {
	v, err := openSample(t, "2m.pg15.c1/l.i1/o.vm.dop2", parse.ReadVmstat)
	if err != nil {
		t.Fatal(err)
	}
	if v.GroupHeaders != 3 || v.ColumnHeaders != 3 || len(v.Samples) != 44 || v.Lines != 50 || len(v.Columns) != 17 {
		t.Errorf("headers %d/%d, %d samples, %d lines, %d columns", v.GroupHeaders, v.ColumnHeaders, len(v.Samples), v.Lines, len(v.Columns))
	}
	if s := v.Samples[0]; !s.SinceBoot || s.Line != 3 || s.Cs != 1560 || s.Us != 9 || s.Sy != 7 || s.Wa != 1 {
		t.Errorf("first sample = %+v", s)
	}
	for _, s := range v.Samples[1:] {
		if s.SinceBoot {
			t.Errorf("line %d flagged SinceBoot", s.Line)
		}
	}
}

func TestSamplePsTimeDBSizeRes(t *testing.T) {
	p, err := openSample(t, "2m.pg15.c1/l.i1/o.ps.dop2", parse.ReadPs)
	if err != nil || len(p.Rows) != 18 || p.LargestUser() != "postgres" || p.Samples != 0 {
		t.Errorf("ps: %v, %d rows, largest %q", err, len(p.Rows), p.LargestUser())
	}
	tm, err := openSample(t, "2m.pg15.c1/l.i1/o.ctime.dop2.1", parse.ReadTime)
	if err != nil || tm.User != 5.17 || tm.System != 1.87 || tm.Elapsed != 42.15 || tm.Line != 1 || tm.Status != "" {
		t.Errorf("time: %v, %+v", err, tm)
	}
	d, err := openSample(t, "2m.pg15.c1/l.i1/o.dbsz.dop2", parse.ReadDBSize)
	if err != nil || d.Value != 0.70812926348298788071 || d.Path != "" {
		t.Errorf("dbsz: %v, %+v", err, d)
	}
	d, err = openSample(t, "2m.pg15.c1/l.i1/o.dbdirsz.dop2", parse.ReadDBSize)
	if err != nil || d.Value != 1855920495 || d.Path != "../../pgdata.c1" {
		t.Errorf("dbdirsz: %v, %+v", err, d)
	}
	r, err := openSample(t, "2m.pg15.c1/l.i1/o.res.dop2", parse.ReadRes)
	if err != nil || r.RealDop != 2 || r.MaxRows != 600000 || r.TotSecs != 43 || r.InsertRate != "27906.9" ||
		r.InsertPer != "13953.4" || r.QueryRate != "0" || r.Deletes != "yes" || len(r.Lines) != 59 {
		t.Errorf("res: %v, %+v", err, r)
	}
	if r.Line(3) != "iostat, vmstat normalized by insert rate" {
		t.Errorf("res line 3 = %q", r.Line(3))
	}
	r, _ = openSample(t, "2m.pg15.c1/qr100.L1/o.res.dop2", parse.ReadRes)
	if r.TotalQuery != 1060976 || r.QueryRate != "34225.0" {
		t.Errorf("qr100.L1 res: %+v", r)
	}
}

// The reference tables the original scripts wrote for the example trees.
func TestSampleReferenceTables(t *testing.T) {
	var files []string
	for _, pat := range []string{"res/mrg.*", "res/rel.*", "sum/o.sum.t.*"} {
		m, err := filepath.Glob(filepath.Join("..", "testdata", "ibench", "reference", pat))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range m {
			if !strings.HasSuffix(f, ".ips") && !strings.HasSuffix(f, ".qps") {
				files = append(files, f)
			}
		}
	}
	if len(files) < 20 {
		t.Fatalf("only %d reference tables", len(files))
	}
	for _, file := range files {
		tb, err := parse.ReadTable(strings.NewReader(readSample(t, file)), file)
		if err != nil {
			t.Errorf("%s: %v", file, err)
			continue
		}
		if len(tb.Header) != 21 || tb.Header[0] != "ips" || tb.Header[20] != "tag" {
			t.Errorf("%s: header %q", file, tb.Header)
		}
		rows := 0
		for _, l := range tb.Lines[1:] {
			if l.Kind != parse.TableRow {
				t.Errorf("%s:%d: kind %d, want a row", file, l.Line, l.Kind)
			}
			rows++
		}
		if rows == 0 {
			t.Errorf("%s: no rows", file)
		}
	}
}

func TestSampleReadTree(t *testing.T) {
	trees, err := parse.ReadTree(os.DirFS(exampleDir), ".")
	if err != nil {
		t.Fatal(err)
	}
	if len(trees) != 2 {
		t.Fatalf("%d trees: %q", len(trees), treeSummary(trees))
	}
	for i, tr := range trees {
		if tr.Name != exampleTrees[i] || tr.Dir != exampleTrees[i] {
			t.Errorf("tree %d: Name %q Dir %q, want %q", i, tr.Name, tr.Dir, exampleTrees[i])
		}
		if got := stepNames(tr.Steps); !slices.Equal(got, currentSteps) {
			t.Errorf("%s steps = %v, want %v", tr.Name, got, currentSteps)
		}
		if parse.RowPrefix(tr.Name) != "2m" {
			t.Errorf("RowPrefix(%q) = %q", tr.Name, parse.RowPrefix(tr.Name))
		}
	}
	// The tree directory itself.
	trees, err = parse.ReadTree(os.DirFS(exampleDir), "2m.pg15.c2")
	if err != nil || len(trees) != 1 || trees[0].Name != "2m.pg15.c2" || len(trees[0].Steps) != 10 {
		t.Errorf("ReadTree(2m.pg15.c2) = %q, %v", treeSummary(trees), err)
	}
	// The parent directory: the example trees are one grouping level down.
	trees, err = parse.ReadTree(os.DirFS(".."), "testdata")
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for _, tr := range trees {
		dirs = append(dirs, tr.Dir)
	}
	// testdata/longnames links to the example trees under real-length
	// names; links are followed as folders.
	want := []string{"testdata/example/2m.pg15.c1", "testdata/example/2m.pg15.c2",
		"testdata/longnames/2m.fbmy5635_rel.cy9c_4g_gcp_c2s30_old",
		"testdata/longnames/2m.fbmy8028_rel_lto.cy9c_4g_gcp_c2s30_new",
		"testdata/longnames/2m.fbmy8032_rel_lto_pgo.cy9c_4g_gcp_c2s30_new"}
	if !slices.Equal(dirs, want) {
		t.Errorf("ReadTree(..) dirs = %q, want %q", dirs, want)
	}
}

func TestSampleReadStep(t *testing.T) {
	fsys := os.DirFS(exampleDir)
	trees, err := parse.ReadTree(fsys, ".")
	if err != nil {
		t.Fatal(err)
	}
	wantKind := map[string]parse.StepKind{
		"l.i0": parse.Load, "l.x": parse.CreateIndex, "l.i1": parse.LoadWithDeletes, "l.i2": parse.LoadWithDeletes,
		"qr100.L1": parse.ReadWriteRange, "qp100.L2": parse.ReadWritePoint, "qr500.L3": parse.ReadWriteRange,
		"qp500.L4": parse.ReadWritePoint, "qr1000.L5": parse.ReadWriteRange, "qp1000.L6": parse.ReadWritePoint,
	}
	for _, tr := range trees {
		for _, step := range tr.Steps {
			dir := path.Join(tr.Dir, step.Name)
			sd, err := parse.ReadStep(fsys, dir, step)
			if err != nil {
				t.Errorf("%s: %v", dir, err)
				continue
			}
			if len(sd.Problems) != 0 {
				t.Errorf("%s: problems %q", dir, problemStrings(sd))
			}
			if sd.Step.Kind != wantKind[step.Name] {
				t.Errorf("%s: Kind %v, want %v", dir, sd.Step.Kind, wantKind[step.Name])
			}
			if sd.Dop != 2 || len(sd.Clients) != 2 || len(sd.Times) != 2 || sd.Times[1] == nil {
				t.Errorf("%s: Dop %d, %d clients, %d times", dir, sd.Dop, len(sd.Clients), len(sd.Times))
			}
			if sd.Vmstat == nil || sd.Iostat == nil || sd.Ps == nil || sd.DBSize == nil || sd.DBDir == nil || sd.Res == nil {
				t.Errorf("%s: a file was not read: %+v", dir, sd)
			}
		}
	}

	step, _ := parse.ParseStepName("l.i1")
	sd, err := parse.ReadStep(fsys, "2m.pg15.c1/l.i1", step)
	if err != nil {
		t.Fatal(err)
	}
	if sd.Step.Kind != parse.LoadWithDeletes || !sd.Deletes() || len(sd.Problems) != 0 {
		t.Errorf("l.i1: Kind %v, Deletes %v, Problems %q", sd.Step.Kind, sd.Deletes(), problemStrings(sd))
	}
	if sd.Clients[1].Name != "2m.pg15.c1/l.i1/o.ib.dop2.2" || sd.Res.MaxRows != 600000 {
		t.Errorf("l.i1: client 2 %q, res %+v", sd.Clients[1].Name, sd.Res)
	}
}

// The example tree copied into a MapFS with one file removed: ReadStep
// reports it and reads the rest.
func TestSampleReadStepMissingFile(t *testing.T) {
	src := os.DirFS(exampleDir)
	m := mapFSFrom(t, src, "2m.pg15.c1/l.i1")
	delete(m, "2m.pg15.c1/l.i1/o.io.dop2")
	step, _ := parse.ParseStepName("l.i1")
	sd, err := parse.ReadStep(m, "2m.pg15.c1/l.i1", step)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"2m.pg15.c1/l.i1/o.io.dop2: missing"}; !slices.Equal(problemStrings(sd), want) {
		t.Errorf("Problems = %q, want %q", problemStrings(sd), want)
	}
	if sd.Iostat != nil || sd.Vmstat == nil || len(sd.Clients) != 2 {
		t.Errorf("Iostat %v Vmstat %v clients %d", sd.Iostat, sd.Vmstat, len(sd.Clients))
	}
}

func mapFSFrom(t *testing.T, src fs.FS, dir string) fstest.MapFS {
	t.Helper()
	m := fstest.MapFS{}
	err := fs.WalkDir(src, dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(src, p)
		m[p] = &fstest.MapFile{Data: b}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}
