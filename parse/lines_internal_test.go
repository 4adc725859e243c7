package parse

import (
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// numberCases are tokens the fast path and strconv must agree on.
var numberCases = []string{
	"0", "-0", "1", "+1", "12.5", "0.001", ".5", "5.", "-3.25", "123456789012345",
	"1234567890123456", "0.1", "0.3", "86956.52173913043", "1e3", "1E-3", "inf", "NaN",
	"-", "+", ".", "", "1.2.3", "0x10", "1_000", "١", "99999999999999999999", "-.0",
}

func TestNumberMatchesStrconv(t *testing.T) {
	for _, tok := range numberCases {
		checkNumber(t, tok)
	}
}

func FuzzNumber(f *testing.F) {
	for _, tok := range numberCases {
		f.Add(tok)
	}
	f.Fuzz(checkNumber)
}

// checkNumber checks number and numberBytes against strconv.ParseFloat:
// the same value for every finite number, not a number otherwise.
func checkNumber(t *testing.T, tok string) {
	got, ok := number(tok)
	gotB, okB := numberBytes([]byte(tok))
	if ok != okB || ok && math.Float64bits(got) != math.Float64bits(gotB) {
		t.Fatalf("number(%q) = %v %v, numberBytes = %v %v", tok, got, ok, gotB, okB)
	}
	want, err := strconv.ParseFloat(tok, 64)
	wantOK := err == nil && !math.IsNaN(want) && !math.IsInf(want, 0) && !strings.ContainsAny(tok, "xXnNiI_")
	if ok != wantOK || ok && math.Float64bits(got) != math.Float64bits(want) {
		t.Fatalf("number(%q) = %v %v, strconv says %v %v", tok, got, ok, want, wantOK)
	}
}

func TestFieldsBytes(t *testing.T) {
	for _, line := range []string{"", "  ", "a", " a  b\tc ", "\t\tx\t", "1.0\t2.0 3"} {
		var got []string
		var f fieldList
		f.split([]byte(line))
		for i := range f.n() {
			got = append(got, string(f.at(i)))
		}
		if want := fields(line); !slices.Equal(got, want) {
			t.Errorf("split(%q) = %q, want %q", line, got, want)
		}
	}
}

func TestBinaryJunk(t *testing.T) {
	for line, want := range map[string]bool{
		"plain text\twith tab": false, "héllo": false, "\x00abc": true, "a\x1bb": true,
		"\xff\xfe": true, "del\x7f": false, "": false,
	} {
		if got := binaryJunk(line); got != want {
			t.Errorf("binaryJunk(%q) = %v, want %v", line, got, want)
		}
		var f fieldList
		if got := f.split([]byte(line)); got != want {
			t.Errorf("split(%q) says junk %v, want %v", line, got, want)
		}
	}
}

// FuzzNumericLine checks that the one-pass reading of a stats line agrees
// with splitting it and reading each field: when numericLine accepts a
// line, the general way must read the same fields and numbers.
func FuzzNumericLine(f *testing.F) {
	for _, s := range []string{"1.0\t2.0\t3", "-0 1", "1 -0.00 2", "999999999999999 1", "vda 1.00 2.5  3", " -1 +2 .5 5. ", "", "a b", "1 2 3 4 5 6", "x\x00 1", "1 1e3"} {
		f.Add(s, 1)
		f.Add(s, 0)
	}
	f.Fuzz(func(t *testing.T, line string, skip int) {
		skip = ((skip % 3) + 3) % 3
		vals := make([]float64, 4)
		// The line is read as the scanner hands it over, a slice of a
		// buffer with more bytes after it: a newline (the byte the loops
		// stop at), or a digit (which makes withSentinel copy the line).
		tail := byte('\n')
		if skip == 2 {
			tail = '7'
		}
		buf := append([]byte(line), tail)
		n, f0, f1, neg, ok := numericLine(buf[:len(line)], skip, vals)
		if !ok {
			return
		}
		var fl fieldList
		if fl.split([]byte(line)) {
			t.Fatalf("numericLine accepted junk %q", line)
		}
		if fl.n() != n {
			t.Fatalf("%q: numericLine read %d fields, split %d", line, n, fl.n())
		}
		if n > 0 && string(fl.at(0)) != line[f0:f1] {
			t.Fatalf("%q: first field %q, split says %q", line, line[f0:f1], fl.at(0))
		}
		wantNeg := false
		for i := skip; i < n; i++ {
			v, good := numberBytes(fl.at(i))
			if !good || math.Float64bits(v) != math.Float64bits(vals[i-skip]) {
				t.Fatalf("%q field %d: numericLine %v, numberBytes %v %v", line, i, vals[i-skip], v, good)
			}
			if fl.at(i)[0] == '-' {
				wantNeg = true
			}
			if !(v >= 0 && v < Ceiling) && !neg {
				t.Fatalf("%q field %d: %v, outside [0, Ceiling), without neg", line, i, v)
			}
		}
		if neg != wantNeg {
			t.Fatalf("%q: numericLine says neg %v, the fields %v", line, neg, wantNeg)
		}
	})
}

// TestReadersSurviveGC checks that a released scanner's buffer serves the
// next scanner even after garbage collections, that a second release is
// harmless, and that the free list stays bounded.
func TestReadersSurviveGC(t *testing.T) {
	sc := newLineScanner(strings.NewReader("a\nb\n"))
	for sc.Scan() {
	}
	br := sc.b
	sc.release()
	sc.release()
	runtime.GC()
	runtime.GC()
	next := newLineScanner(strings.NewReader("c\n"))
	defer next.release()
	if next.b != br {
		t.Error("the released buffer was not reused after a garbage collection")
	}
	if !next.Scan() || string(next.line) != "c" {
		t.Errorf("reused scanner read %q, want c", next.line)
	}
	var scs []*lineScanner
	for range 2 * maxFreeReaders {
		scs = append(scs, newLineScanner(strings.NewReader("")))
	}
	for _, s := range scs {
		s.release()
	}
	readers.Lock()
	n := len(readers.free)
	readers.Unlock()
	if n > maxFreeReaders {
		t.Errorf("%d free buffers kept, want at most %d", n, maxFreeReaders)
	}
}

// FuzzSplitUpTo checks splitUpTo against fields and binaryJunk: the first
// max-1 fields are fields', the max-th is the rest of the line from its
// first byte, and junk is binaryJunk's verdict on the whole line.
func FuzzSplitUpTo(f *testing.F) {
	for _, s := range []string{
		"postgres 11024  0.1  0.1 217120 29332 ?        Ss   21:30   0:00 postgres -D pgdata.c1",
		"a b\tc  d ", "", "  ", "x\x00 y z", "a b c\x7f d", "a b c \x01", "a b c\td\te\t", "héllo wörld ça va bien",
		"a\xffb c", "a b c 0123456789abcdefghij\x1fklmnop", "a b c 0123456789abcdefghij\tklmnop~~~~~~~~~",
	} {
		for _, max := range []int{0, 1, 3, 11} {
			f.Add(s, max)
		}
	}
	f.Fuzz(func(t *testing.T, line string, max int) {
		max = ((max % 13) + 13) % 13
		var fl fieldList
		junk := fl.splitUpTo(max, []byte(line))
		if want := binaryJunk(line); junk != want {
			t.Fatalf("splitUpTo(%d, %q) says junk %v, binaryJunk %v", max, line, junk, want)
		}
		want := fields(line)
		if max > 0 && len(want) >= max {
			i := 0
			for range max - 1 {
				i += strings.IndexFunc(line[i:], func(r rune) bool { return r != ' ' && r != '\t' })
				i += len(want[0])
				want = want[1:]
			}
			i += strings.IndexFunc(line[i:], func(r rune) bool { return r != ' ' && r != '\t' })
			want = append(want[:0:0], fields(line)[:max-1]...)
			want = append(want, line[i:])
		}
		var got []string
		for i := range fl.n() {
			got = append(got, string(fl.at(i)))
		}
		if !slices.Equal(got, want) {
			t.Fatalf("splitUpTo(%d, %q) = %q, want %q", max, line, got, want)
		}
	})
}

// FuzzNumericLineSome checks numericLineSome against numericLine: the same
// lines accepted, the same field counts and signs, and the converted
// numbers the same to the bit.
func FuzzNumericLineSome(f *testing.F) {
	for _, s := range []string{"1.0\t2.0\t3", "-0 1", "1 -0.00 2", "999999999999999 1", "1234567890123456 2",
		" -1 +2 .5 5. ", "", "a b", "1 2 3 4 5 6", "1 1e3", "1 2x", "+ 1", "- 1", ". 1", "1.2.3 4"} {
		f.Add(s, uint8(0x55))
		f.Add(s, uint8(0xff))
		f.Add(s, uint8(0))
	}
	f.Fuzz(func(t *testing.T, line string, mask uint8) {
		// In a buffer with a newline after the line (the sentinel the
		// loops stop at) or, for odd masks, a digit (which makes
		// withSentinel copy the line).
		tail := byte('\n')
		if mask&1 != 0 {
			tail = '5'
		}
		b := append([]byte(line), tail)[:len(line)]
		conv := make([]bool, 5)
		for k := range conv {
			conv[k] = mask&(1<<k) != 0
		}
		all := make([]float64, 5)
		some := make([]float64, 5)
		n, _, _, neg, ok := numericLine(b, 0, all)
		n2, neg2, ok2 := numericLineSome(b, some, conv)
		if ok != ok2 || ok && (n != n2 || neg != neg2) {
			t.Fatalf("%q: numericLineSome %d %v %v, numericLine %d %v %v", line, n2, neg2, ok2, n, neg, ok)
		}
		if !ok {
			return
		}
		for k := range n {
			if conv[k] && math.Float64bits(some[k]) != math.Float64bits(all[k]) {
				t.Fatalf("%q field %d: numericLineSome %v, numericLine %v", line, k, some[k], all[k])
			}
		}
	})
}

// TestGetIntervalsBestFit checks that a log is given the smallest released
// slice it fits in, so that a longer log after it finds the larger one.
func TestGetIntervalsBestFit(t *testing.T) {
	intervalSlices.Lock()
	saved := intervalSlices.free
	intervalSlices.free = nil
	intervalSlices.Unlock()
	defer func() {
		intervalSlices.Lock()
		intervalSlices.free = saved
		intervalSlices.Unlock()
	}()
	for _, n := range []int{1000, 10, 100} {
		(&ClientLog{Intervals: make([]Interval, 0, n)}).Release()
	}
	for _, c := range []struct{ n, cap int }{{50, 100}, {50, 1000}, {5, 10}, {5, 5}} {
		if got := cap(getIntervals(c.n)); got != c.cap {
			t.Errorf("getIntervals(%d): room for %d, want %d", c.n, got, c.cap)
		}
	}
}
