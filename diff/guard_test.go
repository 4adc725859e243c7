package diff

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
)

// Levels that are not a finite percentage, or that no change can reach,
// are refused: a NaN level compares false with every change and passed
// any regression.
func TestThresholdRefused(t *testing.T) {
	for _, tc := range []struct {
		spec string
		err  string // "" when accepted
	}{
		{"ips=NaN", `threshold "ips=NaN": "NaN" is not a positive percentage or off`},
		{"ips=nan%", `threshold "ips=nan%": "nan%" is not a positive percentage or off`},
		{"ips=Inf", `"Inf" is not a positive percentage or off`},
		{"ips=+Inf%", `"+Inf%" is not a positive percentage or off`},
		{"ips=-Inf", `"-Inf" is not a positive percentage or off`},
		{"ips=0", `"0" is not a positive percentage or off`},
		{"ips=-5%", `"-5%" is not a positive percentage or off`},
		{"rss=1e300%", `threshold "rss=1e300%": 1e300% is beyond 1000% (a 11-fold change); use rss=off to disable the level`},
		{"cpupq=1001", `1001% is beyond 1000%`},
		{"ips=150%", `ips is higher-is-better and cannot fall by more than 100%, so the level would never be reached; use ips=off`},
		{"ips=100%", ""},
		{"cpupq=1000%", ""},
		{"rss=500%", ""},
	} {
		for _, warn := range []bool{false, true} {
			opt := DefaultCompareOptions()
			err := opt.SetThresholds(tc.spec, warn)
			switch {
			case tc.err == "" && err != nil:
				t.Errorf("%q (warn %v): %v", tc.spec, warn, err)
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Errorf("%q (warn %v): error %v, want %q", tc.spec, warn, err, tc.err)
			}
			if err := opt.check(); err != nil {
				t.Errorf("%q: the rules left are not valid: %v", tc.spec, err)
			}
		}
	}
}

// Rules set by a caller of the package, bypassing SetThresholds, are
// checked by Compare.
func TestCompareRefusesBadRules(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(r *Rule)
		want string
	}{
		{"NaN fail", func(r *Rule) { r.Fail = math.NaN() }, "rule of ips: fail level NaN is not a finite number >= 0"},
		{"Inf warn", func(r *Rule) { r.Warn = math.Inf(1) }, "rule of ips: warn level +Inf is not a finite number >= 0"},
		{"negative floor", func(r *Rule) { r.Floor = -1 }, "rule of ips: floor level -1 is not a finite number >= 0"},
		{"NaN noise", func(r *Rule) { r.Noise = math.NaN() }, "rule of ips: noise NaN: want a fraction above 0, below 1"},
		{"noise 1", func(r *Rule) { r.Noise = 1 }, "rule of ips: noise 1: want a fraction above 0, below 1"},
	} {
		opt := DefaultCompareOptions()
		tc.edit(&opt.Rules[0])
		c, err := Compare([]*ResultSet{run(t, "base")}, []*ResultSet{run(t, "new", "a.ips=80000")}, opt)
		if c != nil || err == nil || err.Error() != tc.want {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}

// TestCompareNilSets: a nil run in either slice (a LoadResultSet whose
// error was ignored) is an error naming the side, not a panic.
func TestCompareNilSets(t *testing.T) {
	for _, tc := range []struct {
		base, newer []*ResultSet
		want        string
	}{
		{[]*ResultSet{nil}, []*ResultSet{run(t, "new")}, "BASE run 1 is nil"},
		{[]*ResultSet{run(t, "base")}, []*ResultSet{run(t, "new"), nil}, "NEW run 2 is nil"},
	} {
		c, err := Compare(tc.base, tc.newer, DefaultCompareOptions())
		if c != nil || err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v, want %q", err, tc.want)
		}
	}
}

