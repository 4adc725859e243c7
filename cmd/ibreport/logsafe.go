package main

import (
	"bytes"
	"io"
	"sync"
)

// logSafe is a writer to stdout or stderr that keeps the data it prints
// from acting as a CI runner's command. The GitHub Actions runner obeys
// a legacy form of its workflow commands, ##[command]data, anywhere in a
// line of a step's output: a DBMS name, a column of an iostat header or
// a cell of a log from a pull request's NEW run would otherwise turn off
// the annotations of every later regression (##[stop-commands]), mask
// the log (##[add-mask]) or forge an annotation (##[error]). Every "##["
// is written "#\u0023[": the text stays readable, a JSON string stays
// valid JSON (and reads back as the name), and the runner sees no
// command. The ::command form needs the start of a line: on stderr, where
// ibreport writes no command of its own, a line that starts with "::" (a
// file name after the newline of a message listing several errors)
// starts ":\x3a". On stdout the github format writes its own commands,
// with the data in them escaped (textfmt.GitHubEscape).
//
// The end of a write that could begin a pattern ('#', "##", a newline,
// "\n:") is held back until the next write or Flush, so that a pattern
// split across two writes is caught too.
type logSafe struct {
	mu   sync.Mutex
	w    io.Writer
	held []byte
	// lines: also make a line that starts with "::" inert (stderr);
	// started is set once a byte was written.
	lines, started bool
}

// logSafeOf wraps w; a logSafe already is one. lines is for stderr.
func logSafeOf(w io.Writer, lines bool) *logSafe {
	if l, ok := w.(*logSafe); ok {
		return l
	}
	return &logSafe{w: w, lines: lines}
}

var (
	runnerCommand = []byte("##[")
	inertCommand  = []byte(`#\u0023[`)
	lineCommand   = []byte("\n::")
	inertLine     = []byte("\n" + `:\x3a`)
)

// holdBack is how many bytes at the end of buf could begin a pattern.
func (l *logSafe) holdBack(buf []byte) int {
	pats := [][]byte{runnerCommand}
	if l.lines {
		pats = append(pats, lineCommand)
	}
	most := 0
	for _, p := range pats {
		for n := len(p) - 1; n > most; n-- {
			if bytes.HasSuffix(buf, p[:n]) {
				most = n
				break
			}
		}
	}
	return most
}

// Write writes p with every "##[" made inert. It reports len(p) written
// when the underlying write succeeds.
func (l *logSafe) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	buf := append(l.held, p...)
	k := len(buf) - l.holdBack(buf)
	out := bytes.ReplaceAll(buf[:k], runnerCommand, inertCommand)
	if l.lines {
		out = bytes.ReplaceAll(out, lineCommand, inertLine)
		if !l.started && bytes.HasPrefix(out, lineCommand[1:]) {
			out = append([]byte(`:\x3a`), out[2:]...)
		}
	}
	if len(out) > 0 {
		l.started = true
	}
	l.held = append(l.held[:0:0], buf[k:]...)
	if len(out) == 0 {
		return len(p), nil
	}
	if _, err := l.w.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes what is held back.
func (l *logSafe) Flush() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.held) == 0 {
		return nil
	}
	_, err := l.w.Write(l.held)
	l.held = nil
	return err
}

// underlying is the writer wrapped (for the terminal check of the
// progress line).
func (l *logSafe) underlying() io.Writer { return l.w }
