package parse

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// readSysbenchRef is ReadSysbench as it was before its fast path: every
// line split into strings. The fast path must give the same output and
// errors for every input.
func readSysbenchRef(r io.Reader, name string) (*SysbenchOutput, error) {
	o := &SysbenchOutput{Name: name}
	var errs ErrorList
	sc := newLineScanner(r)
	section := ""
	isRun := false
	for sc.Scan() {
		n, line := sc.n, sc.Text()
		o.Lines = n
		if sc.long || binaryJunk(line) {
			errs.add(name, n, "binary data or overlong line")
			continue
		}
		t := strings.TrimSpace(line)
		f := fields(t)
		if len(f) == 0 {
			continue
		}
		switch {
		case n == 1 && isSysbenchCommand(f):
			o.Command = line
			o.parseOptions(f)
			isRun = contains(f, "run")
			continue
		case o.Options == nil && isSysbenchCommand(f):
			// prepare logs echo the command after the table drops
			o.parseOptions(f)
			continue
		case len(f) == 2 && f[1] == "CPUs" && o.CPUs == 0:
			if c, err := strconv.Atoi(f[0]); err == nil && c > 0 {
				o.CPUs = c
			} else {
				errs.add(name, n, "CPU count %q is not a positive integer", f[0])
			}
			continue
		case f[0] == "sysbench" && len(f) > 1 && o.Version == "":
			o.Version = f[1]
			continue
		case strings.HasPrefix(t, "FATAL:"):
			o.Fatal = append(o.Fatal, Pos{name, n})
			continue
		case strings.HasPrefix(t, "Number of threads:"):
			if v, err := strconv.Atoi(f[len(f)-1]); err == nil && v > 0 {
				o.Threads = v
			} else {
				errs.add(name, n, "thread count %q is not a positive integer", f[len(f)-1])
			}
			continue
		case strings.HasPrefix(t, "Warmup time:"):
			if v, ok := number(strings.TrimSuffix(f[len(f)-1], "s")); ok && v >= 0 {
				o.Warmup = v
			}
			continue
		case f[0] == "[" && len(f) > 2 && f[2] == "]":
			if iv, msg := parseSysbenchInterval(f); msg != "" {
				errs.add(name, n, "%s", msg)
			} else {
				iv.Line = n
				o.Intervals = append(o.Intervals, iv)
			}
			continue
		case strings.HasPrefix(t, "Load seconds is"):
			if l, ok := parseLoadLine(f); ok {
				l.Line = n
				l.IPS.Line = n
				o.Load = &l
			} else {
				errs.add(name, n, "malformed Load seconds line")
			}
			continue
		case f[0] == "Inserting" && len(f) >= 3 && f[2] == "records":
			if v, err := strconv.ParseInt(f[1], 10, 64); err == nil && v >= 0 {
				o.Rows += v
			}
			continue
		}
		if msg := o.reportLine(t, f, n, &section); msg != "" {
			errs.add(name, n, "%s", msg)
		}
	}
	if err := sc.Err(); err != nil {
		return o, err
	}
	rep := &o.Report
	switch {
	case o.Lines == 0:
		errs.add(name, 0, "empty file")
	case o.HasReport && (!rep.LatAvg.Found() || !rep.LatMax.Found()):
		errs.add(name, o.Lines, "final report ends before its Latency block (output cut short)")
	case !o.HasReport && isRun:
		errs.add(name, o.Lines, "output ends without sysbench's final report (the run died or was stopped)")
	}
	return o, errs.Err()
}

// sameSysbench fails the test when ReadSysbench and readSysbenchRef differ
// on input.
func sameSysbench(t *testing.T, input string) {
	t.Helper()
	got, gerr := ReadSysbench(strings.NewReader(input), "f")
	want, werr := readSysbenchRef(strings.NewReader(input), "f")
	if fmt.Sprint(gerr) != fmt.Sprint(werr) {
		t.Fatalf("errors differ on %q:\n got %v\nwant %v", input, gerr, werr)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("outputs differ on %q:\n got %+v\nwant %+v", input, got, want)
	}
}

