package compat

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const perfArc = "../../testdata/arc/feb25.pg.perf"

// perfArcDBMS are the archive's builds in the order the author joined them.
var perfArcDBMS = []string{"x.pg1023_o2nofp.x10a_c32r128.pk1", "x.pg110_o2nofp.x10a_c32r128.pk1", "x.pg1110_o2nofp.x10a_c32r128.pk1"}

func fileLines(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return splitLines(string(b))
}

func splitLines(s string) []string {
	if s == "" {
		return []string{}
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// TestPerfRawSortedArchive recomputes every archived .raw and .sorted file
// from its perf stat sample.
func TestPerfRawSortedArchive(t *testing.T) {
	raws, _ := filepath.Glob(filepath.Join(perfArc, "*", "sb.perf.hw.*.raw"))
	if len(raws) != 261 {
		t.Fatalf("%d .raw files", len(raws))
	}
	for _, r := range raws {
		in, err := os.ReadFile(strings.TrimSuffix(r, ".raw"))
		if err != nil {
			t.Fatal(err)
		}
		raw := PerfRaw(string(in))
		if got, want := strings.Join(raw, "\n"), strings.Join(fileLines(t, r), "\n"); got != want {
			t.Errorf("%s:\n%s\nwant\n%s", r, got, want)
			continue
		}
		s := strings.TrimSuffix(r, ".raw") + ".sorted"
		if got, want := strings.Join(PerfSorted(raw, CollateEnUS), "\n"), strings.Join(fileLines(t, s), "\n"); got != want {
			t.Errorf("%s:\n%s\nwant\n%s", s, got, want)
		}
	}
}

// TestPerfJoinArchive reproduces the author's 86 join1 files (60 with
// lines) from the perf stat samples, byte for byte.
func TestPerfJoinArchive(t *testing.T) {
	nonEmpty := 0
	for _, test := range PerfJoinTestsOct24 {
		var sorted [][]string
		for _, d := range perfArcDBMS {
			in, err := os.ReadFile(filepath.Join(perfArc, d, "sb.perf.hw."+test+".1"))
			if err != nil {
				sorted = append(sorted, nil)
				continue
			}
			sorted = append(sorted, PerfSorted(PerfRaw(string(in)), CollateEnUS))
		}
		abs, rel := PerfJoin(sorted, CollateEnUS)
		for _, f := range []struct {
			kind  string
			lines []string
		}{{"abs", abs}, {"rel", rel}} {
			name := PerfJoinName(f.kind, "pgcmp", 1, test)
			want, err := os.ReadFile(filepath.Join(perfArc, name))
			if err != nil {
				t.Fatal(err)
			}
			got := ""
			for _, l := range f.lines {
				got += l + "\n"
			}
			if got != string(want) {
				t.Errorf("%s:\n%s\nwant\n%s", name, got, want)
			}
			if len(want) > 0 {
				nonEmpty++
			}
		}
	}
	if nonEmpty != 60 {
		t.Errorf("%d files with lines, want 60", nonEmpty)
	}
}

func TestPerfRawEdges(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"not counted matches nothing", "     <not counted>      cycles\n", ""},
		{"not supported", "   <not supported>      cycles\n", "cycles\t-1\nGHz\t"},
		{"first line only", " 1,000 faults\n 2,000 faults\n", "faults\t1000"},
		{"percent removed", " 10 branch-misses # 2.65% of all branches\n", "branch-misses\t10\nbranch-miss-pct\t2.65"},
		{"migrations typo", " 5 migrations\n", "migratons\t5"},
	}
	for _, tc := range tests {
		if got := strings.Join(PerfRaw(tc.in), "\n"); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
	abs, rel := PerfJoin([][]string{{"a\t0", "b\t2", "c\t1"}, {"a\t1", "c\t3"}, {"a\t0", "b\t1", "c\t-1"}}, CollateEnUS)
	if g := strings.Join(abs, "|"); g != "a 0 1 0|c 1 3 -1" {
		t.Errorf("abs %q", g)
	}
	if g := strings.Join(rel, "|"); g != "INF\tINF\ta|3.000\t-1.000\tc" {
		t.Errorf("rel %q", g)
	}
}
