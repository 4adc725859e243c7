package parse

import (
	"bytes"
	"fmt"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// scanPsRef is ScanPs as it was before its fast path: every field of a
// line split, TIME read through a string. The fast path must agree with it
// on every input.
func scanPsRef(r *strings.Reader, name string, each func(row *PsRow)) (*PsSamples, error) {
	p := &PsSamples{Name: name}
	var errs ErrorList
	var f fieldList
	var row PsRow
	sc := newLineScanner(r)
	defer sc.release()
	lines := 0
	for sc.Scan() {
		n, line := sc.n, sc.line
		lines = n
		junk := f.split(line)
		if sc.long || junk {
			errs.add(name, n, "binary data or overlong line")
			continue
		}
		nf := f.n()
		if nf == 0 {
			continue
		}
		if f.is(0, "USER") && f.is(1, "PID") {
			continue
		}
		if isDateLine(&f) {
			p.Samples++
			continue
		}
		if nf < 11 {
			errs.add(name, n, "ps line has %d fields, want at least 11", nf)
			continue
		}
		row = PsRow{Line: n, User: string(f.at(0))}
		pid, ok1 := intBytes(f.at(1))
		vsz, ok2 := intBytes(f.at(4))
		rss, ok3 := intBytes(f.at(5))
		t, ok := psTime(string(f.at(9)))
		if !ok1 || !ok2 || !ok3 || !ok {
			errs.add(name, n, "not a ps aux line (PID, VSZ, RSS or TIME malformed)")
			continue
		}
		if err := firstError(Plausible(Size, float64(vsz)), Plausible(Size, float64(rss))); err != nil {
			errs.add(name, n, "ps line: VSZ or RSS: %v", err)
			continue
		}
		row.PID, row.VSZ, row.RSS, row.CPUTime = int(pid), vsz, rss, t
		if each != nil {
			row.Raw = line
			each(&row)
			row.Raw = nil
			continue
		}
		text := sc.Text()
		row.Text = text
		row.Command = psCommand(text[f.off[20]:])
		p.Rows = append(p.Rows, row)
	}
	if err := sc.Err(); err != nil {
		return p, err
	}
	if lines == 0 {
		errs.add(name, 0, "empty file")
	}
	return p, errs.Err()
}

// samePs fails t unless ScanPs and scanPsRef agree on input, read whole
// and streamed: the same rows to the bit, samples and errors.
func samePs(t *testing.T, label, input string) {
	t.Helper()
	got, gotErr := ReadPs(strings.NewReader(input), "ps")
	want, wantErr := scanPsRef(strings.NewReader(input), "ps", nil)
	if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
		t.Fatalf("%s: error\n got %v\nwant %v", label, gotErr, wantErr)
	}
	if !samePsRows(got.Rows, want.Rows) || got.Samples != want.Samples {
		t.Fatalf("%s: rows or samples differ\n got %d %+v\nwant %d %+v", label, got.Samples, got.Rows, want.Samples, want.Rows)
	}
	var gotEach, wantEach []PsRow
	// Raw is valid during the call only: keep a copy.
	keep := func(to *[]PsRow) func(r *PsRow) {
		return func(r *PsRow) {
			x := *r
			x.Raw = bytes.Clone(r.Raw)
			*to = append(*to, x)
		}
	}
	if _, err := ScanPs(strings.NewReader(input), "ps", keep(&gotEach)); fmt.Sprint(err) != fmt.Sprint(wantErr) {
		t.Fatalf("%s: streamed error\n got %v\nwant %v", label, err, wantErr)
	}
	scanPsRef(strings.NewReader(input), "ps", keep(&wantEach))
	if !samePsRows(gotEach, wantEach) {
		t.Fatalf("%s: streamed rows differ\n got %+v\nwant %+v", label, gotEach, wantEach)
	}
}

// samePsRows compares rows with CPUTime to the bit.
func samePsRows(a, b []PsRow) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if math.Float64bits(x.CPUTime) != math.Float64bits(y.CPUTime) {
			return false
		}
		x.CPUTime, y.CPUTime = 0, 0
		if !reflect.DeepEqual(x, y) {
			return false
		}
	}
	return true
}

