package parse_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/ibreport/ibreport/parse"
)

const (
	resLine1    = "2 processes, 600000 rows-per-process, 43 seconds, 27906.9 rows-per-second, 13953.4 rows-per-second-per-user, 0 queries, 0 queries-per-second, yes deletes"
	resLine1RW  = "2 processes, 3000 rows-per-process, 31 seconds, 193.5 rows-per-second, 96.7 rows-per-second-per-user, 1060976 queries, 34225.0 queries-per-second, yes deletes"
	resLine1Old = "1 processes, 20000000 rows-per-process, 230 seconds, 86956.5 rows-per-second, 86956.5 rows-per-second-per-user, 1000 queries, 4.3 queries-per-second"
	resLine1Min = "8 processes, 100 rows-per-process, 5 seconds, 160.0 rows-per-second, 20.0 rows-per-second-per-user, other"
)

type resWant struct {
	lines      int
	realDop    int
	maxRows    int64
	totSecs    int64
	insertRate string
	insertPer  string
	totalQuery int64
	queryRate  string
	deletes    string
}

type resCase struct {
	name     string
	input    string
	want     resWant
	wantErrs []string
}

var resCases = []resCase{
	{
		name:  "load step with deletes",
		input: join(resLine1, "", "iostat, vmstat normalized by insert rate", "nsamp\tr/s\trMB/s"),
		want: resWant{lines: 4, realDop: 2, maxRows: 600000, totSecs: 43, insertRate: "27906.9", insertPer: "13953.4",
			totalQuery: 0, queryRate: "0", deletes: "yes"},
	},
	{
		name:  "read+write step",
		input: join(resLine1RW),
		want: resWant{lines: 1, realDop: 2, maxRows: 3000, totSecs: 31, insertRate: "193.5", insertPer: "96.7",
			totalQuery: 1060976, queryRate: "34225.0", deletes: "yes"},
	},
	{
		name:  "generation before deletes",
		input: join(resLine1Old, ""),
		want: resWant{lines: 2, realDop: 1, maxRows: 20000000, totSecs: 230, insertRate: "86956.5", insertPer: "86956.5",
			totalQuery: 1000, queryRate: "4.3"},
	},
	{
		name:  "no query fields",
		input: resLine1Min,
		want:  resWant{lines: 1, realDop: 8, maxRows: 100, totSecs: 5, insertRate: "160.0", insertPer: "20.0"},
	},
	{
		name:     "empty file",
		input:    "",
		wantErrs: []string{"test: empty file"},
	},
	{
		name:     "first label wrong",
		input:    join(strings.Replace(resLine1, "processes,", "procs,", 1), ""),
		want:     resWant{lines: 2},
		wantErrs: []string{`test:1: not an o.res summary line (want "processes," as field 2)`},
	},
	{
		name:     "one label wrong",
		input:    join(strings.Replace(resLine1, "seconds,", "secs,", 1)),
		want:     resWant{lines: 1},
		wantErrs: []string{`test:1: not an o.res summary line (want "seconds," as field 6)`},
	},
	{
		name:  "non-integer counts",
		input: join(strings.Replace(resLine1, "2 processes", "2.0 processes", 1)),
		want: resWant{lines: 1, realDop: 0, maxRows: 600000, totSecs: 43, insertRate: "27906.9", insertPer: "13953.4",
			queryRate: "0", deletes: "yes"},
		wantErrs: []string{"test:1: processes, rows-per-process and seconds must be integers"},
	},
	{
		name:  "binary junk is reported but kept in Lines",
		input: join(resLine1, "\x00\x01", "dbGB\t0.708"),
		want: resWant{lines: 3, realDop: 2, maxRows: 600000, totSecs: 43, insertRate: "27906.9", insertPer: "13953.4",
			queryRate: "0", deletes: "yes"},
		wantErrs: []string{"test:2: binary data or overlong line"},
	},
}

func TestReadRes(t *testing.T) {
	for _, tc := range resCases {
		t.Run(tc.name, func(t *testing.T) {
			r, err := parse.ReadRes(strings.NewReader(tc.input), testName)
			checkErrors(t, err, tc.wantErrs)
			if r == nil {
				t.Fatal("nil Res")
			}
			got := resWant{len(r.Lines), r.RealDop, r.MaxRows, r.TotSecs, r.InsertRate, r.InsertPer, r.TotalQuery, r.QueryRate, r.Deletes}
			if got != tc.want {
				t.Errorf("got  %+v\nwant %+v", got, tc.want)
			}
			if r.Name != testName {
				t.Errorf("Name = %q", r.Name)
			}
		})
	}
}

