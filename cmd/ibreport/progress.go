package main

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/ibreport/ibreport/parse"
	"github.com/ibreport/ibreport/report"
	"golang.org/x/term"
)

// progressDelay is how long a run goes before it shows its progress:
// shorter runs print nothing.
const progressDelay = 2 * time.Second

// progress shows, on a terminal, one line that says how much of the
// results folder has been read, how fast and how long the rest should take.
// It is silent when stderr is not a terminal or with --quiet; stop clears
// the line before anything else (warnings) is printed.
type progress struct {
	counter *report.Progress
	stop    func()
}

// startProgress starts the display for the results folder dir. Its
// counter is nil when there is nothing to show.
func startProgress(stderr io.Writer, dir string, quiet bool) *progress {
	p := &progress{stop: func() {}}
	if l, ok := stderr.(interface{ underlying() io.Writer }); ok {
		stderr = l.underlying()
	}
	f, ok := stderr.(*os.File)
	if quiet || !ok || !isTerminal(f) {
		return p
	}
	p.counter = &report.Progress{}
	start := time.Now()
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		// The total is for the line only: it is added up here, beside the
		// reading, and before the line is first shown.
		total := parse.FolderSize(os.DirFS(dir), ".")
		tick := time.NewTicker(250 * time.Millisecond)
		defer tick.Stop()
		shown := false
		for {
			select {
			case <-done:
				if shown {
					fmt.Fprint(f, "\r\033[K")
				}
				return
			case now := <-tick.C:
				if el := now.Sub(start); el >= progressDelay {
					fmt.Fprint(f, "\r"+progressLine(p.counter.Bytes.Load(), total, p.counter.Files.Load(), el)+"\033[K")
					shown = true
				}
			}
		}
	}()
	p.stop = func() { close(done); wg.Wait() }
	return p
}

// progressLine says how much has been read: "ibreport: 512 of 1063 MB
// read (1234 files), 480 MB/s, about 1 s left".
func progressLine(done, total, files int64, elapsed time.Duration) string {
	mb := func(b int64) float64 { return float64(b) / 1e6 }
	rate := mb(done) / elapsed.Seconds()
	s := fmt.Sprintf("ibreport: %.0f of %.0f MB read (%d files), %.0f MB/s", mb(done), mb(total), files, rate)
	switch left := mb(total-done) / rate; {
	case rate <= 0 || total <= done:
	case left < 1:
		s += ", under 1 s left"
	default:
		s += fmt.Sprintf(", about %.0f s left", left)
	}
	return s
}

// isTerminal reports whether f is a terminal. A character-device test
// is not enough: /dev/null is one, and a run redirected there would draw
// its line into nothing, every quarter second.
func isTerminal(f *os.File) bool {
	return term.IsTerminal(int(f.Fd()))
}
