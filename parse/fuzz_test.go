package parse_test

import (
	"math"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ibreport/ibreport/internal/names"
	"github.com/ibreport/ibreport/parse"
)

// fuzzName is the file name the fuzz targets pass to the readers.
const fuzzName = "fuzz/o.in"

// addSeeds adds the inputs of a table test and the sample files matching
// pattern (a glob relative to the parse directory) to the corpus.
func addSeeds(f *testing.F, inputs []string, patterns ...string) {
	for _, in := range inputs {
		f.Add(in)
	}
	for _, pat := range patterns {
		files, err := filepath.Glob(pat)
		if err != nil {
			f.Fatal(err)
		}
		for _, file := range files {
			f.Add(readSample(f, file))
		}
	}
}

func samplePattern(base string) string { return filepath.Join(exampleDir, "*", "*", base) }

// checkSyntaxErrorList checks the properties every reader's error shares: it
// is nil or a non-empty list of syntax errors (the input cannot fail to
// read), each citing fuzzName and a line of the input, in input order
// (errors about the whole file, line 0, aside).
func checkSyntaxErrorList(t *testing.T, err error, lines int) {
	t.Helper()
	if err == nil {
		return
	}
	list := parse.SyntaxErrors(err)
	if len(list) == 0 {
		t.Fatalf("error %v (%T) carries no syntax errors", err, err)
	}
	prev := 0
	for _, e := range list {
		if e == nil {
			t.Fatal("nil *SyntaxError in the list")
		}
		if e.File != fuzzName {
			t.Errorf("error %q: File %q, want %q", e, e.File, fuzzName)
		}
		if e.Line < 0 || e.Line > lines {
			t.Errorf("error %q: Line %d outside 0..%d", e, e.Line, lines)
		}
		if e.Msg == "" {
			t.Errorf("error at line %d has no message", e.Line)
		}
		if e.Line > 0 {
			if e.Line < prev {
				t.Errorf("error %q after an error at line %d: not in input order", e, prev)
			}
			prev = e.Line
		}
	}
}

