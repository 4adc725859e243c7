package parse

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
)

// BenchmarkScanFloor is the least a report of the folder named by
// $IBREPORT_BENCH_DIR can cost: every file read through the line scanner
// and every line through numericLine, on all CPUs, with nothing kept,
// checked or summed. Its time against cat's bounds what the readers can
// reach:
//
//	IBREPORT_BENCH_DIR=/tmp/scale/insert go test ./parse -run '^$' -bench ScanFloor -benchtime 5x
func BenchmarkScanFloor(b *testing.B) {
	dir := os.Getenv("IBREPORT_BENCH_DIR")
	if dir == "" {
		b.Skip("no $IBREPORT_BENCH_DIR")
	}
	// go test runs in the package's folder; a relative path is taken from
	// the module root, where the command is typed, when it is not here.
	if _, err := os.Stat(dir); err != nil && !filepath.IsAbs(dir) {
		dir = filepath.Join("..", dir)
	}
	var files []string
	var size int64
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			fi, err := d.Info()
			if err != nil {
				return err
			}
			files = append(files, p)
			size += fi.Size()
		}
		return nil
	})
	if err != nil {
		b.Fatalf("$IBREPORT_BENCH_DIR: %v", err)
	}
	if len(files) == 0 {
		b.Fatalf("$IBREPORT_BENCH_DIR %s: no files", dir)
	}
	b.SetBytes(size)
	for b.Loop() {
		var next atomic.Int64
		var wg sync.WaitGroup
		for range runtime.GOMAXPROCS(0) {
			wg.Add(1)
			go func() {
				defer wg.Done()
				vals := make([]float64, 64)
				for {
					i := int(next.Add(1)) - 1
					if i >= len(files) {
						return
					}
					f, err := os.Open(files[i])
					if err != nil {
						b.Error(err)
						return
					}
					sc := newLineScanner(f)
					for sc.Scan() {
						numericLine(sc.line, 1, vals)
					}
					sc.release()
					f.Close()
				}
			}()
		}
		wg.Wait()
	}
}
