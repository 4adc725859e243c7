package parse_test

import (
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ibreport/ibreport/parse"
)

// Lines of a current-generation (17-column) client log, shaped as iibench.py
// prints them (FORMATS.md §3.1).
const (
	cmdLine = "python3 iibench.py --dbms=postgres --db_name=ib --secs_per_report=1 --delete_per_insert --max_rows=600 --table_name=pi1 --rows_per_commit=50 --inserts_per_second=0 --query_threads=1 --my_id=1"
	hdr17   = "i_sec\tt_sec\ti_ips\tt_ips\ti_dps\tt_dps\ti_qps\tt_qps\tmax_i\tmax_d\tmax_q\tt_ins\tt_del\tt_query\tretry_i\tretry_d\tretry_q"
	hdr12   = "i_sec\tt_sec\ti_ips\tt_ips\ti_qps\tt_qps\tmax_i\tmax_q\tt_ins\tt_query\tretry_i\tretry_q"
	hdr10   = "i_sec\tt_sec\ti_ips\tt_ips\ti_qps\tt_qps\tmax_i\tmax_q\tt_ins\tt_query"

	stat17a = "1.0\t1.0\t20945\t20945\t21395\t21395\t7\t7\t47687\t36308\t900\t20950\t21400\t7\t0\t0\t0"
	stat17b = "1.0\t2.0\t15797\t18371\t15747\t18571\t9\t8\t19940\t4430\t800\t36747\t37147\t16\t1\t2\t3"

	insHdr  = "Insert rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max"
	insData = "Insert rt:         0         0      9708      2248        27        17         0         0         0         0    0.088891"
	delHdr  = "Delete rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max"
	delData = "Delete rt:         0      2456      8943       568        21        12         0         0         0         0    0.088138"
	qryHdr  = " Query rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max"
	qryData = " Query rt:    524908      3431      2672        29         0         0         0         0         0         0    0.007827"

	totals = "Totals: 2.0 secs, 18371.0 rows/sec, 36747 rows, 1 2 3 insert-delete-query retry"
)

// client17 is a complete 17-column log with deletes and one query thread.
var client17 = join(
	cmdLine,                              // 1
	hdr17,                                // 2
	"get_min_trxid = 1 in 0.001 seconds", // 3
	"",                                   // 4
	stat17a,                              // 5
	stat17b,                              // 6
	insHdr,                               // 7
	insData,                              // 8
	delHdr,                               // 9
	delData,                              // 10
	qryHdr,                               // 11
	qryData,                              // 12
	"Query thread: 16 queries, fetched/query(expected, actual) = ( 10 , 9.997 )", // 13
	"getmin 12 queries, 0.210 total secs, 0.017535 secs/query",                   // 14
	"",     // 15
	totals, // 16
	"Done", // 17
)

// client12 is a Sep 2020 – May 2023 log (12 columns, no deletes).
var client12 = join(
	"python3 iibench.py --dbms=mysql --max_rows=100 --query_threads=1",
	hdr12,
	"1.0\t1.0\t1000\t1000\t50\t50\t900\t1200\t1000\t50\t0\t2",
	"1.0\t2.0\t1100\t1050\t60\t55\t950\t1300\t2100\t110\t1\t4",
	insHdr,
	insData,
	"Done",
)

// client10 is a pre-Sep 2020 log (10 columns).
var client10 = join(
	"python3 iibench.py --dbms=mysql --max_rows=100",
	hdr10,
	"1.0\t1.0\t1000\t1000\t50\t50\t900\t1200\t1000\t50",
	insHdr,
	insData,
	"Done",
)

type clientWant struct {
	columns    int
	headerLine int
	intervals  []int    // line numbers of the accepted stats lines
	hists      []string // "<kind>@<line>" of every histogram data line
	other      []int    // line numbers of the OtherLines
	widthLines int
	lines      int
	done       bool
	check      func(t *testing.T, c *parse.ClientLog)
}

type clientCase struct {
	name     string
	input    string
	want     clientWant
	wantErrs []string
}

