package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const example = "../../testdata/example"

func runCmd(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return code, out.String(), errb.String()
}

// TestTablesCompat runs the command of the compat example of docs/tables.md and
// compares a few outputs with the original pipeline's files.
func TestTablesCompat(t *testing.T) {
	dir := t.TempDir()
	code, _, stderr := runCmd(t, "tables", "--compat", "--cores", "2", "--ps-user", "postgres", "--device", "vda",
		"--dbms", "../../testdata/ibench/reference/x.2m.pg.etldirs", example, "-o", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, name := range []string{"mrg.l.i0", "rel.qr100.L1", "mrg.qp1000.L6.rt.query", "mrg.qr500.L3.rate.insert", "o.sum.t.2m.pg15.c2"} {
		sub := "res"
		switch {
		case strings.Contains(name, ".rt.") || strings.Contains(name, ".rate."):
			sub = "rt"
		case strings.HasPrefix(name, "o.sum"):
			sub = "sum"
		}
		want, err := os.ReadFile(filepath.Join("../../testdata/ibench/reference", sub, name))
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from the original", name)
		}
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.Contains(e.Name(), ".tmp") {
			t.Errorf("temporary file %s left behind", e.Name())
		}
	}
}

func TestExitCodes(t *testing.T) {
	dir := t.TempDir()
	empty := t.TempDir()
	for _, tc := range []struct {
		name string
		args []string
		code int
		msg  string
	}{
		{"no command", nil, 2, "usage"},
		{"unknown command", []string{"frobnicate"}, 2, "unknown command"},
		{"no output dir", []string{"tables", example}, 2, "usage"},
		{"missing results", []string{"tables", filepath.Join(dir, "nope"), "-o", dir}, 2, "no such file"},
		{"nothing to read", []string{"tables", empty, "-o", dir}, 2, "no DBMS result trees"},
		{"bad flag", []string{"tables", "--cores", "x", example, "-o", dir}, 2, "invalid value"},
		{"unknown dbms", []string{"tables", "--dbms", writeFile(t, "pg15.c9\n"), example, "-o", dir}, 2, "pg15.c9"},
		{"inspect not a step", []string{"inspect", example}, 2, "not a step folder"},
		{"ok", []string{"tables", "--cores", "2", example, "-o", dir}, 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := runCmd(t, tc.args...)
			if code != tc.code {
				t.Errorf("exit %d, want %d; stderr: %s", code, tc.code, stderr)
			}
			if tc.msg != "" && !strings.Contains(stderr, tc.msg) {
				t.Errorf("stderr %q does not mention %q", stderr, tc.msg)
			}
		})
	}
}