// psEdgeLines are lines at the edges of the fast path: fields 10 and 11,
// blanks and junk in the command, every TIME form.
var psEdgeLines = []string{
	"u 1 0 0 10 20 ? S 01:00 123:45 a",
	"u 1 0 0 10 20 ? S 01:00 123:45",
	"u 1 0 0 10 20 ? S 01:00 123:45 ",
	"u 1 0 0 10 20 ? S 01:00 123:45 \t",
	"u 1 0 0 10 20 ? S 01:00 123:45 a  b\tc ",
	"u 1 0 0 10 20 ? S 01:00 123:45\ta\x00b",
	"u 1 0 0 10 20 ? S 01:00 123:45 a\x01",
	"u 1 0 0 10 20 ? S 01:00 123:45 caf\xc3\xa9",
	"u 1 0 0 10 20 ? S 01:00 123:45 caf\xc3",
	"u 1 0 0 10 20 ? S 01:00 123:45 a\x7f",
	"u\x00 1 0 0 10 20 ? S 01:00 123:45 a",
	"u 1 0 0 10 20 ? S 01:00 1\xff:45 a",
	"u 1 0 0 10 20 ? S 01:00 123:45 a b c d e f g h i j k l m",
	"u 1 0 0 10 20 ? S 01:00",
	"USER PID a b c d e f g h i j",
	"Mon Nov 30 01:02:03 UTC 2026 x y z w v",
	"Mon a b c d e f g h i j k",
	"",
	"   ",
	"\t",
}

// psTimes are TIME fields, usual and not.
var psTimes = []string{
	"0:00", "0:01", "123:45", "01:02:03", "1-02:03:04", "0:01.5", "00:00:00", "999999999999999:59",
	"9999999999999999:59", "1:9999999999999999", "1-2", "1-2:3", "1-2:3:4:5", "1:2:3:4", "1:2:3:4:5",
	"1:2-3:4", "-1:00", "+1:00", "1:+2", "1:-0", "-0:00", "1-", "-", ":", "1:", ":1", "1::2", "x",
	"0x1:00", "1e3:00", "1--2:3", "1-2-3:4", "12", "١:00", "1:00\x00", "99999999999999-23:59:59",
}

func TestScanPsFastPathSameAsReference(t *testing.T) {
	for i, l := range psEdgeLines {
		samePs(t, fmt.Sprintf("edge line %d %q", i, l), l+"\n")
	}
	for _, tm := range psTimes {
		samePs(t, "TIME "+tm, "u 1 0 0 10 20 ? S 01:00 "+tm+" cmd x\n")
		samePs(t, "TIME last "+tm, "u 1 0 0 10 20 ? S 01:00 "+tm+"\n")
	}
	n := 0
	err := filepath.WalkDir("../testdata", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		base := filepath.Base(path)
		if !strings.HasPrefix(base, "o.ps") && !strings.HasPrefix(base, "sb.ps") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		samePs(t, path, string(b))
		n++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 10 {
		t.Fatalf("only %d ps files under testdata", n)
	}
}

// TestScanPsFastPathRandomLines mutates real ps lines at random (seeded):
// blanks, junk bytes, digits, colons and dashes where the fast path decides.
func TestScanPsFastPathRandomLines(t *testing.T) {
	base := []string{
		"postgres 25476  0.2  0.2 1170208 59660 ?       Ss   21:41   0:00 postgres -D pgdata.c2",
		"mdcallag 1308583 10.0 21.9 102999016 28906372 ?  Ssl  07:52  10:11 /usr/sbin/mysqld --basedir=/b",
		"u 3 0 0 10 10 ? S 01:00 1-02:03:04 c",
		"Sun Nov 29 21:30:00 UTC 2026",
	}
	alphabet := []byte(" \t0123456789:-.+x\x00\x7f\xc3\xa9\xffAM")
	rng := rand.New(rand.NewPCG(25, 2))
	for i := range 20000 {
		b := []byte(base[rng.IntN(len(base))])
		for range 1 + rng.IntN(4) {
			j := rng.IntN(len(b) + 1)
			c := alphabet[rng.IntN(len(alphabet))]
			switch rng.IntN(3) {
			case 0:
				if j < len(b) {
					b[j] = c
				}
			case 1:
				b = append(b[:j], append([]byte{c}, b[j:]...)...)
			default:
				if j < len(b) {
					b = append(b[:j], b[j+1:]...)
				}
			}
		}
		samePs(t, fmt.Sprintf("random line %d %q", i, b), string(b)+"\n")
	}
}
