package report_test

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/ibreport/ibreport/report"
	"github.com/ibreport/ibreport/report/render"
)

// BenchmarkBuild measures `ibreport build` on the example trees: reading and
// parsing every raw file, computing, building the model and writing the
// page with its charts.
func BenchmarkBuild(b *testing.B) {
	for _, format := range []string{"html", "md", "json"} {
		b.Run(format, func(b *testing.B) {
			for b.Loop() {
				res, _, err := report.Load(example, report.LoadOptions{})
				if err != nil {
					b.Fatal(err)
				}
				r, err := report.Build(res, report.BuildOptions{})
				if err != nil {
					b.Fatal(err)
				}
				if err := render.Write(io.Discard, r, format); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkBuildScaling builds reports of 2, 8 and 32 DBMS (copies of the
// example trees, in memory): time per op should grow in proportion.
func BenchmarkBuildScaling(b *testing.B) {
	for _, n := range []int{2, 8, 32} {
		var names, src []string
		for i := 0; i < n; i++ {
			names = append(names, fmt.Sprintf("2m.db%02d", i))
			src = append(src, []string{c1, c2}[i%2])
		}
		m := copyTrees(b, names, src)
		b.Run(fmt.Sprintf("dbms=%d", n), func(b *testing.B) {
			for b.Loop() {
				r := buildFS(b, m, nil, report.BuildOptions{})
				if err := render.Write(io.Discard, r, "html"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkBuildSysbench measures `ibreport build` on the sysbench fixture
// folders, HTML output.
func BenchmarkBuildSysbench(b *testing.B) {
	for b.Loop() {
		r := buildSysbench(b, sysbenchRaw)
		if err := render.Write(io.Discard, r, "html"); err != nil {
			b.Fatal(err)
		}
	}
}

// TestProgressCounts checks that Load counts the bytes and files it reads:
// every byte of the raw files it needs, no more than the folder holds.
func TestProgressCounts(t *testing.T) {
	var p report.Progress
	if _, _, err := report.Load(example, report.LoadOptions{Progress: &p}); err != nil {
		t.Fatal(err)
	}
	var total int64
	filepath.WalkDir(example, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			info, _ := d.Info()
			total += info.Size()
		}
		return nil
	})
	// The raw files read are client logs, vmstat, iostat, ps, time, sizes and
	// o.res: most of the folder, never more than all of it.
	if b := p.Bytes.Load(); b < total/2 || b > total || p.Files.Load() < 100 {
		t.Errorf("read %d of %d bytes in %d files", b, total, p.Files.Load())
	}
}

// BenchmarkSeries35 measures `ibreport build --series` on 35 sysbench
// builds of about 34 tests each: the fifteen published PostgreSQL builds,
// linked under 35 names, read, computed, searched for change points and
// written as HTML with a chart per test.
func BenchmarkSeries35(b *testing.B) {
	src, err := filepath.Abs("../testdata/arc/nov25.sb.pg/dop40")
	if err != nil {
		b.Fatal(err)
	}
	builds, err := filepath.Glob(filepath.Join(src, "x.pg*"))
	if err != nil || len(builds) == 0 {
		b.Fatal("no builds", err)
	}
	dir := b.TempDir()
	for i := range 35 {
		name := fmt.Sprintf("x.pg%02d_o2nofp.x10a_c32r128.pk1", i+1)
		if err := os.Symlink(builds[i%len(builds)], filepath.Join(dir, name)); err != nil {
			b.Fatal(err)
		}
	}
	for b.Loop() {
		res, _, err := report.Load(dir, report.LoadOptions{})
		if err != nil {
			b.Fatal(err)
		}
		r, err := report.Build(res, report.BuildOptions{Series: true})
		if err != nil {
			b.Fatal(err)
		}
		if g := r.Series.Groups[0]; len(g.Members) != 35 || len(g.Tests) < 30 {
			b.Fatalf("%d members, %d tests", len(g.Members), len(g.Tests))
		}
		if err := render.Write(io.Discard, r, "html"); err != nil {
			b.Fatal(err)
		}
	}
}
