package metrics_test

import (
	"encoding/json"
	"io/fs"
	"math"
	"os"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/parse"
)

// editLines replaces lines of a file of the synthetic step: line n (1-based)
// of name becomes edit(the line).
func editLines(m fstest.MapFS, name string, edit func(n int, line string) string) {
	lines := strings.Split(string(m[name].Data), "\n")
	for i := range lines {
		lines[i] = edit(i+1, lines[i])
	}
	m[name].Data = []byte(strings.Join(lines, "\n"))
}

const (
	vmBusy   = " 1  0      0 100 1 1    0    0  0  0  1 99999 90 90 0  0  0" // us+sy 180
	ioUtil   = "vda           9999.00   1000.00     0.00   0.00    0.24    18.78   10.00    500.00     0.00   0.00    0.08    62.67    0.00      0.00     0.00   0.00    0.00     0.00    4.00    0.00    0.05 150.00"
	ioVdaRow = "vda            100.00"
)

// TestImplausibleLeftOut checks that the vmstat samples and iostat rows the
// reader marks implausible are left out of the step's averages with a
// positioned warning, and that a value with nothing left is NA with the
// reason, in one pass (ComputeStep) as on the records read whole.
func TestImplausibleLeftOut(t *testing.T) {
	type want struct {
		metric map[metrics.Metric]float64 // NaN: NA
		why    map[metrics.Metric]string  // a phrase of the NA reason
		warns  []string                   // whole warnings
		util   float64                    // the %util column average, NaN when none
		vmN    int                        // vmstat samples used
		ioN    int                        // iostat rows used
	}
	na := math.NaN()
	for _, c := range []struct {
		name string
		edit func(fstest.MapFS)
		want want
	}{
		{"us+sy 180", func(m fstest.MapFS) {
			editLines(m, "qr100.L1/o.vm.dop1", func(n int, l string) string {
				if n == 8 {
					return vmBusy
				}
				return l
			})
		}, want{
			metric: map[metrics.Metric]float64{metrics.CPUPS: 40, metrics.CSPS: 2000},
			warns:  []string{"qr100.L1/o.vm.dop1:8: us+sy = 180 is more than 101, not a percentage of the CPUs; the sample is left out"},
			util:   3.2, vmN: 19, ioN: 20,
		}},
		{"every vmstat sample", func(m fstest.MapFS) {
			editLines(m, "qr100.L1/o.vm.dop1", func(n int, l string) string {
				if strings.HasPrefix(l, " 1  0") && n > 3 {
					return vmBusy
				}
				return l
			})
		}, want{
			metric: map[metrics.Metric]float64{metrics.CPUPS: na, metrics.CSPS: na, metrics.CPUPQ: na, metrics.CSPQ: na},
			why:    map[metrics.Metric]string{metrics.CPUPS: "every vmstat sample is implausible (20 left out)"},
			warns: []string{
				"qr100.L1/o.vm.dop1:4: us+sy = 180 is more than 101, not a percentage of the CPUs; the sample is left out",
				"qr100.L1/o.vm.dop1:8: us+sy = 180 is more than 101, not a percentage of the CPUs; the sample is left out",
				"qr100.L1/o.vm.dop1: 15 more implausible samples left out",
			},
			util: 3.2, ioN: 20,
		}},
		{"%util 150", func(m fstest.MapFS) {
			vda := 0
			editLines(m, "qr100.L1/o.io.dop1", func(n int, l string) string {
				if strings.HasPrefix(l, ioVdaRow) {
					if vda++; vda == 5 {
						return ioUtil
					}
				}
				return l
			})
		}, want{
			metric: map[metrics.Metric]float64{metrics.RPS: 100, metrics.CPUPS: 40},
			warns:  []string{"qr100.L1/o.io.dop1:20: device vda %util 150 is more than 101, not a share of the interval; the row is left out"},
			util:   3.2, vmN: 20, ioN: 19,
		}},
		{"%util 150 in the since-boot row", func(m fstest.MapFS) {
			done := false
			editLines(m, "qr100.L1/o.io.dop1", func(n int, l string) string {
				if strings.HasPrefix(l, ioVdaRow) && !done {
					done = true
					return ioUtil
				}
				return l
			})
		}, want{
			metric: map[metrics.Metric]float64{metrics.RPS: 100},
			warns:  []string{"qr100.L1/o.io.dop1:4: device vda %util 150 is more than 101, not a share of the interval; the row is left out"},
			util:   3.2, vmN: 20, ioN: 19,
		}},
		{"every iostat row of the device", func(m fstest.MapFS) {
			editLines(m, "qr100.L1/o.io.dop1", func(n int, l string) string {
				if strings.HasPrefix(l, ioVdaRow) {
					return ioUtil
				}
				return l
			})
		}, want{
			metric: map[metrics.Metric]float64{metrics.RPS: na, metrics.WMBPS: na, metrics.RPQ: na},
			why:    map[metrics.Metric]string{metrics.RPS: "every iostat row of the device is implausible"},
			warns: []string{
				"qr100.L1/o.io.dop1:4: device vda %util 150 is more than 101, not a share of the interval; the row is left out",
				"qr100.L1/o.io.dop1: 15 more implausible rows left out",
				"qr100.L1/o.io.dop1: fewer than 2 iostat rows for \"vda\"; no column averages",
			},
			util: na, vmN: 20,
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := syntheticStep()
			c.edit(m)
			opt := metrics.Options{Cores: 4, Device: "vda"}
			r := summarizeSynthetic(t, m, opt)
			st, _ := parse.ParseStepName("qr100.L1")
			one, err := metrics.ComputeStep(m, "qr100.L1", st, "1m.test", opt)
			if err != nil {
				t.Fatal(err)
			}
			if a, b := jsonOf(r), jsonOf(one); a != b {
				t.Errorf("one pass differs from the records read whole:\n got %s\nwant %s", b, a)
			}
			w := c.want
			for metric, v := range w.metric {
				got := r.Metrics[metric]
				switch {
				case math.IsNaN(v) && got.OK():
					t.Errorf("%s = %g, want NA", metric, got.V)
				case !math.IsNaN(v) && (!got.OK() || math.Abs(got.V-v) > 1e-9*v):
					t.Errorf("%s = %g (NA: %q), want %g", metric, got.V, got.Why, v)
				}
			}
			for metric, why := range w.why {
				if got := r.Metrics[metric].Why; !strings.Contains(got, why) {
					t.Errorf("%s NA reason %q, want %q", metric, got, why)
				}
			}
			for _, s := range w.warns {
				if !slices.Contains(metrics.WarningTexts(r.Warnings), s) {
					t.Errorf("no warning %q in\n%s", s, strings.Join(metrics.WarningTexts(r.Warnings), "\n"))
				}
			}
			util := na
			if i := slices.Index(r.IostatAvg.Header, "%util"); i >= 0 && i < len(r.IostatAvg.Values) {
				util = r.IostatAvg.Values[i].V
			}
			if math.IsNaN(w.util) != math.IsNaN(util) || !math.IsNaN(util) && math.Abs(util-w.util) > 1e-9 {
				t.Errorf("%%util average %g, want %g", util, w.util)
			}
			if r.Vmstat.Samples != w.vmN || r.Iostat.Samples != w.ioN {
				t.Errorf("%d vmstat samples and %d iostat rows used, want %d and %d", r.Vmstat.Samples, r.Iostat.Samples, w.vmN, w.ioN)
			}
		})
	}
}