func TestResLine(t *testing.T) {
	r, err := parse.ReadRes(strings.NewReader(join(resLine1, "", "third")), testName)
	if err != nil {
		t.Fatal(err)
	}
	for n, want := range map[int]string{-1: "", 0: "", 1: resLine1, 2: "", 3: "third", 4: ""} {
		if got := r.Line(n); got != want {
			t.Errorf("Line(%d) = %q, want %q", n, got, want)
		}
	}
	if !slices.Equal(r.Lines, []string{resLine1, "", "third"}) {
		t.Errorf("Lines = %q", r.Lines)
	}
}

// Regression test: ReadRes checked the labels of line 1 by ranging over a
// map, so when several labels were wrong the field it named changed from run
// to run. The message must be deterministic (and name the first wrong
// field, 2).
func TestReadResFirstLineErrorIsDeterministic(t *testing.T) {
	const want = `test:1: not an o.res summary line (want "processes," as field 2)`
	seen := map[string]int{}
	for range 200 {
		_, err := parse.ReadRes(strings.NewReader("a b c d e f g h i j k l m n o p\n"), testName)
		msgs := errorMessages(t, err)
		if len(msgs) != 1 {
			t.Fatalf("errors = %q, want one", msgs)
		}
		seen[msgs[0]]++
	}
	if len(seen) != 1 || seen[want] != 200 {
		t.Errorf("messages over 200 reads of the same input: %v; want only %q", seen, want)
	}
}

// Regression test: the label check used `i >= len(f)` before reading
// f[i-1], one field too strict: a line whose tenth and last field is the
// wanted "rows-per-second-per-user," was rejected with a message claiming
// that field 10 is not what it is.
func TestReadResLineEndingAtField10(t *testing.T) {
	line := "2 processes, 10 rows-per-process, 3 seconds, 6.6 rows-per-second, 3.3 rows-per-second-per-user,"
	r, err := parse.ReadRes(strings.NewReader(line+"\n"), testName)
	checkErrors(t, err, nil)
	if r.RealDop != 2 || r.MaxRows != 10 || r.TotSecs != 3 || r.InsertRate != "6.6" || r.InsertPer != "3.3" {
		t.Errorf("got %+v", r)
	}
}

type dbSizeCase struct {
	name     string
	input    string
	value    float64
	path     string
	wantErrs []string
}

var dbSizeCases = []dbSizeCase{
	{name: "dbsz", input: "0.70812926348298788071\n", value: 0.70812926348298788071},
	{name: "dbdirsz", input: "1855920495\t../../pgdata.c1\n", value: 1855920495, path: "../../pgdata.c1"},
	{name: "path with spaces", input: "12 /data/my db\n", value: 12, path: "/data/my db"},
	{name: "blank lines around, no newline", input: "\n \n42", value: 42},
	{name: "empty file", input: "", wantErrs: []string{"test: empty file"}},
	{name: "blank lines only", input: "\n\t\n", wantErrs: []string{"test: empty file"}},
	{name: "not a number", input: "ERROR: relation does not exist\n", wantErrs: []string{`test:1: size "ERROR:" is not a number`}},
	{name: "negative", input: "-1\n", wantErrs: []string{`test:1: size: -1 is negative, not a size`}},
	{name: "implausibly large", input: "1e300\n", wantErrs: []string{`test:1: size: 1e+300 is beyond 1e+15, not a size`}},
	{name: "nan", input: "NaN\n", wantErrs: []string{`test:1: size "NaN" is not a number`}},
	{name: "inf", input: "+Inf\n", wantErrs: []string{`test:1: size "+Inf" is not a number`}},
	{name: "overflow", input: "1e400\n", wantErrs: []string{`test:1: size "1e400" is not a number`}},
	{name: "extra line", input: "1.5\n2.5\n", value: 1.5, wantErrs: []string{"test:2: extra line in a size file"}},
	{name: "bad line then a good one", input: "x\n3\n", value: 3, wantErrs: []string{`test:1: size "x" is not a number`}},
	{name: "binary junk", input: "\x00\x00\x00\n2.5\n", value: 2.5, wantErrs: []string{"test:1: binary data or overlong line"}},
}

func TestReadDBSize(t *testing.T) {
	for _, tc := range dbSizeCases {
		t.Run(tc.name, func(t *testing.T) {
			d, err := parse.ReadDBSize(strings.NewReader(tc.input), testName)
			checkErrors(t, err, tc.wantErrs)
			if d == nil {
				t.Fatal("nil DBSize")
			}
			if d.Value != tc.value || d.Path != tc.path || d.Name != testName {
				t.Errorf("got %+v, want value %v path %q", d, tc.value, tc.path)
			}
		})
	}
}
