package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// published is a folder of sysbench results published with the summaries
// the original scripts wrote for it (see testdata/arc/README.md).
const published = "../../testdata/arc/nov25.sb.mysql/dop1"

// publishedList writes the DBMS list of the published summaries, taken
// from the col-N lines of qps.abs.all.tsv, to a file.
func publishedList(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(published, "qps.abs.all.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) == 3 && strings.HasPrefix(f[0], "col-") && f[1] == ":" {
			names = append(names, f[2])
		}
	}
	if len(names) != 8 {
		t.Fatalf("%d DBMS in the col-N lines", len(names))
	}
	list := filepath.Join(t.TempDir(), "dbms")
	if err := os.WriteFile(list, []byte(strings.Join(names, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return list
}

// metBlocks splits an o.met file into its blocks, by first line.
func metBlocks(b []byte) map[string]string {
	out := map[string]string{}
	for _, blk := range strings.Split(string(b), "\n\n") {
		if blk = strings.Trim(blk, "\n"); blk != "" {
			name, _, _ := strings.Cut(blk, "\n")
			out[name] = blk
		}
	}
	return out
}

// TestPublishedSummaries rebuilds the summaries published with the results
// from their sb.o and sb.met files: the qps tables byte for byte (written
// by sum_qps_csv_nopre.sh, as they have no .pre test, in the order of the
// en_US.UTF-8 locale), and every block of o.met but that of the load,
// whose files are not archived. Block order is not compared: sum_met.sh
// ordered the blocks by file times, which the copies lost.
func TestPublishedSummaries(t *testing.T) {
	out := t.TempDir()
	code, _, stderr := runCmd(t, "tables", "--compat", "--cores", "8", "--sb-tag", "all", "--dbms", publishedList(t), published, "-o", out)
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, name := range []string{"qps.abs.all.tsv", "qps.rel.all.tsv", "qps.abs.all.csv", "qps.rel.all.csv"} {
		want, err := os.ReadFile(filepath.Join(published, name))
		if err != nil {
			t.Fatal(err)
		}
		ours := name
		if !bytes.Contains(want, []byte("pre")) {
			ours = strings.Replace(name, ".all.", ".all.nopre.", 1)
		}
		got, err := os.ReadFile(filepath.Join(out, ours))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s differs from the published %s (%v):\n%s", ours, name, err, got)
		}
	}
	want, err := os.ReadFile(filepath.Join(published, "o.met.all"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(out, "o.met.all.dop1"))
	if err != nil {
		t.Fatal(err)
	}
	wb, gb := metBlocks(want), metBlocks(got)
	compared := 0
	for name, blk := range wb {
		if strings.HasPrefix(name, "sb.prepare.met.") {
			continue
		}
		compared++
		if gb[name] != blk {
			t.Errorf("o.met block %s:\n%s\nwant\n%s", name, gb[name], blk)
		}
	}
	if compared != 37 || len(gb) != compared {
		t.Errorf("%d published blocks compared, %d written", compared, len(gb))
	}
	mets, _ := filepath.Glob(filepath.Join(out, "o.met.*"))
	if len(mets) != 1 {
		t.Errorf("o.met files %q, want one thread count", mets)
	}
}

// TestPublishedCollation shows the order of the author's locale in the
// published tables: with --collate C the rows come in byte order and no
// longer match.
func TestPublishedCollation(t *testing.T) {
	out := t.TempDir()
	code, _, stderr := runCmd(t, "tables", "--compat", "--collate", "C", "--sb-tag", "all", "--dbms", publishedList(t), published, "-o", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	got, err := os.ReadFile(filepath.Join(out, "qps.abs.all.nopre.csv"))
	if err != nil {
		t.Fatal(err)
	}
	var labels []string
	for _, l := range strings.Split(string(got), "\n") {
		if name, _, _ := strings.Cut(l, ","); strings.HasPrefix(name, "random-points") {
			labels = append(labels, name)
		}
	}
	// en_US.UTF-8 (published): range=1000, range=100, range=10.
	if want := []string{"random-points_range=10", "random-points_range=100", "random-points_range=1000"}; !slices.Equal(labels, want) {
		t.Errorf("C order %q, want %q", labels, want)
	}
}
