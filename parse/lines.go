package parse

import (
	"bufio"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// maxLine is the longest line a reader accepts. Longer lines are reported and
// skipped instead of aborting the read, because a corrupt log must not hide
// the good lines after it.
const maxLine = 1 << 20

// lineScanner yields the lines of r with their 1-based numbers, without the
// line terminator (a trailing '\r' is removed too).
type lineScanner struct {
	r    *bufio.Reader
	buf  []byte
	n    int
	text string
	long bool // the current line was longer than maxLine and was cut
	done bool
	err  error
}

func newLineScanner(r io.Reader) *lineScanner {
	return &lineScanner{r: bufio.NewReaderSize(r, 8<<10)}
}

// Scan advances to the next line and reports whether there is one.
func (s *lineScanner) Scan() bool {
	if s.done {
		return false
	}
	s.long = false
	s.buf = s.buf[:0]
	for {
		frag, err := s.r.ReadSlice('\n')
		if !s.long {
			if len(s.buf)+len(frag) <= maxLine+2 { // room for "\r\n"
				s.buf = append(s.buf, frag...)
			} else {
				s.long = true
			}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			s.done = true
			if err != io.EOF {
				s.err = err
				return false
			}
			if len(s.buf) == 0 && !s.long {
				return false
			}
		}
		break
	}
	s.n++
	line := trimEOL(s.buf)
	if len(line) > maxLine {
		s.long = true
		line = line[:maxLine]
	}
	s.text = string(line)
	return true
}

// Err returns the first I/O error met, or nil at a clean end of input.
func (s *lineScanner) Err() error { return s.err }

func trimEOL(b []byte) []byte {
	if n := len(b); n > 0 && b[n-1] == '\n' {
		b = b[:n-1]
	}
	if n := len(b); n > 0 && b[n-1] == '\r' {
		b = b[:n-1]
	}
	return b
}

// fields splits a line on runs of blanks (spaces and tabs), as awk does.
func fields(s string) []string {
	n := 0
	in := false
	for i := 0; i < len(s); i++ {
		blank := s[i] == ' ' || s[i] == '\t'
		if !blank && !in {
			n++
		}
		in = !blank
	}
	out := make([]string, 0, n)
	start := -1
	for i := 0; i < len(s); i++ {
		if s[i] == ' ' || s[i] == '\t' {
			if start >= 0 {
				out = append(out, s[start:i])
				start = -1
			}
		} else if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		out = append(out, s[start:])
	}
	return out
}

// binaryJunk reports whether a line holds bytes that never occur in the text
// the benchmark tools print.
func binaryJunk(s string) bool {
	if !utf8.ValidString(s) {
		return true
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 && c != '\t' {
			return true
		}
	}
	return false
}

// number parses a token as a finite float. It rejects NaN and infinities,
// which no benchmark tool prints as a measurement.
func number(tok string) (float64, bool) {
	if strings.ContainsAny(tok, "xXnNiI_") {
		return 0, false // hex floats, NaN, Inf and digit separators are not measurements
	}
	v, err := strconv.ParseFloat(tok, 64)
	if err != nil {
		return 0, false
	}
	if v != v || v > 1.7976931348623157e308 || v < -1.7976931348623157e308 {
		return 0, false
	}
	return v, true
}
