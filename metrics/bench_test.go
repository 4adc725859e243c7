package metrics_test

import (
	"os"
	"testing"

	"github.com/ibreport/ibreport/internal/compat"
	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/parse"
)

// BenchmarkComputeExample parses and summarizes both fixture trees (20 steps,
// about 1.8 MB of logs) per iteration. b.SetBytes makes -bench report MB/s.
func BenchmarkComputeExample(b *testing.B) {
	fsys := os.DirFS("../testdata/example")
	trees, err := parse.ReadTree(fsys, ".")
	if err != nil {
		b.Fatal(err)
	}
	var size int64
	for _, t := range trees {
		for _, st := range t.Steps {
			ents, _ := os.ReadDir("../testdata/example/" + t.Dir + "/" + st.Name)
			for _, e := range ents {
				if info, err := e.Info(); err == nil {
					size += info.Size()
				}
			}
		}
	}
	b.SetBytes(size)
	b.Run("default", func(b *testing.B) {
		b.SetBytes(size)
		for i := 0; i < b.N; i++ {
			for _, t := range trees {
				if _, err := metrics.ComputeTree(fsys, t, metrics.Options{Cores: 2}); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}

// BenchmarkComputeSysbench parses and computes both sysbench fixture folders
// (12 runs each plus the load step, about 1.1 MB of files) per iteration.
func BenchmarkComputeSysbench(b *testing.B) {
	fsys := os.DirFS("../testdata/sysbench/raw")
	dirs, err := parse.FindSysbenchDirs(fsys, ".")
	if err != nil {
		b.Fatal(err)
	}
	var size int64
	for _, d := range dirs {
		ents, _ := os.ReadDir("../testdata/sysbench/raw/" + d.Dir)
		for _, e := range ents {
			if info, err := e.Info(); err == nil {
				size += info.Size()
			}
		}
	}
	opt := metrics.Options{Device: "vda"}
	b.Run("default", func(b *testing.B) {
		b.SetBytes(size)
		for i := 0; i < b.N; i++ {
			if _, err := metrics.ComputeSysbench(fsys, dirs, opt); err != nil {
				b.Fatal(err)
			}
		}
	})
	// compat mode: the compat edge computes the runs as the scripts did.
	b.Run("compat", func(b *testing.B) {
		b.SetBytes(size)
		for i := 0; i < b.N; i++ {
			if _, err := compat.ComputeSysbench(fsys, dirs, opt); err != nil {
				b.Fatal(err)
			}
		}
	})
}
