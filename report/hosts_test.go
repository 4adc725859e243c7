package report_test

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ibreport/ibreport/report"
)

const hostsDir = "../testdata/arc/dec25.sb.80plus"

// loadHosts builds the report of the four hosts of dec25.sb.80plus.
func loadHosts(t *testing.T) (*report.Results, *report.Report) {
	t.Helper()
	res, _, err := report.Load(hostsDir, report.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := report.Build(res, report.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Hosts == nil {
		t.Fatal("no host comparison")
	}
	return res, rep
}

// TestHostsGolden: a folder of one sub-folder per host builds one report
// that compares them, in Markdown, text and JSON.
func TestHostsGolden(t *testing.T) {
	res, rep := loadHosts(t)
	if len(res.Hosts) != 4 || res.Sysbench != nil {
		t.Fatalf("%d hosts, sysbench %v", len(res.Hosts), res.Sysbench)
	}
	want := map[string]int{"dell32": 24, "hetz48": 40, "pn53": 1, "socket2": 16}
	for _, h := range rep.Hosts.Hosts {
		if h.Threads != want[h.Name] {
			t.Errorf("%s: %d threads, want %d", h.Name, h.Threads, want[h.Name])
		}
	}
	if got := rep.Hosts.Base; got != "x.my8044_rel_o2nofp.z12a.pk1" {
		t.Errorf("base %q", got)
	}
	if len(rep.Hosts.Builds) != 3 || len(rep.Hosts.Tests) != 3 || len(rep.Hosts.Stories) != 4 {
		t.Errorf("%d builds, %d tables, %d stories", len(rep.Hosts.Builds), len(rep.Hosts.Tests), len(rep.Hosts.Stories))
	}
	for _, f := range []string{"md", "text", "json"} {
		golden(t, filepath.Join("testdata/build", "hosts.80plus."+f), renderAs(t, rep, f))
	}
}

// TestHostsEqualAuthors: each host's column of the comparison is that
// host's qps.rel table, cell for cell within print rounding.
func TestHostsEqualAuthors(t *testing.T) {
	_, rep := loadHosts(t)
	checked := 0
	for hi, h := range rep.Hosts.Hosts {
		files, _ := filepath.Glob(filepath.Join(hostsDir, h.Name, "qps.rel."+h.Set+".tsv"))
		if len(files) != 1 {
			t.Fatalf("%s: %v", h.Name, files)
		}
		want := readRelTSV(t, files[0])
		for bi, tab := range rep.Hosts.Tests {
			if tab.Header[hi+1] != h.Name {
				t.Fatalf("column %d is %q, want %s", hi+1, tab.Header[hi+1], h.Name)
			}
			for _, row := range tab.Rows {
				test := row.Cells[0].Text
				for k, v := range want {
					name, col, _ := strings.Cut(k, "\x00")
					if name != test || !strings.Contains(col, strings.TrimSuffix(strings.TrimPrefix(rep.Hosts.Builds[bi], "x."), ".pk1")[:6]) {
						continue
					}
					c := row.Cells[hi+1]
					checked++
					if c.Value == nil || math.Abs(*c.Value-v) > 0.005+1e-9 {
						t.Errorf("%s %s %s: %v, author %.2f", h.Name, rep.Hosts.Builds[bi], test, c.Value, v)
					}
				}
			}
		}
	}
	if checked < 4*3*30 {
		t.Errorf("only %d cells checked", checked)
	}
}

// TestHostsVerdicts checks every verdict and every sentence test by test:
// a test said slower on every host is 0.94 or less on each, the counts of
// the overview are those of the cells, and every test a finding names
// has the verdict the finding gives it.
func TestHostsVerdicts(t *testing.T) {
	_, rep := loadHosts(t)
	hp := rep.Hosts
	n := len(hp.Hosts)
	for bi, tab := range hp.Tests {
		slowerOn := make([]int, n)
		for _, row := range tab.Rows {
			var slow, fast []string
			for hi := range hp.Hosts {
				c := row.Cells[hi+1]
				if c.Value == nil {
					continue
				}
				r, _ := strconv.ParseFloat(c.Text[:4], 64)
				switch {
				case r <= 0.94:
					slow = append(slow, hp.Hosts[hi].Name)
					slowerOn[hi]++
				case r >= 1.06:
					fast = append(fast, hp.Hosts[hi].Name)
				}
			}
			verdict := row.Cells[len(row.Cells)-1].Text
			var want string
			switch {
			case len(slow) > 0 && len(fast) > 0:
				want = "disagree: slower on " + strings.Join(slow, ", ") + "; faster on " + strings.Join(fast, ", ")
			case len(slow) == n:
				want = "slower on all 4"
			case len(fast) == n:
				want = "faster on all 4"
			case len(slow) > 0:
				want = "slower on " + strconv.Itoa(len(slow)) + " of 4 (" + strings.Join(slow, ", ") + ")"
			case len(fast) > 0:
				want = "faster on " + strconv.Itoa(len(fast)) + " of 4 (" + strings.Join(fast, ", ") + ")"
			default:
				want = "within 5% on all 4"
			}
			if verdict != want {
				t.Errorf("%s %s: verdict %q, want %q", hp.Builds[bi], row.Cells[0].Text, verdict, want)
			}
			// The finding of the build names the test where it says so.
			f := hp.Findings[bi]
			name := row.Cells[0].Text
			if len(slow) == n && !strings.Contains(f, "Slower on every host") {
				t.Errorf("%s: %s is slower on every host; the finding does not say so: %s", hp.Builds[bi], name, f)
			}
			if len(slow) > 0 && len(fast) > 0 && !strings.Contains(f, name+" (slower on") {
				t.Errorf("%s: hosts disagree on %s; the finding does not name it: %s", hp.Builds[bi], name, f)
			}
		}
		for hi := range hp.Hosts {
			row := hp.Overview.Rows[bi*n+hi]
			if got := row.Cells[2].Text; got != strconv.Itoa(slowerOn[hi]) {
				t.Errorf("overview %s %s: %s slower, the cells say %d", hp.Builds[bi], hp.Hosts[hi].Name, got, slowerOn[hi])
			}
		}
	}
	// 9.5.0 is slower on every host for insert and delete: the archive's
	// clearest cross-host result, which the finding leads with.
	if f := hp.Findings[2]; !strings.Contains(f, "Slower on every host in 2 tests, median ratio insert range=100 0.84, delete range=100 0.89") {
		t.Errorf("9.5.0 finding: %s", f)
	}
}

// TestHostsNotComparable: sub-folders of other builds are no hosts of one
// study; the error says why, and points to each.
func TestHostsNotComparable(t *testing.T) {
	dir := t.TempDir()
	for sub, src := range map[string]string{"ma": "../testdata/arc/apr26.pn53.sb.ma.latin", "my": hostsDir + "/hetz48"} {
		if err := os.CopyFS(filepath.Join(dir, sub), os.DirFS(src)); err != nil {
			t.Fatal(err)
		}
	}
	_, _, err := report.Load(dir, report.LoadOptions{})
	if err == nil || !errors.Is(err, report.ErrBadInput) {
		t.Fatalf("err %v", err)
	}
	for _, w := range []string{"its sub-folders ma, my hold summary tables", "not compared as hosts", "its base x.my8044_rel_o2nofp.z12a_c32r128.pk1 is not"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("%q lacks %q", err, w)
		}
	}
}

// TestHostsSeries: series on a folder of hosts gives each host's change
// points; tables refuses, naming a host's folder.
func TestHostsSeries(t *testing.T) {
	res, _, err := report.Load(hostsDir, report.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := report.BuildSeries([]report.ResultSet{{Name: "80plus", Results: res}}, report.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Hosts == nil || len(rep.Hosts.Stories) != 4 {
		t.Fatalf("hosts %+v", rep.Hosts)
	}
	for _, st := range rep.Hosts.Stories {
		if all := strings.Join(st.Lines, " "); !strings.Contains(all, "along the series") && !strings.Contains(all, "The level shifted at") {
			t.Errorf("%s: %q", st.Host, st.Lines)
		}
	}
	if _, err := report.BuildSeries([]report.ResultSet{{Name: "a", Results: res}, {Name: "b", Results: res}}, report.BuildOptions{}); err == nil || !strings.Contains(err.Error(), "name the host's sub-folder") {
		t.Errorf("series of two host folders: %v", err)
	}
	if _, _, err := res.Tables(nil); err == nil || !strings.Contains(err.Error(), "dec25.sb.80plus/dell32") {
		t.Errorf("tables: %v", err)
	}
}

// TestHostsNil: hosts without results are an error, not a panic.
func TestHostsNil(t *testing.T) {
	for _, res := range []*report.Results{
		{Hosts: []*report.Results{nil, nil}},
		{Hosts: []*report.Results{{}}},
	} {
		if _, err := report.Build(res, report.BuildOptions{}); err == nil {
			t.Errorf("%+v: no error", res)
		}
	}
}
