package metrics_test

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ibreport/ibreport/metrics"
)

// TestSysbenchDeviceOnePerFolder checks that the runs of a DBMS folder use
// one device, chosen from the I/O of all its runs: one run whose second
// disk (vdb) was a little busier than the database disk (vda) would choose
// vdb on its own. --device still decides.
func TestSysbenchDeviceOnePerFolder(t *testing.T) {
	const test = "point-query.range100.pk1"
	// After each vda row of that run, a vdb row with 1000 KiB/s more written.
	fsys := sbFixtureFS(t, "sb.io."+test+".dop1", func(_ int, l string) (string, bool) {
		if !strings.HasPrefix(l, "vda ") {
			return l, true
		}
		f := strings.Fields(l)
		w, err := strconv.ParseFloat(f[8], 64)
		if err != nil {
			t.Fatal(err)
		}
		f[0], f[8] = "vdb", strconv.FormatFloat(w+1000, 'f', 2, 64)
		return l + "\n" + strings.Join(f, " "), true
	})
	for _, tc := range []struct {
		device, want string
		warn         bool
	}{
		{"", "vda", true},
		{"vdb", "vdb", false},
	} {
		set := sbSet(t, fsys, metrics.Options{Device: tc.device})
		d := set.DBMS[0]
		for _, r := range d.Results {
			if r.HW.Device != tc.want {
				t.Errorf("--device %q: %s dop%d uses %q, want %q", tc.device, r.Test.Sfx, r.Threads, r.HW.Device, tc.want)
			}
		}
		if d.Load != nil && d.Load.HW.Device != tc.want {
			t.Errorf("--device %q: the prepare step uses %q, want %q", tc.device, d.Load.HW.Device, tc.want)
		}
		const warn = "x.pg15.c1.pk1: runs chose different block devices (vdb in 1 of 13); all use vda, the choice from the I/O of all its runs (--device overrides)"
		if got := slices.Contains(metrics.WarningTexts(d.Warnings), warn); got != tc.warn {
			t.Errorf("--device %q: warning %q present %v, want %v; warnings:\n%s", tc.device, warn, got, tc.warn, strings.Join(metrics.WarningTexts(d.Warnings), "\n"))
		}
	}
	// The run computed again is the run computed with --device vda.
	got := sbSet(t, fsys, metrics.Options{}).DBMS[0].Result(test, 1).HW
	want := sbSet(t, fsys, metrics.Options{Device: "vda"}).DBMS[0].Result(test, 1).HW
	ga, _ := json.Marshal(got)
	wa, _ := json.Marshal(want)
	if string(ga) != string(wa) {
		t.Errorf("HW chosen for the folder\n%s\nwant as with --device vda\n%s", ga, wa)
	}
	// Alone, that run would choose vdb: the test is not vacuous.
	var n int
	for _, l := range strings.Split(string(fsys["x.pg15.c1.pk1/sb.io."+test+".dop1"].Data), "\n") {
		if strings.HasPrefix(l, "vdb ") {
			n++
		}
	}
	if n == 0 {
		t.Fatal("no vdb rows")
	}
}