// sbFastCases are lines the fast path must leave to the general reading,
// or skip, exactly as it would have read them, each placed in a run output
// before the report, as an interval and inside the report.
var sbFastCases = []string{
	"\t-> Filter: (sbtest1.id between 1 and 101)  (cost=20.6 rows=101)",
	"table 1 : explain SELECT id FROM sbtest1 WHERE id BETWEEN 1 AND 101",
	"explain: for range-covered :: explain SELECT id FROM sbtest%d",
	"for point_selects",
	"   ",
	"\u00a0SQL statistics:",
	"SQL statistics:\u00a0",
	"\u00a0[ 5s ] thds: 2 tps: 1 qps: 2",
	"[ 5s ] thds: 2 tps: 1 qps: 2\u00a0",
	"[ 5s ] thds: 2 tps: 1 qps: 2 (r/w/o: 1/2/3) lat (ms,95%): 3.96 err/s: 0.00 reconn/s: 0.00",
	"[ 5s ] thds: 2 tps: 1 qps: 2 (r/w/o: 1/2) lat (ms,95%): 3.96",
	"[ 5s ] thds: 2 tps: 1 qps: 2 (r/w/o: 1/2/3/4) lat (ms,95%): 3.96",
	"[ 5s ] thds: 2 tps: 1 qps: 2 (r/w/o: 1/x/3) lat (ms,+95%): 3.96",
	"[ 5s ] thds: 2 tps: 1 lat (ms,0%): 3.96",
	"[ 5s ] thds: 2 tps: 1 lat (ms,101%): 3.96",
	"[ 5s ] thds: 2 tps: 1 lat (ms,99999999999999999999999%): 3.96",
	"[ 5s ] thds: 2 tps: 1 lat (ms,-5%): 3.96",
	"[ 5s ] thds: 2 tps: 1 lat (ms,%): 3.96",
	"[ 5s ] thds: 2 tps: 1 lat (ms,95%):",
	"[ 5s ] thds: 2.5 tps: 1",
	"[ 5s ] thds: 2 tps: 1e300",
	"[ 5s ] thds: 2 tps: -1",
	"[ 5s ] thds: 2 tps: NaN",
	"[ 5 ] thds: 2 tps: 1",
	"[ -5s ] thds: 2 tps: 1",
	"[ 5s ] eps: 3 thds: 1",
	"[ 5s ] thds: 2",
	"[ 5s ]",
	"[",
	"[5s] thds: 2 tps: 1",
	"2 CPUs",
	"4 CPUs",
	"FATAL: mysql_stmt_execute() returned error",
	"FATAL:x",
	"Number of threads: 8",
	"Warmup time: 5s",
	"Load seconds is 730 for 8 tables, .109 Mips, 109589 ips",
	"Inserting 100000 records into 'sbtest1'",
	"sysbench 1.0.20 (using system LuaJIT 2.1.0-beta3)",
	"/usr/bin/sysbench --threads=4 run",
	"Threads started!",
	"Throughput:",
	"Latency (ms):",
	"queries performed:",
	"General statistics:",
	"    min:    0.03",
	"\tmin: 5",
	"    total time:                          20.0050s",
	"\x00binary",
	"\u00e9t\u00e9 \u00e9",
	"caf\u00e9",
	"x\x7fy",
	"0123456\t89abcdef\x7f",
}

const sbFastRun = "sysbench --threads=2 run\n2 CPUs\nsysbench 1.0.20 (using system LuaJIT 2.1.0-beta3)\nNumber of threads: 2\n"

const sbFastReport = `SQL statistics:
    queries performed:
        read:                            0
        write:                           81139
        other:                           0
        total:                           81139
    transactions:                        81139  (4055.29 per sec.)
    queries:                             81139  (4055.29 per sec.)
    ignored errors:                      0      (0.00 per sec.)
    reconnects:                          0      (0.00 per sec.)

General statistics:
    total time:                          20.0050s
    total number of events:              81139

Latency (ms):
         min:                                    0.26
         avg:                                    0.49
         max:                                   10.31
         95th percentile:                        0.73
         sum:                                39836.50
`

func TestReadSysbenchFastSame(t *testing.T) {
	for i, c := range sbFastCases {
		for j, in := range []string{
			sbFastRun + c + "\n" + sbFastReport,
			c + "\n" + sbFastRun + sbFastReport,
			sbFastRun + sbFastReport + c + "\n",
			sbFastRun + "[ 5s ] thds: 2 tps: 1\n" + c + "\n" + c + "\r\n" + sbFastReport,
			sbFastRun + "Latency (ms):\n" + c + "\n",
		} {
			t.Run(strconv.Itoa(i)+"/"+strconv.Itoa(j), func(t *testing.T) { sameSysbench(t, in) })
		}
	}
	files, _ := filepath.Glob("../testdata/sysbench/raw/*/sb.*o.*")
	more, _ := filepath.Glob("../testdata/arc/*/*/*/sb.o.*")
	files = append(files, more...)
	if len(files) < 100 {
		t.Fatalf("only %d sb.o files", len(files))
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sameSysbench(t, string(b))
	}
}

// TestBinaryJunkBytes compares the word-at-a-time test with binaryJunk on
// every byte at every position of lines of every length up to 50, plain
// and TAB-indented as query plans are.
func TestBinaryJunkBytes(t *testing.T) {
	for _, base := range []string{
		"0123456789abcdef0123 56789abcdef0123456789abcdef~",
		"\t->  Index Scan using sbtest1_pkey on sbtest1  (cost",
		"\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\tx y",
		"ab\tc\td\u00e9f\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9",
	} {
		for c := range 256 {
			for pos := range len(base) {
				b := []byte(base)
				b[pos] = byte(c)
				for _, s := range [][]byte{b, b[:pos+1], b[pos:]} {
					if got, want := binaryJunkBytes(s), binaryJunk(string(s)); got != want {
						t.Fatalf("binaryJunkBytes(%q) = %v, binaryJunk %v", s, got, want)
					}
				}
			}
		}
	}
}

