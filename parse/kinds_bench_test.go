package parse

import (
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkScanKinds reads every file of one kind (client logs, iostat,
// vmstat, ps) of the insert-benchmark tree named by $IBREPORT_BENCH_DIR
// (DBMS/step/file) with its streaming reader and a sink that keeps
// nothing: the cost of each reader alone, to set beside the floor's for
// the same files (find DIR -name 'o.io.*' -print0 | floor):
//
//	IBREPORT_BENCH_DIR=/tmp/scale taskset -c 0 go test ./parse -run '^$' -bench ScanKinds -benchtime 5x
func BenchmarkScanKinds(b *testing.B) {
	dir := os.Getenv("IBREPORT_BENCH_DIR")
	if dir == "" {
		b.Skip("no $IBREPORT_BENCH_DIR")
	}
	if _, err := os.Stat(dir); err != nil && !filepath.IsAbs(dir) {
		dir = filepath.Join("..", dir)
	}
	kinds := []struct {
		name, glob string
		scan       func(f *os.File, p string) error
	}{
		{"client", "o.ib.dop*.*", func(f *os.File, p string) error {
			_, err := ScanClientLog(f, p, func(*Interval) {})
			return err
		}},
		{"iostat", "o.io.dop*", func(f *os.File, p string) error {
			_, err := ScanIostatDevice(f, p, "", func(*Iostat, *IostatRow) {})
			return err
		}},
		{"vmstat", "o.vm.dop*", func(f *os.File, p string) error {
			_, err := ScanVmstat(f, p, func(*VmstatSample) {})
			return err
		}},
		{"ps", "o.ps.dop*", func(f *os.File, p string) error {
			_, err := ScanPs(f, p, func(*PsRow) {})
			return err
		}},
	}
	for _, k := range kinds {
		files, _ := filepath.Glob(filepath.Join(dir, "*", "*", k.glob))
		if len(files) == 0 {
			continue
		}
		b.Run(k.name, func(b *testing.B) {
			var size int64
			for _, p := range files {
				if fi, err := os.Stat(p); err == nil {
					size += fi.Size()
				}
			}
			b.SetBytes(size)
			for b.Loop() {
				for _, p := range files {
					f, err := os.Open(p)
					if err != nil {
						b.Fatal(err)
					}
					if err := k.scan(f, p); err != nil && SyntaxErrors(err) == nil {
						b.Fatal(err)
					}
					f.Close()
				}
			}
		})
	}
}
