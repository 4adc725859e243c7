package main

import (
	"os"
	"testing"
	"time"
)

func TestProgressLine(t *testing.T) {
	for _, c := range []struct {
		done, total, files int64
		el                 time.Duration
		want               string
	}{
		{512e6, 1063e6, 1234, time.Second, "ibreport: 512 of 1063 MB read (1234 files), 512 MB/s, about 1 s left"},
		{100e6, 100e6, 10, 2 * time.Second, "ibreport: 100 of 100 MB read (10 files), 50 MB/s"},
		{0, 100e6, 0, 3 * time.Second, "ibreport: 0 of 100 MB read (0 files), 0 MB/s"},
		{990e6, 1000e6, 9, 2 * time.Second, "ibreport: 990 of 1000 MB read (9 files), 495 MB/s, under 1 s left"},
	} {
		if got := progressLine(c.done, c.total, c.files, c.el); got != c.want {
			t.Errorf("progressLine(%d, %d, %d, %v) = %q, want %q", c.done, c.total, c.files, c.el, got, c.want)
		}
	}
}

// TestDevNullIsNotATerminal: /dev/null is a character device, but no
// terminal; output sent there shows no progress line.
func TestDevNullIsNotATerminal(t *testing.T) {
	f, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	if isTerminal(f) {
		t.Errorf("isTerminal(%s) = true, want false", os.DevNull)
	}
	if p := startProgress(f, t.TempDir(), false); p.counter != nil {
		t.Errorf("startProgress(%s) shows a progress line", os.DevNull)
	}
}
