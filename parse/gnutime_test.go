package parse_test

import (
	"math"
	"strings"
	"testing"

	"github.com/ibreport/ibreport/parse"
)

const (
	timeLine1 = "5.17user 1.87system 0:42.15elapsed 16%CPU (0avgtext+0avgdata 36844maxresident)k"
	timeLine2 = "8inputs+40outputs (1major+12978minor)pagefaults 0swaps"
	timeExit  = "Command exited with non-zero status 1"
	timeKill  = "Command terminated by signal 9"
)

type timeWant struct {
	user, system, elapsed float64
	line                  int
	status, firstLine     string
}

type timeCase struct {
	name     string
	input    string
	want     timeWant
	wantErrs []string
}

var timeCases = []timeCase{
	{
		name:  "default format",
		input: join(timeLine1, timeLine2),
		want:  timeWant{user: 5.17, system: 1.87, elapsed: 42.15, line: 1, firstLine: timeLine1},
	},
	{
		name:  "non-zero exit status first",
		input: join(timeExit, timeLine1, timeLine2),
		want:  timeWant{user: 5.17, system: 1.87, elapsed: 42.15, line: 2, status: timeExit, firstLine: timeExit},
	},
	{
		name:  "terminated by a signal",
		input: join(timeKill, "1179.71user 4242.56system 10:35.04elapsed 853%CPU (0avgtext+0avgdata 30284maxresident)k", timeLine2),
		want:  timeWant{user: 1179.71, system: 4242.56, elapsed: 635.04, line: 2, status: timeKill, firstLine: timeKill},
	},
	{
		name:  "hours in elapsed, no trailing newline",
		input: "0.50user 0.25system 1:02:03.50elapsed 0%CPU",
		want:  timeWant{user: 0.5, system: 0.25, elapsed: 3723.5, line: 1, firstLine: "0.50user 0.25system 1:02:03.50elapsed 0%CPU"},
	},
	{
		name:  "only the first time line counts",
		input: join(timeLine1, timeLine2, "9.00user 9.00system 9:09.00elapsed 1%CPU"),
		want:  timeWant{user: 5.17, system: 1.87, elapsed: 42.15, line: 1, firstLine: timeLine1},
	},
	{
		name:     "empty file",
		input:    "",
		wantErrs: []string{"test: no GNU time line (<user>user <system>system <elapsed>elapsed)"},
	},
	{
		name:     "status only",
		input:    join(timeExit),
		want:     timeWant{status: timeExit, firstLine: timeExit},
		wantErrs: []string{"test: no GNU time line (<user>user <system>system <elapsed>elapsed)"},
	},
	{
		name: "malformed time lines",
		input: join(
			"xuser 1.87system 0:42.15elapsed 16%CPU",     // 1
			"NaNuser 1.87system 0:42.15elapsed 16%CPU",   // 2
			"5.17user infsystem 0:42.15elapsed 16%CPU",   // 3
			"5.17user 1.87sys 0:42.15elapsed 16%CPU",     // 4
			"5.17user 1.87system 42.15elapsed 16%CPU",    // 5: no colon
			"5.17user 1.87system 0:42.15 16%CPU",         // 6: no suffix
			"5.17user 1.87system 1:2:3:4elapsed 16%CPU",  // 7
			"5.17user 1.87system 0:-42.15elapsed 16%CPU", // 8
			"5.17user 1.87system 0:nanelapsed 16%CPU",    // 9
			"user system elapsed",                        // 10
			"5.17user 1.87system 0:01.00elapsed 16%CPU"), // 11
		want: timeWant{user: 5.17, system: 1.87, elapsed: 1, line: 11, firstLine: "xuser 1.87system 0:42.15elapsed 16%CPU"},
		wantErrs: []string{
			"test:1: malformed GNU time line",
			"test:2: malformed GNU time line",
			"test:3: malformed GNU time line",
			"test:4: malformed GNU time line",
			"test:5: malformed GNU time line",
			"test:6: malformed GNU time line",
			"test:7: malformed GNU time line",
			"test:8: malformed GNU time line",
			"test:9: malformed GNU time line",
			"test:10: malformed GNU time line",
		},
	},
	{
		name:     "a lone malformed line",
		input:    join("abcuser 1system 0:01elapsed"),
		want:     timeWant{firstLine: "abcuser 1system 0:01elapsed"},
		wantErrs: []string{"test:1: malformed GNU time line", "test: no GNU time line (<user>user <system>system <elapsed>elapsed)"},
	},
	{
		name:     "binary junk is not a time line",
		input:    join("\x00\x00\x00"),
		want:     timeWant{firstLine: "\x00\x00\x00"},
		wantErrs: []string{"test: no GNU time line (<user>user <system>system <elapsed>elapsed)"},
	},
}

func TestReadTime(t *testing.T) {
	for _, tc := range timeCases {
		t.Run(tc.name, func(t *testing.T) {
			tm, err := parse.ReadTime(strings.NewReader(tc.input), testName)
			checkErrors(t, err, tc.wantErrs)
			if tm == nil {
				t.Fatal("nil Time")
			}
			got := timeWant{tm.User, tm.System, tm.Elapsed, tm.Line, tm.Status, tm.FirstLine}
			if got != tc.want {
				t.Errorf("got  %+v\nwant %+v", got, tc.want)
			}
			if tm.Name != testName {
				t.Errorf("Name = %q", tm.Name)
			}
		})
	}
}

// Regression test: elapsed() in gnutime.go rejected NaN but not infinities:
// "inf:00" parsed as +Inf, and a huge finite minute count overflowed to +Inf
// when multiplied by 60. Both were accepted as the elapsed time.
func TestReadTimeRejectsInfiniteElapsed(t *testing.T) {
	for _, tok := range []string{"inf:00.00", "0:Infinity", "1e308:00.00"} {
		line := "5.17user 1.87system " + tok + "elapsed 16%CPU"
		tm, err := parse.ReadTime(strings.NewReader(line+"\n"), testName)
		if math.IsInf(tm.Elapsed, 0) || math.IsNaN(tm.Elapsed) {
			t.Errorf("elapsed %q accepted as %v", tok, tm.Elapsed)
		}
		if !hasErrorAt(err, 1) {
			t.Errorf("elapsed %q: no syntax error at line 1 (err %v)", tok, err)
		}
	}
}

// GNU time never prints negative CPU seconds. Regression test: elapsed()
// rejected a negative part, but the user and system tokens went through
// number() alone, so "-1.87system" was taken as -1.87 s. (Found by
// FuzzReadTime; the input is kept in testdata/fuzz/FuzzReadTime.)
func TestReadTimeRejectsNegativeCPUSeconds(t *testing.T) {
	for _, line := range []string{
		"5.17user -1.87system 0:42.15elapsed 16%CPU",
		"-5.17user 1.87system 0:42.15elapsed 16%CPU",
		"0user -1system 0:0elapsed",
	} {
		tm, err := parse.ReadTime(strings.NewReader(line+"\n"), testName)
		checkErrors(t, err, []string{
			"test:1: malformed GNU time line",
			"test: no GNU time line (<user>user <system>system <elapsed>elapsed)",
		})
		if tm.User < 0 || tm.System < 0 {
			t.Errorf("%q: User %v System %v", line, tm.User, tm.System)
		}
	}
}
