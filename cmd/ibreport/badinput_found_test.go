package main

import (
	"os"
	"strings"
	"testing"
)

// Bad inputs the pipeline fuzzers found: numbers that only a broken or
// edited file gives, which came out negative.
func init() {
	moreBadCases = append(moreBadCases,
		badCase{name: "ps CPU time going down", setup: func(t *testing.T, w *work) []string {
			editLine(t, w.path(c1, "l.x", "o.ps.dop2"), 1,
				"postgres 11024  0.1  0.1 217120 29332 ?        Ss   21:30   1:00 postgres -D pgdata.c1")
			return []string{"build", "--format", "json", "--cores", "2", w.res, "-o", w.out}
		}, code: 0, stderr: []string{
			"warning: 2m.pg15.c1/l.x/o.ps.dop2: the CPU time of the first sample (60 s) is more than the last's (0 s); DBMS CPU seconds are NA",
		}, check: func(t *testing.T, w *work) {
			b, err := os.ReadFile(w.out)
			if err != nil || !strings.Contains(string(b), `o.ps.dop2: the CPU time of the first sample (60 s) is more than the last's (0 s); DBMS CPU seconds are NA"`) {
				t.Errorf("the report's notes do not say why the DBMS CPU seconds are NA (%v)", err)
			}
		}},
		badCase{name: "client log times going back", setup: func(t *testing.T, w *work) []string {
			editLine(t, w.path(c2, "qr100.L1", "o.ib.dop2.1"), 10,
				"1.0\t2.5\t100\t92\t100\t92\t23594\t21274\t4344\t2157\t3125\t550\t550\t127680\t0\t0\t0")
			return []string{"build", "--format", "md", "--cores", "2", w.res, "-o", w.out}
		}, code: 0, stderr: []string{
			"warning: 2m.pg15.c2/qr100.L1/o.ib.dop2.1: interval 6 ends at 2.5 s, before interval 5 (5 s); stalls and SLA are NA",
		}, check: func(t *testing.T, w *work) {
			b, err := os.ReadFile(w.out)
			if err != nil {
				t.Fatal(err)
			}
			for _, l := range strings.Split(string(b), "\n") {
				if strings.HasPrefix(l, "| pg15.c2 | 2") && strings.Count(l, "| NA ") == 6 {
					return // the noise row: mean and interval known, stalls and SLA NA
				}
			}
			t.Error("no qr100.L1 noise row of pg15.c2 with stalls and SLA NA")
		}},
	)
}
