package diff_test

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/ibreport/ibreport/diff"
	"github.com/ibreport/ibreport/report"
)

// A table of a folder of tables that is a FIFO or a device is refused, not
// opened (it would block the gate, or never end) nor skipped (a gate does
// not pass on a table it did not read).
func TestLoadResultSetRefusesSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "mrg.l.i0"), 0o644); err != nil {
		t.Skip("no FIFO here:", err)
	}
	_, _, err := diff.LoadResultSet(dir, report.LoadOptions{})
	if want := dir + "/mrg.l.i0: a FIFO, not a regular file"; err == nil || err.Error() != want || !errors.Is(err, report.ErrBadInput) {
		t.Errorf("LoadResultSet: %v, want %q (bad input)", err, want)
	}
	os.Remove(filepath.Join(dir, "mrg.l.i0"))
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "rel.l.i0")); err != nil {
		t.Skip("no symbolic link here:", err)
	}
	_, _, err = diff.LoadResultSet(dir, report.LoadOptions{})
	if want := dir + "/rel.l.i0: a device, not a regular file"; err == nil || err.Error() != want {
		t.Errorf("LoadResultSet: %v, want %q", err, want)
	}
}
