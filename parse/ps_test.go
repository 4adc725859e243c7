package parse_test

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/ibreport/ibreport/parse"
)

const (
	psHeader = "USER         PID %CPU %MEM    VSZ   RSS TTY      STAT START   TIME COMMAND"
	psPg1    = "postgres 11024  0.1  0.1 217120 29332 ?        Ss   21:30   0:00 postgres -D pgdata.c1"
	psPg2    = "postgres 11026  0.1  0.3 217256 88700 ?        Ss   21:30   0:07 postgres: background writer "
	psMy     = "mdcallag 1308583 10.0 21.9 102999016 28906372 ?  Ssl  07:52  10:11 /usr/sbin/mysqld --basedir=/b --datadir=/d"
	psDate1  = "Sun Nov 29 21:30:00 UTC 2026"
	psDate2  = "Sun Nov 29 21:30:10 UTC 2026"
)

// psRow formats the compared fields of a PsRow.
func psRow(r parse.PsRow) string {
	return fmt.Sprintf("%d:%s:%d:%d:%d:%g:%s", r.Line, r.User, r.PID, r.VSZ, r.RSS, r.CPUTime, r.Command)
}

type psCase struct {
	name     string
	input    string
	rows     []string
	samples  int
	largest  string
	wantErrs []string
}

var psCases = []psCase{
	{
		name:    "postgres backends",
		input:   join(psPg1, psPg2),
		rows:    []string{"1:postgres:11024:217120:29332:0:postgres -D pgdata.c1", "2:postgres:11026:217256:88700:7:postgres: background writer"},
		largest: "postgres",
	},
	{
		name:    "header kept by the sampler, minutes over 59",
		input:   join(psHeader, psMy, psPg2),
		rows:    []string{"2:mdcallag:1308583:102999016:28906372:611:/usr/sbin/mysqld --basedir=/b --datadir=/d", "3:postgres:11026:217256:88700:7:postgres: background writer"},
		largest: "mdcallag",
	},
	{
		name:    "sysbench date lines",
		input:   join(psDate1, psMy, "", psDate2, psMy),
		rows:    []string{"2:mdcallag:1308583:102999016:28906372:611:/usr/sbin/mysqld --basedir=/b --datadir=/d", "5:mdcallag:1308583:102999016:28906372:611:/usr/sbin/mysqld --basedir=/b --datadir=/d"},
		samples: 2,
		largest: "mdcallag",
	},
	{
		name: "TIME formats",
		input: join(
			"u 1 0 0 10 20 ? S 01:00 123:45 a",
			"u 2 0 0 10 30 ? S 01:00 01:02:03 b",
			"u 3 0 0 10 10 ? S 01:00 1-02:03:04 c",
			"u 4 0 0 10 10 ? S 01:00 0:01.5 d"),
		rows:    []string{"1:u:1:10:20:7425:a", "2:u:2:10:30:3723:b", "3:u:3:10:10:93784:c", "4:u:4:10:10:1.5:d"},
		largest: "u",
	},
	{
		name: "bad fields",
		input: join(
			"postgres abc  0.1  0.1 217120 29332 ?        Ss   21:30   0:00 postgres", // PID
			"postgres 11024  0.1  0.1 21x120 29332 ?      Ss   21:30   0:00 postgres", // VSZ
			"postgres 11024  0.1  0.1 217120 2.5 ?        Ss   21:30   0:00 postgres", // RSS
			"postgres 11024  0.1  0.1 217120 29332 ?      Ss   21:30   0:0x postgres", // TIME
			"postgres 11024  0.1  0.1 217120 29332 ?      Ss   21:30   12 postgres",   // TIME without colon
			"postgres 11024  0.1  0.1 217120 29332 ?      Ss   21:30   1:2:3:4 pg",    // TIME with 3 colons
			"postgres 11024  0.1  0.1 217120 29332 ?      Ss   21:30   x-01:02:03 pg", // TIME with bad days
			"postgres 11024  0.1  0.1 217120 29332 ?      Ss   21:30   -1:00 pg",      // negative TIME
			"postgres 11024  0.1",
			psPg1),
		rows:    []string{"10:postgres:11024:217120:29332:0:postgres -D pgdata.c1"},
		largest: "postgres",
		wantErrs: []string{
			"test:1: not a ps aux line (PID, VSZ, RSS or TIME malformed)",
			"test:2: not a ps aux line (PID, VSZ, RSS or TIME malformed)",
			"test:3: not a ps aux line (PID, VSZ, RSS or TIME malformed)",
			"test:4: not a ps aux line (PID, VSZ, RSS or TIME malformed)",
			"test:5: not a ps aux line (PID, VSZ, RSS or TIME malformed)",
			"test:6: not a ps aux line (PID, VSZ, RSS or TIME malformed)",
			"test:7: not a ps aux line (PID, VSZ, RSS or TIME malformed)",
			"test:8: not a ps aux line (PID, VSZ, RSS or TIME malformed)",
			"test:9: ps line has 3 fields, want at least 11",
		},
	},
	{
		name:  "a date-like line that is not a date",
		input: join("Sun Nov 29 2026", psPg1),
		rows:  []string{"2:postgres:11024:217120:29332:0:postgres -D pgdata.c1"},
		wantErrs: []string{
			"test:1: ps line has 4 fields, want at least 11",
		},
		largest: "postgres",
	},
	{
		name:     "empty file",
		input:    "",
		wantErrs: []string{"test: empty file"},
	},
	{
		name:  "blank lines only",
		input: "\n  \n\t\n",
	},
	{
		name:     "binary junk",
		input:    join("\x1b[1mpostgres\x1b[0m", "\xc3\x28 invalid utf-8", psPg1),
		rows:     []string{"3:postgres:11024:217120:29332:0:postgres -D pgdata.c1"},
		largest:  "postgres",
		wantErrs: []string{"test:1: binary data or overlong line", "test:2: binary data or overlong line"},
	},
}