func writeFile(t *testing.T, content string) string {
	p := filepath.Join(t.TempDir(), "list")
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestInspect(t *testing.T) {
	code, stdout, stderr := runCmd(t, "inspect", "--compat", "--cores", "2", "--device", "vda", filepath.Join(example, "2m.pg15.c1", "l.x"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var got struct {
		Kind string            `json:"kind"`
		Row  map[string]string `json:"row"`
		Res  []string          `json:"o_res"`
	}
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatal(err)
	}
	if got.Kind != "create index" || got.Row["ips"] != "333350" || got.Row["p50"] != "NA" {
		t.Errorf("kind %q ips %q p50 %q, want create index, 333350, NA", got.Kind, got.Row["ips"], got.Row["p50"])
	}
	want, _ := os.ReadFile(filepath.Join(example, "2m.pg15.c1", "l.x", "o.res.dop2"))
	if strings.Join(got.Res, "\n")+"\n" != string(want) {
		t.Errorf("inspect o_res differs from the driver's o.res.dop2")
	}
}

// TestTablesSysbench runs tables on the sysbench fixtures in compat mode
// and checks bad flags and user files.
func TestTablesSysbench(t *testing.T) {
	dir := t.TempDir()
	code, _, stderr := runCmd(t, "tables", "--compat", "--sb-tag", "pg", "--collate", "C", "--device", "vda", "../../testdata/sysbench/raw", "-o", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for name, ref := range map[string]string{
		"qps.abs.pg.tsv": "../../testdata/sysbench/reference/qps.abs.pg.tsv",
		"sum.pg":         "../../testdata/sysbench/reference/sum.pg",
		"x.pg15.c2.pk1/sb.met.read-write.range100.pk1.dop2": "../../testdata/sysbench/raw/x.pg15.c2.pk1/sb.met.read-write.range100.pk1.dop2",
	} {
		want, err := os.ReadFile(ref)
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s differs from %s (%v)", name, ref, err)
		}
	}
	groups := filepath.Join(t.TempDir(), "groups")
	os.WriteFile(groups, []byte("Reads: point-query read-only\nno colon here\n"), 0o644)
	code, _, stderr = runCmd(t, "tables", "--sb-groups", groups, "../../testdata/sysbench/raw", "-o", t.TempDir())
	if code != 2 || !strings.Contains(stderr, groups+":2: want <group name>: <test> <test> ...") {
		t.Errorf("bad group file: exit %d: %s", code, stderr)
	}
	os.WriteFile(groups, []byte("Reads: point-query read-only\nWrites: insert update-index write-only read-write\n"), 0o644)
	extra := filepath.Join(t.TempDir(), "extra.csv")
	os.WriteFile(extra, []byte("dbms,test,rows/q\nx.pg15.c1.pk1,point-query,1\n"), 0o644)
	out := t.TempDir()
	code, _, stderr = runCmd(t, "tables", "--sb-groups", groups, "--sb-extra", extra, "--scan-gen", "2", "../../testdata/sysbench/raw", "-o", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	g, _ := os.ReadFile(filepath.Join(out, "qps.groups.sb.dop1"))
	q, _ := os.ReadFile(filepath.Join(out, "per-query.sb.dop1"))
	if !strings.HasPrefix(string(g), "Reads\tx.pg15.c2.pk1\nAverage\t0.95\n") || !strings.Contains(string(q), "dbms\tqps\tlat(ms)\tlatp95(ms)\trows/q\nx.pg15.c1.pk1\t8760\t0.11\t0.16\t1\n") {
		t.Errorf("groups:\n%s\nper-query:\n%s", g, q)
	}
	code, _, stderr = runCmd(t, "tables", "--scan-gen", "7", "../../testdata/sysbench/raw", "-o", t.TempDir())
	if code != 2 || !strings.Contains(stderr, "scan generation 7") {
		t.Errorf("bad --scan-gen: exit %d: %s", code, stderr)
	}
}

// TestSysbenchSettings sets the sysbench options in ibreport.settings:
// sb-tag, sb-engine, scan-gen and collate apply, flags win, and a bad
// value is bad input.
func TestSysbenchSettings(t *testing.T) {
	res := t.TempDir()
	if err := os.CopyFS(res, os.DirFS("../../testdata/sysbench/raw")); err != nil {
		t.Fatal(err)
	}
	settings := filepath.Join(res, "ibreport.settings")
	os.WriteFile(settings, []byte("device = vda\nsb-tag = fromfile\nsb-engine = postgres\nscan-gen = 2\ncollate = C\n"), 0o644)
	out := t.TempDir()
	if code, _, stderr := runCmd(t, "tables", "--compat", res, "-o", out); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	r, err := os.ReadFile(filepath.Join(out, "x.pg15.c1.pk1", "sb.r.qps.insert.range100.pk1"))
	if _, err2 := os.Stat(filepath.Join(out, "qps.abs.fromfile.tsv")); err != nil || err2 != nil || !strings.HasSuffix(string(r), "\tpostgres insert range=100\n") {
		t.Errorf("settings not applied: %q %v %v", r, err, err2)
	}
	out = t.TempDir()
	if code, _, stderr := runCmd(t, "tables", "--compat", "--sb-tag", "sb", "--sb-engine", "pgsql", res, "-o", out); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	r, err = os.ReadFile(filepath.Join(out, "x.pg15.c1.pk1", "sb.r.qps.insert.range100.pk1"))
	if _, err2 := os.Stat(filepath.Join(out, "qps.abs.sb.tsv")); err != nil || err2 != nil || !strings.HasSuffix(string(r), "\tpgsql insert range=100\n") {
		t.Errorf("flags do not win: %q %v %v", r, err, err2)
	}
	for _, c := range []struct{ settings, flag, msg string }{
		{"collate = de_DE\n", "", `collation "de_DE": want en_US or C`},
		{"scan-gen = 4\n", "", `scan-gen = "4": want 1, 2 or 3`},
		{"", "--collate=fr", `collation "fr": want en_US or C`},
	} {
		os.WriteFile(settings, []byte(c.settings), 0o644)
		args := []string{"tables", res, "-o", t.TempDir()}
		if c.flag != "" {
			args = append(args, c.flag)
		}
		if code, _, stderr := runCmd(t, args...); code != 2 || !strings.Contains(stderr, c.msg) {
			t.Errorf("%q %s: exit %d: %s", c.settings, c.flag, code, stderr)
		}
	}
}