// A comparison whose every cell in common is NA on a side compared
// nothing: an error, never a pass (nor a failure blamed on NEW).
func TestCompareNothingCompared(t *testing.T) {
	// allNA is a run whose cells are all NA but those of keep.
	allNA := func(name string, keep ...string) *ResultSet {
		var edits []string
		for _, d := range []string{"a", "b"} {
			for _, m := range strings.Split(testHeader, "\t") {
				if m != "tag" && !slices.Contains(keep, d+"."+m) {
					edits = append(edits, d+"."+m+"=NA")
				}
			}
		}
		return run(t, name, edits...)
	}
	for _, tc := range []struct {
		name      string
		base, new *ResultSet
		allowNA   bool
		want      string
	}{
		{"NA on both sides", allNA("base"), allNA("new"), false,
			"nothing was compared: 14 cells in 2 rows (step and DBMS) of mrg tables in common, none with a value on both sides (14 NA on both sides, 0 NA in NEW only, 0 NA in BASE only)"},
		{"NA in NEW, allowed", run(t, "base"), allNA("new"), true,
			"(1 NA on both sides, 13 NA in NEW only, 0 NA in BASE only)"},
		{"NA in BASE", allNA("base"), run(t, "new"), false,
			"(1 NA on both sides, 0 NA in NEW only, 13 NA in BASE only)"},
	} {
		opt := DefaultCompareOptions()
		opt.AllowNA = tc.allowNA
		c, err := Compare([]*ResultSet{tc.base}, []*ResultSet{tc.new}, opt)
		if c != nil || !errors.Is(err, errMismatch) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
	// No DBMS in common, allowed: the message says what each side holds.
	other := &ResultSet{Name: "new", Tables: []ResultTable{table(t, "mrg", "l.i0", testHeader+"\n"+
		strings.Join(append(slices.Clone(testRow["a"][:7]), "20m.c"), "\t")+"\n")}}
	opt := DefaultCompareOptions()
	opt.AllowMissing = true
	_, err := Compare([]*ResultSet{run(t, "base")}, []*ResultSet{other}, opt)
	if want := "nothing was compared: no step and DBMS in common (BASE has steps l.i0, DBMS a b; NEW has steps l.i0, DBMS c)"; !errors.Is(err, errMismatch) || !strings.Contains(err.Error(), want) {
		t.Errorf("no DBMS in common: %v, want %q", err, want)
	}
	// One cell with a value on both sides is a comparison.
	if _, err := Compare([]*ResultSet{allNA("base", "a.ips")}, []*ResultSet{run(t, "new")}, DefaultCompareOptions()); err != nil {
		t.Errorf("BASE all NA but ips of a: %v", err)
	}
}

// No NaN or Inf reaches the JSON encoder: the deltas of NA cells, of a
// change from 0 and the levels of rules set directly are null.
func TestJSONWithNaNCells(t *testing.T) {
	opt := DefaultCompareOptions()
	base := run(t, "base", "a.rps=nan", "a.cspq=0", "b.qps=inf")
	newer := run(t, "new", "a.rps=NaN", "a.cspq=0.5", "b.qps=-inf", "a.ips=80000")
	c, err := Compare([]*ResultSet{base}, []*ResultSet{newer}, opt)
	if err != nil {
		t.Fatal(err)
	}
	// Levels that only a caller of Compare's result could set.
	for i := range c.Findings {
		if c.Findings[i].Metric == "rps" {
			c.Findings[i].Rule.Warn, c.Findings[i].Rule.Fail = math.NaN(), math.Inf(1)
		}
	}
	for _, all := range []bool{false, true} {
		var b bytes.Buffer
		if err := Write(&b, c, WriteOptions{Format: "json", All: all}); err != nil {
			t.Fatalf("all %v: %v", all, err)
		}
		var doc struct {
			Findings []struct {
				DBMS, Metric string
				Delta        *float64
			}
			Thresholds map[string]struct{ Warn, Fail *float64 }
		}
		if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
			t.Fatalf("all %v: %v\n%s", all, err, b.Bytes())
		}
		if th := doc.Thresholds["rps"]; th.Warn != nil || th.Fail != nil {
			t.Errorf("rps levels NaN and Inf: %v %v, want null", th.Warn, th.Fail)
		}
		seen := map[string]bool{}
		for _, f := range doc.Findings {
			switch k := f.DBMS + "." + f.Metric; k {
			case "a.rps", "b.qps":
				seen[k] = true
				if f.Delta != nil {
					t.Errorf("%s %s: delta %v, want null", f.DBMS, f.Metric, *f.Delta)
				}
			case "a.cspq":
				// From 0 to 0.5 is ten times cspq's floor of 0.05.
				seen[k] = true
				if f.Delta == nil || *f.Delta != 10 {
					t.Errorf("a cspq: delta %v, want 10 (relative to the floor)", f.Delta)
				}
			}
		}
		if all && len(seen) != 3 {
			t.Errorf("--all lists %v, want a.rps, b.qps and a.cspq", seen)
		}
	}
}
