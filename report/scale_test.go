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

	"github.com/ibreport/ibreport/internal/metrics"
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
