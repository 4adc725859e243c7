//go:build unix

package results_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/ibreport/ibreport/parse"
	"github.com/ibreport/ibreport/results"
)

// TestFIFOAndLargeFile: a FIFO named like a summary table is skipped
// without being opened for reading (which would block), and so is a
// file larger than MaxSummaryFile; the other sets are read.
func TestFIFOAndLargeFile(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "o.met.fifo"), 0o644); err != nil {
		t.Skip(err)
	}
	big, err := os.Create(filepath.Join(dir, "qps.abs.big.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	if err := big.Truncate(results.MaxSummaryFile + 1); err != nil {
		t.Fatal(err)
	}
	big.Close()
	if err := os.WriteFile(filepath.Join(dir, "qps.abs.s.tsv"), []byte(absTSV), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := results.ReadSummaries(parse.Packed(os.DirFS(dir)), ".", dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(s.SetNames(), " "); got != "s" {
		t.Errorf("sets %q, want s", got)
	}
	var skipped []string
	for _, k := range s.Skipped {
		skipped = append(skipped, k.File+": "+k.Why)
	}
	all := strings.Join(skipped, "\n")
	for _, want := range []string{"o.met.fifo", "set big", "larger than 16 MiB"} {
		if !strings.Contains(all, want) {
			t.Errorf("skipped %q lacks %q", all, want)
		}
	}
}
