package parse

import (
	"strings"
	"testing"
)

// sbFullIntervals are interval lines of the layout sbIntervalFast reads,
// and the same with one value or separator made wrong in each way the
// general reading tells apart.
var sbFullIntervals = func() []string {
	const good = "[ 12s ] thds: 40 tps: 1003.25 qps: 20065.00 (r/w/o: 14045.50/4013.00/2006.50) lat (ms,95%): 3.75 err/s: 0.00 reconn/s: 0.00"
	out := []string{good,
		"[ 1s ] thds: 1 tps: 0.00 qps: 0.00 (r/w/o: 0.00/0.00/0.00) lat (ms,99%): 0.00 err/s: 0.00 reconn/s: 0.00",
		"[ 3600s ] thds: 256 tps: 12.5 qps: 1e3 (r/w/o: 1/2/3) lat (ms,100%): 1234567.89 err/s: 1.5 reconn/s: 2",
		"[ 0.5s ] thds: 4 tps: 1 qps: 2 (r/w/o: 1/2/3) lat (ms,1%): 3 err/s: 0 reconn/s: 0",
	}
	for _, r := range [][2]string{
		{"12s", "12"}, {"12s", "-12s"}, {"12s", "s"}, {"thds: 40", "thds: 40.5"}, {"thds: 40", "thds: -4"},
		{"tps: 1003.25", "tps: -1"}, {"tps: 1003.25", "tps: NaN"}, {"tps: 1003.25", "tps: 1e300"},
		{"qps: 20065.00", "qps: x"}, {"14045.50/", "14045.50//"}, {"/2006.50)", "/2006.50"},
		{"(ms,95%)", "(ms,0%)"}, {"(ms,95%)", "(ms,101%)"}, {"(ms,95%)", "(ms,%)"}, {"(ms,95%)", "(ms,+95%)"},
		{"3.75", "-3.75"}, {"3.75", "inf"}, {"err/s: 0.00", "err/s: -1"}, {"reconn/s: 0.00", "reconn/s: 0x1p3"},
		{"reconn/s: 0.00", "reconn/s: 0.00 "}, {"reconn/s: 0.00", "reconn/s:"}, {"reconn/s: 0.00", "reconn/s: 0.00 extra: 1"},
		{"tps: ", "tps:  "}, {"[ ", "["}, {"thds:", "eps:"}, {"qps: 20065.00 ", ""}, {"3.75", "3.75\x00"},
		{"tps: 1003.25", "tps: 1_003.25"}, {"thds: 40", "thds: 4e1"},
		{"tps: 1003.25", "tps: +1003.25"}, {"tps: 1003.25", "tps: 1003.25.1"}, {"tps: 1003.25", "tps: -0"},
		{"tps: 1003.25", "tps: +"}, {"qps: 20065.00", "qps: 1234567890123.456"}, {"qps: 20065.00", "qps: .5"},
		{"qps: 20065.00", "qps: 5."}, {"qps: 20065.00", "qps: ."}, {"3.75", "3.75/"}, {"12s", "12.s"},
		{"4013.00/", "4013.00 /"}, {"reconn/s: 0.00", "reconn/s: 0.001234567890123"},
	} {
		out = append(out, strings.Replace(good, r[0], r[1], 1))
	}
	return out
}()

// TestSbIntervalFast checks that the one-pass reading of the common
// interval line takes exactly the lines the general reading takes without
// a message, with the same values, and leaves every other line to it.
func TestSbIntervalFast(t *testing.T) {
	for i, line := range append(sbFullIntervals, sbFastCases...) {
		// The first four are good lines of the full layout: the fast path
		// must take them, or it buys nothing.
		if took := sameInterval(t, line); i < 4 && !took {
			t.Errorf("%q: the fast path left a good line to the general reading", line)
		}
	}
}

// sameInterval compares the two readings of line; it reports whether the
// fast one took it.
func sameInterval(t *testing.T, line string) bool {
	t.Helper()
	fast, ok := sbIntervalFast([]byte(line))
	var fl fieldList
	junk := fl.split([]byte(line))
	var want SysbenchInterval
	msg := "junk"
	if !junk && fl.n() > 2 && fl.is(0, "[") && fl.is(2, "]") {
		want, msg = parseSysbenchIntervalBytes(&fl)
	} else if !junk {
		msg = "not an interval line"
	}
	if ok && msg != "" {
		t.Errorf("%q: fast path took a line the general reading reports: %s", line, msg)
	}
	if ok && fast != want {
		t.Errorf("%q: fast %+v, general %+v", line, fast, want)
	}
	return ok
}

func FuzzSbIntervalFast(f *testing.F) {
	for _, l := range sbFullIntervals {
		f.Add(l)
	}
	f.Fuzz(func(t *testing.T, line string) {
		if strings.ContainsAny(line, "\n\r") {
			return
		}
		sameInterval(t, line)
	})
}

// BenchmarkSbIntervalFast reads the common interval line.
func BenchmarkSbIntervalFast(b *testing.B) {
	line := []byte(sbFullIntervals[0])
	b.SetBytes(int64(len(line)))
	for b.Loop() {
		if _, ok := sbIntervalFast(line); !ok {
			b.Fatal("not read")
		}
	}
}