var clientCases = []clientCase{
	{
		name:  "17 columns complete",
		input: client17,
		want: clientWant{
			columns: 17, headerLine: 2, intervals: []int{5, 6},
			hists:      []string{"insert@8", "delete@10", "query@12"},
			other:      []int{3, 4, 13, 14, 15, 16, 17},
			widthLines: 3, lines: 17, done: true,
			check: func(t *testing.T, c *parse.ClientLog) {
				if c.Command != cmdLine {
					t.Errorf("Command = %q", c.Command)
				}
				if v, ok := c.Option("max_rows"); !ok || v != "600" {
					t.Errorf("Option(max_rows) = %q, %v", v, ok)
				}
				if v, ok := c.Option("delete_per_insert"); !ok || v != "" {
					t.Errorf("Option(delete_per_insert) = %q, %v; want a bare flag", v, ok)
				}
				if _, ok := c.Option("db_password"); ok {
					t.Errorf("Option(db_password) found in a command line that lacks it")
				}
				if got := c.IntOption("rows_per_commit", -1); got != 50 {
					t.Errorf("IntOption(rows_per_commit) = %d", got)
				}
				if got := c.IntOption("dbms", -1); got != -1 {
					t.Errorf("IntOption(dbms) = %d, want the default for a non-integer", got)
				}
				if got := c.IntOption("absent", 7); got != 7 {
					t.Errorf("IntOption(absent) = %d, want the default", got)
				}
				if !slices.Equal(c.Columns, strings.Split(hdr17, "\t")) {
					t.Errorf("Columns = %q", c.Columns)
				}
				iv := c.Intervals[1]
				for col, want := range map[parse.Column]float64{
					parse.ISec: 1, parse.TSec: 2, parse.IIps: 15797, parse.TIps: 18371,
					parse.IDps: 15747, parse.TDps: 18571, parse.IQps: 9, parse.TQps: 8,
					parse.MaxI: 19940, parse.MaxD: 4430, parse.MaxQ: 800, parse.TIns: 36747,
					parse.TDel: 37147, parse.TQuery: 16, parse.RetryI: 1, parse.RetryD: 2, parse.RetryQ: 3,
				} {
					if got := iv.Get(col); got != want {
						t.Errorf("interval 2 %s = %v, want %v", col, got, want)
					}
				}
				ins := c.Hist(parse.Insert)
				if ins == nil {
					t.Fatal("no insert histogram")
				}
				if !slices.Equal(ins.Counts, []int64{0, 0, 9708, 2248, 27, 17, 0, 0, 0, 0}) {
					t.Errorf("insert counts = %v", ins.Counts)
				}
				if ins.Max != 0.088891 {
					t.Errorf("insert max = %v", ins.Max)
				}
				if want := []string{"256us", "1ms", "4ms", "16ms", "64ms", "256ms", "1s", "4s", "16s", "gt"}; !slices.Equal(ins.Buckets, want) {
					t.Errorf("insert buckets = %q", ins.Buckets)
				}
				if ins.Pos != (parse.Pos{File: testName, Line: 8}) || ins.Pos.String() != "test:8" {
					t.Errorf("insert Pos = %v", ins.Pos)
				}
				if q := c.Hist(parse.Query); q == nil || q.Counts[0] != 524908 || q.Max != 0.007827 {
					t.Errorf("query histogram = %+v", q)
				}
				if h := c.HistHeaders[parse.Delete]; len(h) != 11 || h[0] != "256us" || h[10] != "max" {
					t.Errorf("HistHeaders[delete] = %q", h)
				}
				if o := c.Other[0]; o.Line != 3 || !slices.Equal(o.Fields, []string{"get_min_trxid", "=", "1", "in", "0.001", "seconds"}) {
					t.Errorf("Other[0] = %+v", o)
				}
				if o := c.Other[1]; len(o.Fields) != 0 {
					t.Errorf("Other[1] (empty line) fields = %q", o.Fields)
				}
			},
		},
	},
	{
		name:  "12 columns",
		input: client12,
		want: clientWant{
			columns: 12, headerLine: 2, intervals: []int{3, 4}, hists: []string{"insert@6"},
			other: []int{7}, widthLines: 3, lines: 7, done: true,
			check: func(t *testing.T, c *parse.ClientLog) {
				iv := c.Intervals[1]
				for col, want := range map[parse.Column]float64{
					parse.TSec: 2, parse.IIps: 1100, parse.IQps: 60, parse.TQps: 55, parse.MaxI: 950,
					parse.MaxQ: 1300, parse.TIns: 2100, parse.TQuery: 110, parse.RetryI: 1, parse.RetryQ: 4,
					parse.IDps: 0, parse.TDps: 0, parse.MaxD: 0, parse.TDel: 0, parse.RetryD: 0,
				} {
					if got := iv.Get(col); got != want {
						t.Errorf("interval 2 %s = %v, want %v", col, got, want)
					}
				}
			},
		},
	},
	{
		name:  "10 columns",
		input: client10,
		want: clientWant{
			columns: 10, headerLine: 2, intervals: []int{3}, hists: []string{"insert@5"},
			other: []int{6}, widthLines: 2, lines: 6, done: true,
			check: func(t *testing.T, c *parse.ClientLog) {
				iv := c.Intervals[0]
				if iv.Get(parse.TQuery) != 50 || iv.Get(parse.TIns) != 1000 || iv.Get(parse.MaxQ) != 1200 || iv.Get(parse.RetryI) != 0 {
					t.Errorf("interval values = %v", iv.Values)
				}
			},
		},
	},
	{
		name:     "empty file",
		input:    "",
		want:     clientWant{},
		wantErrs: []string{"test: empty file"},
	},
	{
		name:     "command line only",
		input:    join(cmdLine),
		want:     clientWant{lines: 1},
		wantErrs: []string{"test: no stats header line (i_sec t_sec ...)"},
	},
	{
		name:     "truncated, no Done line",
		input:    join(cmdLine, hdr17, stat17a, stat17b),
		want:     clientWant{columns: 17, headerLine: 2, intervals: []int{3, 4}, widthLines: 3, lines: 4},
		wantErrs: []string{"test:4: log ends without the closing Done line (client crashed or was stopped)"},
	},
	{
		name:  "stats line with a non-number",
		input: join(cmdLine, hdr17, strings.Replace(stat17a, "20945", "abc", 1), stat17b, "Done"),
		want: clientWant{columns: 17, headerLine: 2, intervals: []int{4}, other: []int{5},
			widthLines: 3, lines: 5, done: true},
		wantErrs: []string{`test:3: stats column i_ips: "abc" is not a number`},
	},
	{
		name: "NaN and inf tokens",
		input: join(cmdLine, hdr17,
			strings.Replace(stat17a, "20945", "NaN", 1),
			strings.Replace(stat17a, "21395", "inf", 1),
			strings.Replace(stat17a, "47687", "-Infinity", 1),
			strings.Replace(stat17a, "36308", "1e999", 1),
			strings.Replace(stat17a, "20950", "0x1p4", 1),
			strings.Replace(stat17a, "21400", "1_000", 1),
			stat17b, "Done"),
		want: clientWant{columns: 17, headerLine: 2, intervals: []int{9}, other: []int{10},
			widthLines: 8, lines: 10, done: true},
		wantErrs: []string{
			`test:3: stats column i_ips: "NaN" is not a number`,
			`test:4: stats column i_dps: "inf" is not a number`,
			`test:5: stats column max_i: "-Infinity" is not a number`,
			`test:6: stats column max_d: "1e999" is not a number`,
			`test:7: stats column t_ins: "0x1p4" is not a number`,
			`test:8: stats column t_del: "1_000" is not a number`,
		},
	},
	{
		name:  "binary junk",
		input: join(cmdLine, hdr17, stat17a, "\x00\x00\x00\x7f\x01garbage", "\xff\xfe\xfd", stat17b, "Done"),
		want: clientWant{columns: 17, headerLine: 2, intervals: []int{3, 6}, other: []int{7},
			widthLines: 3, lines: 7, done: true},
		wantErrs: []string{"test:4: binary data", "test:5: binary data"},
	},
	{
		name:  "histogram data line without header",
		input: join(cmdLine, hdr17, stat17a, insData, delHdr, delData, "Done"),
		want: clientWant{columns: 17, headerLine: 2, intervals: []int{3}, hists: []string{"delete@6"},
			other: []int{7}, widthLines: 2, lines: 7, done: true,
			check: func(t *testing.T, c *parse.ClientLog) {
				if c.Hist(parse.Insert) != nil {
					t.Error("Hist(Insert) is not nil for a data line without header")
				}
			}},
		wantErrs: []string{"test:4: Insert rt data line without a header line before it"},
	},
	{
		name: "malformed histogram lines",
		input: join(cmdLine, hdr17, stat17a,
			"Insert rt: max", // 4: header with too few fields
			insHdr,           // 5
			"Insert rt:         0         0      9708      2248        27        17         0         0         0    0.088891", // 6: 9 counts
			strings.Replace(insData, "9708", "-1", 1),      // 7
			strings.Replace(insData, "0.088891", "nan", 1), // 8
			strings.Replace(insData, "2248", "22.5", 1),    // 9
			"Insert rt: 1", // 10: data with too few fields
			insData,        // 11
			"Done"),
		want: clientWant{columns: 17, headerLine: 2, intervals: []int{3}, hists: []string{"insert@11"},
			other: []int{12}, widthLines: 2, lines: 12, done: true},
		wantErrs: []string{
			"test:4: Insert rt header has 3 fields",
			"test:6: Insert rt: 9 counts but 10 buckets in the header",
			`test:7: Insert rt: bucket 4ms: "-1" is not a count`,
			`test:8: Insert rt: max "nan" is not a number of seconds`,
			`test:9: Insert rt: bucket 16ms: "22.5" is not a count`,
			"test:10: Insert rt line has too few fields",
		},
	},
	{
		name:  "two insert histograms, Hist returns the last",
		input: join(cmdLine, hdr17, stat17a, insHdr, insData, insHdr, strings.Replace(insData, "0.088891", "1.500000", 1), "Done"),
		want: clientWant{columns: 17, headerLine: 2, intervals: []int{3}, hists: []string{"insert@5", "insert@7"},
			other: []int{8}, widthLines: 2, lines: 8, done: true,
			check: func(t *testing.T, c *parse.ClientLog) {
				if h := c.Hist(parse.Insert); h == nil || h.Max != 1.5 || h.Pos.Line != 7 {
					t.Errorf("Hist(Insert) = %+v, want the one of line 7", h)
				}
				if c.Hist(parse.Delete) != nil || c.Hist(parse.Query) != nil {
					t.Error("Hist returns a histogram of a kind that is absent")
				}
			}},
	},
	{
		name:  "stats line before the header",
		input: join(cmdLine, stat17a, hdr17, stat17b, "Done"),
		want: clientWant{columns: 17, headerLine: 3, intervals: []int{4}, other: []int{5},
			widthLines: 2, lines: 5, done: true},
		wantErrs: []string{"test:2: stats line before the column header"},
	},
	{
		name:  "header with an unknown column",
		input: join(cmdLine, strings.Replace(hdr10, "max_q", "max_z", 1), "1.0\t1.0\t1\t1\t1\t1\t1\t99\t1\t1", "Done"),
		want: clientWant{columns: 10, headerLine: 2, intervals: []int{3}, other: []int{4}, widthLines: 2, lines: 4, done: true,
			check: func(t *testing.T, c *parse.ClientLog) {
				if got := c.Intervals[0].Get(parse.MaxQ); got != 0 {
					t.Errorf("max_q = %v, want 0 (the column is unknown)", got)
				}
			}},
		wantErrs: []string{`test:2: unknown column "max_z" in stats header`},
	},
	{
		name:  "header with 11 columns",
		input: join(cmdLine, hdr10+"\tretry_i", "1.0\t1.0\t1\t1\t1\t1\t1\t1\t1\t1\t5", "Done"),
		want: clientWant{columns: 11, headerLine: 2, intervals: []int{3}, other: []int{4}, widthLines: 2, lines: 4, done: true,
			check: func(t *testing.T, c *parse.ClientLog) {
				if got := c.Intervals[0].Get(parse.RetryI); got != 5 {
					t.Errorf("retry_i = %v, want 5", got)
				}
			}},
		wantErrs: []string{"test:2: stats header has 11 columns, want 17, 12 or 10"},
	},
	{
		name:  "mongo line, no command line, Done without newline",
		input: "Using Mongo w=1, r=local, j=False, trx=False\n" + hdr10 + "\n1.0\t1.0\t1\t1\t1\t1\t1\t1\t1\t1\nDone",
		want: clientWant{columns: 10, headerLine: 2, intervals: []int{3}, other: []int{1, 4}, widthLines: 2, lines: 4, done: true,
			check: func(t *testing.T, c *parse.ClientLog) {
				if c.Command != "" || len(c.Options) != 0 {
					t.Errorf("Command = %q, Options = %v; want none", c.Command, c.Options)
				}
			}},
	},
	{
		name: "stats lines with the wrong token count",
		input: join(cmdLine, hdr17, stat17a,
			strings.Join(strings.Split(stat17b, "\t")[:9], "\t"), // 4: cut after 9 tokens
			stat17b+"\t0", // 5: one token more
			"1.0\t2.0\t15797\t18371\tx\t18571\t0\t0\t19940", // 6: cut and garbled
			"1.0 2.0", // 7
			stat17b, "Done"),
		want: clientWant{columns: 17, headerLine: 2, intervals: []int{3, 8}, other: []int{9}, widthLines: 3, lines: 9, done: true},
		wantErrs: []string{
			"test:4: stats line has 9 fields, the header has 17",
			"test:5: stats line has 18 fields, the header has 17",
			"test:6: stats line has 9 fields, the header has 17",
			"test:7: stats line has 2 fields, the header has 17",
		},
	},
	{
		name:  "a repeated header is not a stats line",
		input: join(cmdLine, hdr10, "1.0\t1.0\t1\t1\t1\t1\t1\t1\t1\t1", hdr10, "Done"),
		want:  clientWant{columns: 10, headerLine: 2, intervals: []int{3}, other: []int{4, 5}, widthLines: 3, lines: 5, done: true},
	},
	{
		name:  "done must be the whole line",
		input: join(cmdLine, hdr10, "1.0\t1.0\t1\t1\t1\t1\t1\t1\t1\t1", "Done.", " Done"),
		want:  clientWant{columns: 10, headerLine: 2, intervals: []int{3}, other: []int{4, 5}, widthLines: 2, lines: 5},
		wantErrs: []string{
			"test:5: log ends without the closing Done line (client crashed or was stopped)",
		},
	},
}