func jsonOf(r *metrics.StepResult) string {
	b, _ := json.Marshal(r)
	return string(b)
}

// sbFixtureFS is the sysbench fixture as a MapFS, with edit applied to
// the file name below x.pg15.c1.pk1.
func sbFixtureFS(t *testing.T, name string, edit func(n int, line string) (string, bool)) fstest.MapFS {
	t.Helper()
	m := fstest.MapFS{}
	err := fs.WalkDir(os.DirFS(sbRaw), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(os.DirFS(sbRaw), p)
		m[p] = &fstest.MapFile{Data: b}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	p := "x.pg15.c1.pk1/" + name
	var out []string
	for i, l := range strings.Split(string(m[p].Data), "\n") {
		if l, keep := edit(i+1, l); keep {
			out = append(out, l)
		}
	}
	m[p].Data = []byte(strings.Join(out, "\n"))
	return m
}

// TestSysbenchImplausibleLeftOut checks that the sysbench HW values leave
// out an implausible vmstat sample or iostat row with a positioned warning:
// they equal those of the run without that line.
func TestSysbenchImplausibleLeftOut(t *testing.T) {
	const test = "point-query.range100.pk1"
	setUtil := func(l string) string {
		f := strings.Fields(l)
		f[len(f)-1] = "150.00"
		return strings.Join(f, " ")
	}
	for _, c := range []struct {
		name, file string
		line       int
		bad        func(string) string
		warn       string
	}{
		{"vmstat us+sy 180", "sb.vm." + test + ".dop1", 5,
			func(string) string {
				return " 2  0      0 22310408   7568 2217888    0    0     0  4144 16704 99999 90 90  0  0  0"
			},
			"x.pg15.c1.pk1/sb.vm." + test + ".dop1:5: us+sy = 180 is more than 101, not a percentage of the CPUs; the sample is left out"},
		{"iostat %util 150", "sb.io." + test + ".dop1", 15, setUtil,
			"x.pg15.c1.pk1/sb.io." + test + ".dop1:15: device vda %util 150 is more than 101, not a share of the interval; the row is left out"},
	} {
		t.Run(c.name, func(t *testing.T) {
			opt := metrics.Options{Device: "vda"}
			bad := sbSet(t, sbFixtureFS(t, c.file, func(n int, l string) (string, bool) {
				if n == c.line {
					if !strings.HasPrefix(l, " 2 ") && !strings.HasPrefix(l, "vda") {
						t.Fatalf("line %d is %q", n, l)
					}
					return c.bad(l), true
				}
				return l, true
			}), opt)
			without := sbSet(t, sbFixtureFS(t, c.file, func(n int, l string) (string, bool) { return l, n != c.line }), opt)
			r, w := bad.DBMS[0].Result(test, 1), without.DBMS[0].Result(test, 1)
			if !slices.Contains(metrics.WarningTexts(r.Warnings), c.warn) {
				t.Errorf("no warning %q in\n%s", c.warn, strings.Join(metrics.WarningTexts(r.Warnings), "\n"))
			}
			got, want := r.HW, w.HW
			got.IostatSource, want.IostatSource, got.VmstatSource, want.VmstatSource = "", "", "", ""
			ga, _ := json.Marshal(got)
			wa, _ := json.Marshal(want)
			if a, b := string(ga), string(wa); a != b {
				t.Errorf("HW with the bad line\n%s\nwant as without it\n%s", a, b)
			}
		})
	}
}