func FuzzBinaryJunkBytes(f *testing.F) {
	for _, s := range []string{"", "\t->  Index Scan", "abc\x7f", "\t\x00", "caf\u00e9 \xff"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := binaryJunkBytes(b), binaryJunk(string(b)); got != want {
			t.Fatalf("binaryJunkBytes(%q) = %v, binaryJunk %v", b, got, want)
		}
	})
}

// BenchmarkBinaryJunkBytes tests the lines of a query plan, most of what
// a sysbench output holds.
func BenchmarkBinaryJunkBytes(b *testing.B) {
	lines := [][]byte{
		[]byte("table 1 : explain SELECT c FROM sbtest1 WHERE id BETWEEN 4561 AND 4661"),
		[]byte("\t->  Index Scan using sbtest1_pkey on sbtest1  (cost=0.43..8.45 rows=100 width=121) (actual time=0.010..0.000 rows=101 loops=1)"),
		[]byte("\t  ->  Index Scan using sbtest1_pkey on sbtest1  (cost=0.43..9.45 rows=101 width=121) (actual time=0.010..0.001 rows=101 loops=1)"),
		[]byte("for range-notcovered"),
	}
	n := 0
	for _, l := range lines {
		n += len(l)
	}
	b.SetBytes(int64(n))
	for b.Loop() {
		for _, l := range lines {
			if binaryJunkBytes(l) {
				b.Fatal("junk")
			}
		}
	}
}

func FuzzReadSysbenchFast(f *testing.F) {
	for _, c := range sbFastCases {
		f.Add(sbFastRun + c + "\n" + sbFastReport)
	}
	f.Fuzz(func(t *testing.T, input string) { sameSysbench(t, input) })
}

// parseSysbenchInterval is the reading of interval lines from their
// string fields that parseSysbenchIntervalBytes replaced, kept as the
// oracle of the old reader above.
func parseSysbenchInterval(f []string) (SysbenchInterval, string) {
	var iv SysbenchInterval
	sec, ok := number(strings.TrimSuffix(f[1], "s"))
	if !ok || !strings.HasSuffix(f[1], "s") || sec < 0 {
		return iv, "interval line: elapsed time " + strconv.Quote(f[1]) + " is not <N>s"
	}
	iv.Sec = sec
	seen := 0
	for i := 3; i < len(f); i++ {
		key := f[i]
		next := ""
		if i+1 < len(f) {
			next = f[i+1]
		}
		// A value that is not a plausible rate makes the whole line bad:
		// read as 0 it would shift the averages and the noise of the run.
		var implausible error
		num := func(dst *float64) bool {
			v, good := number(next)
			if !good {
				return false
			}
			if implausible = Plausible(Rate, v); implausible != nil {
				return false
			}
			*dst = v
			i++
			return true
		}
		good := true
		switch key {
		case "thds:":
			var v float64
			good = num(&v) && v == float64(int(v))
			iv.Threads = int(v)
			seen++
		case "tps:":
			good = num(&iv.TPS)
			seen++
		case "qps:":
			good = num(&iv.QPS)
		case "eps:":
			good = num(&iv.EPS)
			seen++
		case "(r/w/o:":
			parts := strings.Split(strings.TrimSuffix(next, ")"), "/")
			if len(parts) != 3 {
				good = false
				break
			}
			for j, dst := range []*float64{&iv.Reads, &iv.Writes, &iv.Other} {
				v, ok := number(parts[j])
				good = good && ok && Plausible(Rate, v) == nil
				*dst = v
			}
			i++
		case "lat":
			// "lat (ms,95%): 3.96"
			if i+2 >= len(f) || !strings.HasPrefix(next, "(ms,") {
				good = false
				break
			}
			p := strings.TrimSuffix(strings.TrimPrefix(next, "(ms,"), "%):")
			pct, err := strconv.Atoi(p)
			if err != nil || pct < 1 || pct > 100 {
				// sysbench's --percentile is a whole number from 1 to 100.
				return iv, "interval line: lat percentile " + strconv.Quote(p) + " is not a whole number from 1 to 100; the line is left out"
			}
			iv.Percentile = pct
			v, ok := number(f[i+2])
			good = ok && Plausible(Latency, v) == nil
			iv.LatPct = v
			i += 2
		case "err/s:":
			good = num(&iv.ErrPerSec)
		case "reconn/s:":
			good = num(&iv.ReconnPerS)
		}
		if implausible != nil {
			return iv, "interval line: " + key + " " + implausible.Error() + "; the line is left out"
		}
		if !good {
			return iv, "interval line: bad value after " + strconv.Quote(key)
		}
	}
	if seen < 2 {
		return iv, "interval line without thds: and tps: (or eps:)"
	}
	return iv, ""
}