func histTags(c *parse.ClientLog) []string {
	var out []string
	for _, h := range c.Histograms {
		out = append(out, h.Kind.String()+"@"+strconv.Itoa(h.Pos.Line))
	}
	return out
}

func intervalLines(c *parse.ClientLog) []int {
	var out []int
	for _, iv := range c.Intervals {
		out = append(out, iv.Line)
	}
	return out
}

func otherLines(c *parse.ClientLog) []int {
	var out []int
	for _, o := range c.Other {
		out = append(out, o.Line)
	}
	return out
}

func TestReadClientLog(t *testing.T) {
	for _, tc := range clientCases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := parse.ReadClientLog(strings.NewReader(tc.input), testName)
			checkErrors(t, err, tc.wantErrs)
			if c == nil {
				t.Fatal("nil ClientLog")
			}
			w := tc.want
			if c.Name != testName {
				t.Errorf("Name = %q", c.Name)
			}
			if len(c.Columns) != w.columns {
				t.Errorf("%d columns, want %d", len(c.Columns), w.columns)
			}
			if c.HeaderLine != w.headerLine {
				t.Errorf("HeaderLine = %d, want %d", c.HeaderLine, w.headerLine)
			}
			if got := intervalLines(c); !slices.Equal(got, w.intervals) {
				t.Errorf("interval lines = %v, want %v", got, w.intervals)
			}
			if got := histTags(c); !slices.Equal(got, w.hists) {
				t.Errorf("histograms = %v, want %v", got, w.hists)
			}
			if got := otherLines(c); !slices.Equal(got, w.other) {
				t.Errorf("other lines = %v, want %v", got, w.other)
			}
			if c.WidthLines != w.widthLines {
				t.Errorf("WidthLines = %d, want %d", c.WidthLines, w.widthLines)
			}
			if c.Lines != w.lines {
				t.Errorf("Lines = %d, want %d", c.Lines, w.lines)
			}
			if c.Done != w.done {
				t.Errorf("Done = %v, want %v", c.Done, w.done)
			}
			if w.check != nil && !t.Failed() {
				w.check(t, c)
			}
		})
	}
}

