package report_test

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/report"
	"github.com/ibreport/ibreport/report/render"
)

var (
	scaleDir = flag.String("scale-dir", "", "TestWriteScaleTree: write a synthetic results folder here")
	scaleMB  = flag.Int("scale-mb", 1024, "TestWriteScaleTree: its size in MB (about)")
)

// writeScaleTree writes a results folder of nDBMS trees made from the
// example trees by stretching them: every stats line of the client logs,
// every vmstat sample, every iostat interval and every ps sample is written
// stretch times (so a step lasts stretch times longer at the same rates).
// It returns the bytes written.
func writeScaleTree(t testing.TB, dst string, nDBMS, stretch int) int64 {
	t.Helper()
	var total int64
	for i := range nDBMS {
		src := []string{"2m.pg15.c1", "2m.pg15.c2"}[i%2]
		name := fmt.Sprintf("2m.db%02d", i)
		err := filepath.WalkDir(filepath.Join(example, src), func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			rel, _ := filepath.Rel(filepath.Join(example, src), p)
			out := filepath.Join(dst, name, rel)
			if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
				return err
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			f, err := os.Create(out)
			if err != nil {
				return err
			}
			w := bufio.NewWriterSize(f, 1<<20)
			stretchFile(w, filepath.Base(p), data, stretch)
			if err := w.Flush(); err != nil {
				return err
			}
			st, _ := f.Stat()
			total += st.Size()
			return f.Close()
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return total
}

// stretchFile writes data with its per-interval lines repeated.
func stretchFile(w io.Writer, name string, data []byte, stretch int) {
	lines := bytes.SplitAfter(data, []byte("\n"))
	switch {
	case strings.HasPrefix(name, "o.ib."):
		// Repeat each stats line (17 numeric fields) in place.
		for _, l := range lines {
			n := stretch
			if f := bytes.Fields(l); len(f) != 17 || f[0][0] < '0' || f[0][0] > '9' {
				n = 1
			}
			for range n {
				w.Write(l)
			}
		}
	case strings.HasPrefix(name, "o.vm."):
		for i, l := range lines {
			n := stretch
			if i < 3 || bytes.Contains(l, []byte("procs")) || bytes.Contains(l, []byte("swpd")) {
				n = 1 // the headers and the since-boot sample
			}
			for range n {
				w.Write(l)
			}
		}
	case strings.HasPrefix(name, "o.io."):
		// The banner once, then the intervals over and over.
		head, body := lines[:2], lines[2:]
		for _, l := range head {
			w.Write(l)
		}
		for range stretch {
			for _, l := range body {
				w.Write(l)
			}
		}
	case strings.HasPrefix(name, "o.ps."):
		for range stretch {
			w.Write(data)
		}
	default:
		w.Write(data)
	}
}

// TestWriteScaleTree writes a synthetic results folder of about -scale-mb
// MB into -scale-dir, for timing the command line on big input:
//
//	go test ./report -run TestWriteScaleTree -scale-dir /tmp/scale -scale-mb 1024
func TestWriteScaleTree(t *testing.T) {
	if *scaleDir == "" {
		t.Skip("no -scale-dir")
	}
	// The stretchable part of one example tree is about 215 kB.
	const dbms = 8
	stretch := max(1, *scaleMB*1000/(dbms*215))
	n := writeScaleTree(t, *scaleDir, dbms, stretch)
	t.Logf("%s: %d DBMS, stretch %d, %.1f MB", *scaleDir, dbms, stretch, float64(n)/1e6)
}

// BenchmarkBuildScale builds the Markdown report of generated trees of
// three sizes. It reports MB/s and bytes allocated per input MB, so that a
// super-linear regression shows up in benchstat.
func BenchmarkBuildScale(b *testing.B) {
	for _, stretch := range []int{4, 16, 64} {
		dir := b.TempDir()
		size := writeScaleTree(b, dir, 8, stretch)
		b.Run(fmt.Sprintf("MB=%.0f", float64(size)/1e6), func(b *testing.B) {
			b.SetBytes(size)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			for b.Loop() {
				res, _, err := report.Load(dir, report.LoadOptions{Metrics: metrics.Options{Cores: 2, Device: "vda"}})
				if err != nil {
					b.Fatal(err)
				}
				r, err := report.Build(res, report.BuildOptions{})
				if err != nil {
					b.Fatal(err)
				}
				if err := render.Write(io.Discard, r, "md"); err != nil {
					b.Fatal(err)
				}
			}
			runtime.ReadMemStats(&after)
			b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(b.N)/(float64(size)/1e6), "alloc-B/MB")
		})
	}
}

// sbScaleSrc is the archive the synthetic sysbench folders are made from:
// fifteen PostgreSQL builds, 40 threads, about 34 tests each, whose sb.o
// files lost the query plans sysbench printed before each run.
const sbScaleSrc = "../testdata/arc/nov25.sb.pg/dop40"

// writeSysbenchScaleTree writes copies of the builds of sbScaleSrc, copies
// times, with the query plans put back into every sb.o: before each run
// every thread printed, per table, "table N : explain …" and a
// TAB-indented plan of planLines lines, and the run printed an interval
// line per second (--report-interval=1, added to its command line). It
// returns the bytes written.
func writeSysbenchScaleTree(t testing.TB, dst string, copies, planLines int) int64 {
	t.Helper()
	builds, err := filepath.Glob(filepath.Join(sbScaleSrc, "x.*"))
	if err != nil || len(builds) == 0 {
		t.Fatalf("no builds in %s: %v", sbScaleSrc, err)
	}
	var total int64
	for c := range copies {
		for _, b := range builds {
			name := filepath.Base(b)
			if c > 0 {
				name = strings.Replace(name, "x.pg", fmt.Sprintf("x.pg%dc", c), 1)
			}
			ents, err := os.ReadDir(b)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(filepath.Join(dst, name), 0o755); err != nil {
				t.Fatal(err)
			}
			for _, e := range ents {
				data, err := os.ReadFile(filepath.Join(b, e.Name()))
				if err != nil {
					t.Fatal(err)
				}
				if strings.HasPrefix(e.Name(), "sb.o.") {
					data = withPlans(data, planLines)
				}
				if err := os.WriteFile(filepath.Join(dst, name, e.Name()), data, 0o644); err != nil {
					t.Fatal(err)
				}
				total += int64(len(data))
			}
		}
	}
	return total
}

// withPlans puts query plans after each "for <statement>" line of an sb.o
// file (one per thread) and interval lines before its final report.
func withPlans(data []byte, planLines int) []byte {
	var out bytes.Buffer
	lines := bytes.SplitAfter(data, []byte("\n"))
	tables := 8
	secs := 630
	for i, l := range lines {
		s := string(l)
		switch {
		case i == 0:
			s = strings.Replace(s, " --time=", " --report-interval=1 --time=", 1)
		case strings.HasPrefix(s, "for "):
			stmt := strings.TrimSpace(strings.TrimPrefix(s, "for "))
			fmt.Fprintf(&out, "explain: for %s :: explain SELECT c FROM sbtest%%d WHERE id BETWEEN 4561 AND 4661\n", stmt)
			out.WriteString(s)
			for tb := 1; tb <= tables; tb++ {
				fmt.Fprintf(&out, "table %d : explain SELECT c FROM sbtest%d WHERE id BETWEEN 4561 AND 4661\n", tb, tb)
				for p := range planLines {
					fmt.Fprintf(&out, "\t%*s->  Index Scan using sbtest%d_pkey on sbtest%d  (cost=0.43..%d.45 rows=%d width=121) (actual time=0.010..0.%03d rows=101 loops=1)\n",
						2*(p%4), "", tb, tb, 8+p, 100+p, p)
				}
			}
			continue
		case strings.HasPrefix(s, "SQL statistics:"):
			for i := 1; i <= secs; i++ {
				tps := 1000 + float64(i%17)*3.25
				fmt.Fprintf(&out, "[ %ds ] thds: 40 tps: %.2f qps: %.2f (r/w/o: %.2f/%.2f/%.2f) lat (ms,95%%): %.2f err/s: 0.00 reconn/s: 0.00\n",
					i, tps, tps*20, tps*14, tps*4, tps*2, 3.5+float64(i%5)*0.25)
			}
		}
		out.WriteString(s)
	}
	return out.Bytes()
}

// TestWriteSysbenchScaleTree writes a synthetic sysbench results folder of
// about -scale-mb MB into -scale-dir, with query plans in the sb.o files as
// sysbench prints them:
//
//	go test ./report -run TestWriteSysbenchScaleTree -scale-dir /tmp/sbscale -scale-mb 450
func TestWriteSysbenchScaleTree(t *testing.T) {
	if *scaleDir == "" {
		t.Skip("no -scale-dir")
	}
	// Each plan line of every table of every thread adds about 55 MB to a
	// copy of the 15 builds, the rest (interval lines, plan headers) about
	// 60 MB (measured).
	copies := max(1, (*scaleMB+299)/300)
	planLines := max(1, (*scaleMB-60*copies)/(copies*55))
	n := writeSysbenchScaleTree(t, *scaleDir, copies, planLines)
	t.Logf("%s: %d copies of 15 builds, %d plan lines, %.1f MB", *scaleDir, copies, planLines, float64(n)/1e6)
}

// BenchmarkBuildDir builds the Markdown report of the folder named by
// $IBREPORT_BENCH_DIR (with --compat when $IBREPORT_BENCH_COMPAT is set),
// for profiling big folders such as those scripts/bench-scale.sh writes:
//
//	IBREPORT_BENCH_DIR=/tmp/sbscale go test ./report -run '^$' -bench BuildDir -benchtime 3x -cpuprofile cpu.out
func BenchmarkBuildDir(b *testing.B) {
	dir := os.Getenv("IBREPORT_BENCH_DIR")
	if dir == "" {
		b.Skip("no $IBREPORT_BENCH_DIR")
	}
	opt := report.LoadOptions{Metrics: metrics.Options{Cores: 2, Device: "vda", Compat: os.Getenv("IBREPORT_BENCH_COMPAT") != ""}}
	for b.Loop() {
		res, _, err := report.Load(dir, opt)
		if err != nil {
			b.Fatal(err)
		}
		r, err := report.Build(res, report.BuildOptions{})
		if err != nil {
			b.Fatal(err)
		}
		if err := render.Write(io.Discard, r, "md"); err != nil {
			b.Fatal(err)
		}
	}
}