func TestReadPs(t *testing.T) {
	for _, tc := range psCases {
		t.Run(tc.name, func(t *testing.T) {
			p, err := parse.ReadPs(strings.NewReader(tc.input), testName)
			checkErrors(t, err, tc.wantErrs)
			if p == nil {
				t.Fatal("nil PsSamples")
			}
			var rows []string
			for _, r := range p.Rows {
				rows = append(rows, psRow(r))
			}
			if p.Name != testName {
				t.Errorf("Name = %q", p.Name)
			}
			if !slices.Equal(rows, tc.rows) {
				t.Errorf("rows:\n got %q\nwant %q", rows, tc.rows)
			}
			if p.Samples != tc.samples {
				t.Errorf("Samples = %d, want %d", p.Samples, tc.samples)
			}
			if got := p.LargestUser(); got != tc.largest {
				t.Errorf("LargestUser() = %q, want %q", got, tc.largest)
			}
		})
	}
}

func TestReadPsKeepsLineText(t *testing.T) {
	p, err := parse.ReadPs(strings.NewReader(psPg2+"\r\n"), testName)
	if err != nil {
		t.Fatal(err)
	}
	if p.Rows[0].Text != psPg2 {
		t.Errorf("Text = %q, want the line as printed %q", p.Rows[0].Text, psPg2)
	}
}

func TestLargestUserPicksLargestRSS(t *testing.T) {
	input := join(
		"alice 1 0 0 10 500 ? S 01:00 0:00 a",
		"bob 2 0 0 10 900 ? S 01:00 0:00 b",
		"carol 3 0 0 10 900 ? S 01:00 0:00 c", // a tie keeps the first
		"dave 4 0 0 10 100 ? S 01:00 0:00 d")
	p, err := parse.ReadPs(strings.NewReader(input), testName)
	if err != nil {
		t.Fatal(err)
	}
	if got := p.LargestUser(); got != "bob" {
		t.Errorf("LargestUser() = %q, want bob", got)
	}
	if got := (&parse.PsSamples{}).LargestUser(); got != "" {
		t.Errorf("LargestUser() of no rows = %q, want empty", got)
	}
}

// The TIME column is parsed with strconv.ParseFloat, which accepts "nan",
// "inf" and "infinity". No ps prints them, and the package rejects such
// tokens everywhere else (number in lines.go). Regression test: ReadPs used
// to turn them into a NaN or infinite CPUTime (a huge minute count such as
// 1e308 overflowed to +Inf too), which poisons the DBMS CPU seconds computed
// from the first and last ps samples.
func TestReadPsRejectsNaNAndInfTime(t *testing.T) {
	for _, tok := range []string{"nan:00", "0:NaN", "inf:00", "1-infinity:00:00", "1e308:00"} {
		line := "postgres 11024  0.1  0.1 217120 29332 ?   Ss   21:30   " + tok + " postgres"
		p, err := parse.ReadPs(strings.NewReader(line+"\n"), testName)
		for _, r := range p.Rows {
			if math.IsNaN(r.CPUTime) || math.IsInf(r.CPUTime, 0) {
				t.Errorf("TIME %q accepted as CPUTime %v", tok, r.CPUTime)
			}
		}
		if !hasErrorAt(err, 1) {
			t.Errorf("TIME %q: no syntax error at line 1 (err %v)", tok, err)
		}
	}
}