func TestColumnAndKindNames(t *testing.T) {
	want := strings.Split(hdr17, "\t")
	for i, name := range want {
		if got := parse.Column(i).String(); got != name {
			t.Errorf("Column(%d) = %q, want %q", i, got, name)
		}
	}
	if got := parse.Column(17).String(); got != "col17" {
		t.Errorf("Column(17) = %q", got)
	}
	if got := parse.Column(-1).String(); got != "col-1" {
		t.Errorf("Column(-1) = %q", got)
	}
	kinds := map[parse.HistKind][2]string{
		parse.Insert: {"insert", "Insert rt"},
		parse.Delete: {"delete", "Delete rt"},
		parse.Query:  {"query", "Query rt"},
	}
	for k, w := range kinds {
		if k.String() != w[0] || k.Label() != w[1] {
			t.Errorf("kind %d: String %q Label %q, want %q %q", int(k), k.String(), k.Label(), w[0], w[1])
		}
	}
	if got := parse.HistKind(9).String(); got != "kind9" {
		t.Errorf("HistKind(9) = %q", got)
	}
	if !slices.Equal(parse.HistKinds, []parse.HistKind{parse.Insert, parse.Delete, parse.Query}) {
		t.Errorf("HistKinds = %v", parse.HistKinds)
	}
}