// checkLines checks that record line numbers increase strictly and lie in 1..lines.
func checkLines(t *testing.T, what string, got []int, lines int) {
	t.Helper()
	prev := 0
	for _, n := range got {
		if n < 1 || n > lines {
			t.Errorf("%s at line %d, outside 1..%d", what, n, lines)
		}
		if n <= prev {
			t.Errorf("%s at line %d after line %d", what, n, prev)
		}
		prev = n
	}
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// checkDeterministic reads the input a second time and compares.
func checkDeterministic[T any](t *testing.T, read func(string) (*T, error), input string, v *T, err error) {
	t.Helper()
	v2, err2 := read(input)
	if !reflect.DeepEqual(v, v2) || (err == nil) != (err2 == nil) || (err != nil && err.Error() != err2.Error()) {
		t.Errorf("two reads of the same input differ:\n%+v %v\n%+v %v", v, err, v2, err2)
	}
}

func FuzzReadClientLog(f *testing.F) {
	addSeeds(f, inputsOf(clientCases, func(c clientCase) string { return c.input })(), samplePattern("o.ib.dop*"))
	read := func(s string) (*parse.ClientLog, error) { return parse.ReadClientLog(strings.NewReader(s), fuzzName) }
	f.Fuzz(func(t *testing.T, input string) {
		c, err := read(input)
		lines := countLines(input)
		checkSyntaxErrorList(t, err, lines)
		if c == nil {
			t.Fatal("nil ClientLog")
		}
		if c.Name != fuzzName || c.Lines != lines {
			t.Errorf("Name %q Lines %d, want %q %d", c.Name, c.Lines, fuzzName, lines)
		}
		if c.HeaderLine < 0 || c.HeaderLine > lines || (c.HeaderLine == 0) != (c.Columns == nil) {
			t.Errorf("HeaderLine %d with %d columns", c.HeaderLine, len(c.Columns))
		}
		if c.WidthLines < 0 || c.WidthLines > lines {
			t.Errorf("WidthLines %d of %d lines", c.WidthLines, lines)
		}
		if !c.Done && err == nil && lines > 0 {
			t.Error("a log without Done is accepted without error")
		}
		var ivLines, histLines, otherLines []int
		for _, iv := range c.Intervals {
			ivLines = append(ivLines, iv.Line)
			if iv.Line <= c.HeaderLine {
				t.Errorf("interval at line %d, before the header at %d", iv.Line, c.HeaderLine)
			}
			for col, v := range iv.Values {
				if !finite(v) {
					t.Errorf("line %d %s = %v", iv.Line, parse.Column(col), v)
				}
			}
		}
		for _, h := range c.Histograms {
			histLines = append(histLines, h.Pos.Line)
			if h.Pos.File != fuzzName || !finite(h.Max) || h.Max < 0 || len(h.Counts) != len(h.Buckets) {
				t.Errorf("histogram %+v", h)
			}
			for _, n := range h.Counts {
				if n < 0 {
					t.Errorf("histogram at line %d has a negative count", h.Pos.Line)
				}
			}
		}
		for _, o := range c.Other {
			otherLines = append(otherLines, o.Line)
		}
		checkLines(t, "interval", ivLines, lines)
		checkLines(t, "histogram", histLines, lines)
		checkLines(t, "other line", otherLines, lines)
		checkDeterministic(t, read, input, c, err)
	})
}

func FuzzReadVmstat(f *testing.F) {
	addSeeds(f, inputsOf(vmstatCases, func(c vmstatCase) string { return c.input })(), samplePattern("o.vm.dop*"))
	read := func(s string) (*parse.Vmstat, error) { return parse.ReadVmstat(strings.NewReader(s), fuzzName) }
	f.Fuzz(func(t *testing.T, input string) {
		v, err := read(input)
		lines := countLines(input)
		checkSyntaxErrorList(t, err, lines)
		if v == nil {
			t.Fatal("nil Vmstat")
		}
		if v.Name != fuzzName || v.Lines != lines {
			t.Errorf("Name %q Lines %d, want %q %d", v.Name, v.Lines, fuzzName, lines)
		}
		if v.GroupHeaders+v.ColumnHeaders+len(v.Samples) > lines {
			t.Errorf("%d+%d headers and %d samples in %d lines", v.GroupHeaders, v.ColumnHeaders, len(v.Samples), lines)
		}
		var sl []int
		for i, s := range v.Samples {
			sl = append(sl, s.Line)
			if s.SinceBoot && i > 0 {
				t.Errorf("sample %d (line %d) flagged SinceBoot", i, s.Line)
			}
			if !finite(s.Cs) || !finite(s.Us) || !finite(s.Sy) || !finite(s.Wa) {
				t.Errorf("sample %+v", s)
			}
		}
		checkLines(t, "sample", sl, lines)
		checkDeterministic(t, read, input, v, err)
	})
}

func FuzzReadIostat(f *testing.F) {
	addSeeds(f, inputsOf(iostatCases, func(c iostatCase) string { return c.input })(), samplePattern("o.io.dop*"))
	read := func(s string) (*parse.Iostat, error) { return parse.ReadIostat(strings.NewReader(s), fuzzName) }
	f.Fuzz(func(t *testing.T, input string) {
		s, err := read(input)
		lines := countLines(input)
		checkSyntaxErrorList(t, err, lines)
		if s == nil {
			t.Fatal("nil Iostat")
		}
		if s.Name != fuzzName || s.Lines != lines || s.CPUs < 0 || s.Intervals > lines {
			t.Errorf("Name %q Lines %d CPUs %d Intervals %d", s.Name, s.Lines, s.CPUs, s.Intervals)
		}
		if s.Header == nil && s.Layout != "" {
			t.Errorf("layout %q without a header", s.Layout)
		}
		if s.Header != nil {
			if l, ok := parse.DetectIostatLayout(append([]string{"Device"}, s.Header...)); l != s.Layout || ok != (s.Layout != "") {
				t.Errorf("Layout %q, but the header detects as %q", s.Layout, l)
			}
			for _, c := range []int{s.Col.RS, s.Col.WS, s.Col.RKB, s.Col.WKB} {
				if c < -1 || c >= len(s.Header) {
					t.Errorf("column index %d with %d header columns", c, len(s.Header))
				}
			}
		}
		var rl []int
		for _, r := range s.Rows {
			rl = append(rl, r.Line)
			if len(r.Values) != len(s.Header) || r.Device == "" {
				t.Errorf("row %+v with %d header columns", r, len(s.Header))
			}
			for _, v := range r.Values {
				if !finite(v) {
					t.Errorf("row at line %d has %v", r.Line, v)
				}
			}
		}
		checkLines(t, "row", rl, lines)
		devs := s.Devices()
		if b := s.BusiestDevice(); b != "" && !strings.Contains(" "+strings.Join(devs, " ")+" ", " "+b+" ") {
			t.Errorf("BusiestDevice %q not among %q", b, devs)
		}
		checkDeterministic(t, read, input, s, err)
	})
}

func FuzzReadPs(f *testing.F) {
	addSeeds(f, inputsOf(psCases, func(c psCase) string { return c.input })(), samplePattern("o.ps.dop*"))
	read := func(s string) (*parse.PsSamples, error) { return parse.ReadPs(strings.NewReader(s), fuzzName) }
	f.Fuzz(func(t *testing.T, input string) {
		p, err := read(input)
		lines := countLines(input)
		checkSyntaxErrorList(t, err, lines)
		if p == nil {
			t.Fatal("nil PsSamples")
		}
		if p.Name != fuzzName || p.Samples < 0 || p.Samples+len(p.Rows) > lines {
			t.Errorf("Name %q, %d samples and %d rows in %d lines", p.Name, p.Samples, len(p.Rows), lines)
		}
		var rl []int
		for _, r := range p.Rows {
			rl = append(rl, r.Line)
			if !finite(r.CPUTime) || r.CPUTime < 0 || r.User == "" || r.Text == "" {
				t.Errorf("row %+v", r)
			}
		}
		checkLines(t, "row", rl, lines)
		checkDeterministic(t, read, input, p, err)
	})
}

func FuzzReadTime(f *testing.F) {
	addSeeds(f, inputsOf(timeCases, func(c timeCase) string { return c.input })(), samplePattern("o.ctime.dop*"))
	read := func(s string) (*parse.Time, error) { return parse.ReadTime(strings.NewReader(s), fuzzName) }
	f.Fuzz(func(t *testing.T, input string) {
		tm, err := read(input)
		lines := countLines(input)
		checkSyntaxErrorList(t, err, lines)
		if tm == nil {
			t.Fatal("nil Time")
		}
		if tm.Name != fuzzName || tm.Line < 0 || tm.Line > lines {
			t.Errorf("Name %q Line %d of %d", tm.Name, tm.Line, lines)
		}
		if tm.Line == 0 && err == nil {
			t.Error("no time line and no error")
		}
		for _, v := range []float64{tm.User, tm.System, tm.Elapsed} {
			if !finite(v) || v < 0 {
				t.Errorf("time %+v", tm)
			}
		}
		if tm.Status != "" && !strings.HasPrefix(tm.Status, "Command ") {
			t.Errorf("Status %q", tm.Status)
		}
		checkDeterministic(t, read, input, tm, err)
	})
}

func FuzzReadRes(f *testing.F) {
	addSeeds(f, inputsOf(resCases, func(c resCase) string { return c.input })(), samplePattern("o.res.dop*"))
	read := func(s string) (*parse.Res, error) { return parse.ReadRes(strings.NewReader(s), fuzzName) }
	f.Fuzz(func(t *testing.T, input string) {
		r, err := read(input)
		lines := countLines(input)
		checkSyntaxErrorList(t, err, lines)
		if r == nil {
			t.Fatal("nil Res")
		}
		if r.Name != fuzzName || len(r.Lines) != lines {
			t.Errorf("Name %q, %d lines, want %d", r.Name, len(r.Lines), lines)
		}
		if r.Line(lines+1) != "" || r.Line(0) != "" {
			t.Error("Line out of range is not empty")
		}
		checkDeterministic(t, read, input, r, err)
	})
}

func FuzzReadDBSize(f *testing.F) {
	addSeeds(f, inputsOf(dbSizeCases, func(c dbSizeCase) string { return c.input })(), samplePattern("o.dbsz.dop*"), samplePattern("o.dbdirsz.dop*"))
	read := func(s string) (*parse.DBSize, error) { return parse.ReadDBSize(strings.NewReader(s), fuzzName) }
	f.Fuzz(func(t *testing.T, input string) {
		d, err := read(input)
		lines := countLines(input)
		checkSyntaxErrorList(t, err, lines)
		if d == nil {
			t.Fatal("nil DBSize")
		}
		if d.Name != fuzzName || !finite(d.Value) || d.Value < 0 {
			t.Errorf("DBSize %+v", d)
		}
		if err == nil && strings.TrimSpace(input) == "" {
			t.Error("an empty size file is accepted")
		}
		checkDeterministic(t, read, input, d, err)
	})
}

func FuzzReadTable(f *testing.F) {
	addSeeds(f, inputsOf(tableCases, func(c tableCase) string { return c.input })(),
		filepath.Join("..", "testdata", "ibench", "reference", "res", "mrg.l.i*"),
		filepath.Join("..", "testdata", "ibench", "reference", "res", "rel.q*"))
	read := func(s string) (*parse.Table, error) { return parse.ReadTable(strings.NewReader(s), fuzzName) }
	f.Fuzz(func(t *testing.T, input string) {
		tb, err := read(input)
		lines := countLines(input)
		checkSyntaxErrorList(t, err, lines)
		if tb == nil {
			t.Fatal("nil Table")
		}
		if tb.Name != fuzzName || len(tb.Lines) > lines {
			t.Errorf("Name %q, %d lines of %d", tb.Name, len(tb.Lines), lines)
		}
		if tb.Header != nil && tb.Header[0] != "ips" {
			t.Errorf("Header %q", tb.Header)
		}
		var ll []int
		for _, l := range tb.Lines {
			ll = append(ll, l.Line)
			if strings.Join(l.Cells, "\t") != l.Text {
				t.Errorf("line %d: cells %q do not rebuild %q", l.Line, l.Cells, l.Text)
			}
			switch l.Kind {
			case parse.TableRow:
				if len(l.Cells) != len(tb.Header) {
					t.Errorf("row at line %d has %d cells, header %d", l.Line, len(l.Cells), len(tb.Header))
				}
			case parse.TableHeader:
				if l.Cells[0] != "ips" {
					t.Errorf("header at line %d: %q", l.Line, l.Cells)
				}
			case parse.TableBreak:
				if l.Text != "-" {
					t.Errorf("break at line %d: %q", l.Line, l.Text)
				}
			}
		}
		checkLines(t, "table line", ll, lines)
		checkDeterministic(t, read, input, tb, err)
	})
}

func FuzzParseStepName(f *testing.F) {
	for _, tc := range stepNameCases {
		f.Add(tc.name, "qr100.L1")
	}
	for i, n := range currentSteps {
		f.Add(n, currentSteps[(i+3)%len(currentSteps)])
	}
	f.Add("2m.pg9.c1", "2m.pg15.c1")
	f.Add("x9", "x1234567890123456789")
	f.Fuzz(func(t *testing.T, name, other string) {
		s, ok := parse.ParseStepName(name)
		if !ok {
			if s != (parse.Step{}) {
				t.Errorf("rejected %q but returned %+v", name, s)
			}
		} else {
			if s.Name != name || s.MergeName != name || s.Rate < 0 || s.Seq < 0 {
				t.Errorf("ParseStepName(%q) = %+v", name, s)
			}
			if s.Kind != parse.Load && s.Kind != parse.CreateIndex && !s.Kind.ReadWrite() {
				t.Errorf("ParseStepName(%q) kind %v", name, s.Kind)
			}
			if s.Kind.ReadWrite() != strings.HasPrefix(name, "q") {
				t.Errorf("ParseStepName(%q) kind %v", name, s.Kind)
			}
			if s.Less(s) {
				t.Errorf("%q.Less(itself)", name)
			}
			if o, ok := parse.ParseStepName(other); ok && s.Less(o) && o.Less(s) {
				t.Errorf("%q and %q are each less than the other", name, other)
			}
		}
		if names.NaturalLess(name, name) {
			t.Errorf("names.NaturalLess(%q, itself)", name)
		}
		if names.NaturalLess(name, other) && names.NaturalLess(other, name) {
			t.Errorf("names.NaturalLess(%q, %q) both ways", name, other)
		}
		if name != other && !names.NaturalLess(name, other) && !names.NaturalLess(other, name) {
			t.Errorf("NaturalLess: distinct %q and %q are equivalent", name, other)
		}
	})
}

func FuzzReadSysbench(f *testing.F) {
	addSeeds(f, inputsOf(sysbenchCases, func(c sysbenchCase) string { return c.input })(),
		filepath.Join(sysbenchDir, "*", "sb.o.*"), filepath.Join(sysbenchDir, "*", "sb.prepare.o.*"))
	read := func(s string) (*parse.SysbenchOutput, error) {
		return parse.ReadSysbench(strings.NewReader(s), fuzzName)
	}
	f.Fuzz(func(t *testing.T, input string) {
		o, err := read(input)
		lines := countLines(input)
		checkSyntaxErrorList(t, err, lines)
		if o == nil {
			t.Fatal("nil SysbenchOutput")
		}
		if o.Name != fuzzName || o.Lines != lines || o.CPUs < 0 || o.Threads < 0 {
			t.Errorf("Name %q Lines %d CPUs %d Threads %d", o.Name, o.Lines, o.CPUs, o.Threads)
		}
		var ivLines []int
		for _, iv := range o.Intervals {
			ivLines = append(ivLines, iv.Line)
			for _, v := range []float64{iv.Sec, iv.TPS, iv.QPS, iv.EPS, iv.Reads, iv.Writes, iv.Other, iv.LatPct, iv.ErrPerSec, iv.ReconnPerS} {
				if !finite(v) {
					t.Errorf("interval at line %d: %+v", iv.Line, iv)
				}
			}
		}
		checkLines(t, "interval", ivLines, lines)
		r := o.Report
		for _, m := range []parse.Measure{r.Reads, r.Writes, r.Other, r.Total, r.Transactions, r.TPS, r.Queries, r.QPS,
			r.Errors, r.ErrorsPerSec, r.Reconnects, r.ReconnectsPerS, r.EPS, r.Elapsed, r.Events, r.LatMin, r.LatAvg, r.LatMax, r.LatPct, r.LatSum} {
			if m.Line < 0 || m.Line > lines || !finite(m.Value) || m.Found() != (m.Text != "") {
				t.Errorf("measure %+v", m)
			}
			if m.Found() && (!o.HasReport || m.Line < r.Line) {
				t.Errorf("measure %+v outside the report (line %d)", m, r.Line)
			}
		}
		if o.Load != nil && (o.Load.Line < 1 || o.Load.Line > lines || !finite(o.Load.IPS.Value)) {
			t.Errorf("load %+v", o.Load)
		}
		checkDeterministic(t, read, input, o, err)
	})
}

func FuzzReadSysbenchExtra(f *testing.F) {
	f.Add("dbms,test,rows\nx.a,scan,1\n")
	f.Add("dbms,test,threads,a,b\nx,y,2,\"q\"\"\",\n")
	read := func(s string) (*parse.SysbenchExtra, error) {
		return parse.ReadSysbenchExtra(strings.NewReader(s), fuzzName)
	}
	f.Fuzz(func(t *testing.T, input string) {
		x, err := read(input)
		if x == nil {
			t.Fatal("nil SysbenchExtra")
		}
		if err != nil && parse.SyntaxErrors(err) == nil {
			t.Errorf("error %v is not a syntax error", err)
		}
		for _, r := range x.Rows {
			if r.DBMS == "" || r.Test == "" || r.Threads < 0 || r.Pos.Line < 1 {
				t.Errorf("row %+v", r)
			}
		}
	})
}

func FuzzReadSysbenchMet(f *testing.F) {
	addSeeds(f, []string{sbMet}, filepath.Join(sysbenchDir, "*", "sb.met.*"), filepath.Join(sysbenchDir, "*", "sb.prepare.met.*"))
	f.Fuzz(func(t *testing.T, input string) {
		m, err := parse.ReadSysbenchMet(strings.NewReader(input), fuzzName)
		lines := countLines(input)
		checkSyntaxErrorList(t, err, lines)
		if m == nil {
			t.Fatal("nil SysbenchMet")
		}
		if m.Name != fuzzName || len(m.Lines) != lines || m.IostatLine > lines || m.VmstatLine > lines {
			t.Errorf("Name %q, %d lines of %d, iostat at %d, vmstat at %d", m.Name, len(m.Lines), lines, m.IostatLine, m.VmstatLine)
		}
		if m.IostatLine > 0 && m.Iostat != m.Lines[m.IostatLine-1] || m.VmstatLine > 0 && m.Vmstat != m.Lines[m.VmstatLine-1] {
			t.Errorf("data lines %q %q", m.Iostat, m.Vmstat)
		}
	})
}

func FuzzReadPerfStat(f *testing.F) {
	addSeeds(f, []string{perfBlock}, filepath.Join(perfArc, "*", "sb.perf.hw.read-only.range100.pk1.1"))
	f.Fuzz(func(t *testing.T, input string) {
		p, err := parse.ReadPerfStat(strings.NewReader(input), fuzzName)
		lines := countLines(input)
		checkSyntaxErrorList(t, err, lines)
		if p == nil {
			t.Fatal("nil PerfStat")
		}
		for _, b := range p.Blocks {
			if b.Line < 1 || b.Line > lines || b.ElapsedLine > lines || b.Elapsed < 0 {
				t.Errorf("block %+v outside the input", b)
			}
			for _, c := range b.Counters {
				if c.Line <= b.Line || c.Line > lines || c.Event == "" {
					t.Errorf("counter %+v of block at %d", c, b.Line)
				}
				if c.Usable() && (parse.Plausible(parse.Count, c.Value) != nil && c.Unit == "" || c.Running < 0 || c.Running > 100) {
					t.Errorf("usable counter %+v breaks its rule", c)
				}
			}
		}
	})
}
