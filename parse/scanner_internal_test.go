package parse

import (
	"bufio"
	"errors"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
)

// bufioScanner is the line scanner as it was on a bufio.Reader: the
// reference the scanner of its own must agree with, line for line.
type bufioScanner struct {
	r    *bufio.Reader
	buf  []byte
	n    int
	line []byte
	long bool
	done bool
	err  error
}

func (s *bufioScanner) Scan() bool {
	if s.done {
		return false
	}
	s.long = false
	s.buf = s.buf[:0]
	var whole []byte
	first := true
	for {
		frag, err := s.r.ReadSlice('\n')
		switch {
		case first && err != bufio.ErrBufferFull:
			whole = frag
		case !s.long:
			if first {
				s.buf = append(s.buf, frag...)
			} else if whole != nil {
				s.buf = append(append(s.buf, whole...), frag...)
				whole = nil
			} else if len(s.buf)+len(frag) <= maxLine+2 {
				s.buf = append(s.buf, frag...)
			} else {
				s.long = true
			}
		}
		first = false
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			s.done = true
			if err != io.EOF {
				s.err = err
				return false
			}
			if len(whole) == 0 && len(s.buf) == 0 && !s.long {
				return false
			}
		}
		break
	}
	s.n++
	line := s.buf
	if whole != nil {
		line = whole
	}
	line = trimEOL(line)
	if len(line) > maxLine {
		s.long = true
		line = line[:maxLine]
	}
	s.line = line
	return true
}

// choppy reads its data in pieces of random sizes, with reads of nothing
// in between, and ends with err (io.EOF when nil) returned with the last
// bytes or after them.
type choppy struct {
	data    []byte
	rng     *rand.Rand
	err     error
	withEnd bool
	empties int
}

func (c *choppy) Read(b []byte) (int, error) {
	if c.empties > 0 && c.rng.IntN(4) == 0 {
		c.empties--
		return 0, nil
	}
	n := min(len(b), len(c.data), 1+c.rng.IntN(300<<10))
	copy(b, c.data[:n])
	c.data = c.data[n:]
	end := c.err
	if end == nil {
		end = io.EOF
	}
	if len(c.data) == 0 && (n == 0 || c.withEnd) {
		return n, end
	}
	return n, nil
}

// TestScannerMatchesBufio runs the scanner and the bufio one over the
// same inputs, cut into reads of random sizes: short lines, lines longer
// than the buffer, than maxLine, CRLF, a last line without a newline,
// empty reads, and I/O errors.
func TestScannerMatchesBufio(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 9))
	pieces := []string{
		"a\n", "vda 1.00 2.00\n", "\n", "x\r\n", "\r\n", "\r",
		strings.Repeat("b", readBuf-1) + "\n", strings.Repeat("c", readBuf) + "\n", strings.Repeat("d", readBuf+1) + "\n",
		strings.Repeat("e", maxLine) + "\n", strings.Repeat("f", maxLine+1) + "\r\n", strings.Repeat("g", maxLine+2) + "\n",
		strings.Repeat("h", 3*maxLine) + "\n", strings.Repeat("i", maxLine-1) + "\r\n",
	}
	boom := errors.New("boom")
	for trial := range 120 {
		var sb strings.Builder
		for range rng.IntN(12) {
			p := pieces[rng.IntN(len(pieces))]
			if rng.IntN(3) > 0 {
				p = pieces[rng.IntN(6)] // mostly short lines
			}
			sb.WriteString(p)
		}
		if rng.IntN(3) == 0 {
			sb.WriteString("tail without newline")
		}
		data := []byte(sb.String())
		var end error
		if trial%4 == 3 {
			end = boom
		}
		withEnd, empties := rng.IntN(2) == 0, rng.IntN(5)
		seed := rng.Uint64()
		got := newLineScanner(&choppy{data: data, rng: rand.New(rand.NewPCG(seed, 1)), err: end, withEnd: withEnd, empties: empties})
		want := &bufioScanner{r: bufio.NewReaderSize(&choppy{data: data, rng: rand.New(rand.NewPCG(seed, 1)), err: end, withEnd: withEnd, empties: empties}, 64<<10)}
		for {
			g, w := got.Scan(), want.Scan()
			if g != w {
				t.Fatalf("trial %d line %d: Scan %v, bufio's %v", trial, want.n, g, w)
			}
			if !g {
				break
			}
			if got.n != want.n || got.long != want.long || string(got.line) != string(want.line) {
				t.Fatalf("trial %d: line %d long %v (%d bytes), bufio's line %d long %v (%d bytes)",
					trial, got.n, got.long, len(got.line), want.n, want.long, len(want.line))
			}
		}
		if !errors.Is(got.Err(), want.err) || (got.Err() == nil) != (want.err == nil) {
			t.Fatalf("trial %d: error %v, bufio's %v", trial, got.Err(), want.err)
		}
		got.release()
	}
}

// TestScannerNoProgress gives up on a reader that returns nothing, as
// bufio does.
func TestScannerNoProgress(t *testing.T) {
	sc := newLineScanner(readerFunc(func([]byte) (int, error) { return 0, nil }))
	defer sc.release()
	if sc.Scan() || !errors.Is(sc.Err(), io.ErrNoProgress) {
		t.Fatalf("Scan on a reader of nothing: err %v, want io.ErrNoProgress", sc.Err())
	}
}

type readerFunc func([]byte) (int, error)

func (f readerFunc) Read(b []byte) (int, error) { return f(b) }