// A stats line that lost tokens (an interleaved write, a line cut by a crash
// in the middle of the file) is malformed: FORMATS.md Appendix D lists "stats
// line with wrong token count" among what the client-log parser must detect.
// Regression test: ReadClientLog used to file such lines silently under Other.
func TestReadClientLogReportsStatsLineWithWrongTokenCount(t *testing.T) {
	short := strings.Join(strings.Split(stat17b, "\t")[:9], "\t") // 9 numeric tokens
	long := stat17b + "\t0"                                       // 18 numeric tokens
	input := join(cmdLine, hdr17, stat17a, short, long, stat17b, "Done")
	c, err := parse.ReadClientLog(strings.NewReader(input), testName)
	if got := intervalLines(c); !slices.Equal(got, []int{3, 6}) {
		t.Errorf("interval lines = %v, want [3 6]", got)
	}
	for _, line := range []int{4, 5} {
		if !hasErrorAt(err, line) {
			t.Errorf("no syntax error for the all-numeric line %d with the wrong token count; errors: %v, Other lines %v",
				line, err, otherLines(c))
		}
	}
}

// TestClientLogRelease: a client log read whole hands its intervals to the
// next log read whole with Release; the logs read into the released memory
// hold exactly what a fresh read holds, and the released log holds none.
// Release of nil or of a log without intervals does nothing.
func TestClientLogRelease(t *testing.T) {
	var nilLog *parse.ClientLog
	nilLog.Release()
	(&parse.ClientLog{}).Release()
	fsys := os.DirFS("../testdata/example/2m.pg15.c1")
	read := func(dir string, kind parse.StepKind, seq int) *parse.StepData {
		t.Helper()
		sd, err := parse.ReadStep(fsys, dir, parse.Step{Name: dir, Kind: kind, Seq: seq, MergeName: dir})
		if err != nil || len(sd.Clients) == 0 || len(sd.Clients[0].Intervals) == 0 {
			t.Fatalf("%s: %v, %+v", dir, err, sd)
		}
		return sd
	}
	fresh := read("l.i1", parse.Load, 1)
	want := slices.Clone(fresh.Clients[0].Intervals)
	// Larger logs first: their memory then serves the smaller ones.
	for _, dir := range []string{"l.i0", "l.i1"} {
		sd := read(dir, parse.Load, map[string]int{"l.i0": 0, "l.i1": 1}[dir])
		for _, c := range sd.Clients {
			c.Release()
			if c.Intervals != nil {
				t.Fatalf("%s: %d intervals after Release", dir, len(c.Intervals))
			}
		}
	}
	again := read("l.i1", parse.Load, 1)
	if got := again.Clients[0].Intervals; !slices.Equal(got, want) {
		t.Errorf("l.i1 read into released memory: %d intervals, want %d, or other values", len(got), len(want))
	}
}
