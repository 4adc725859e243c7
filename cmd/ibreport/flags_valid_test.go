package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestEveryFlagTakesAValidValue runs every flag of every command, as
// `ibreport help COMMAND` lists them, with a valid value: none may be
// refused as usage (exit 2) or change what a command can read. A flag
// bound to one variable and checked through another (--run-noise of
// diff once) fails here.
func TestEveryFlagTakesAValidValue(t *testing.T) {
	tmp := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(tmp, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	ib := "../../testdata/example"
	sb := "../../testdata/sysbench/raw"
	sum := "../../testdata/arc/dec25.sb.80plus/hetz48"
	groups := write("groups", "Reads: point-query read-only\nWrites: insert update-index write-only read-write\n")
	extra := write("extra.csv", "dbms,test,rows/q\nx.pg15.c1.pk1,point-query,1\n")
	intro := write("intro.md", "# Setup\n\nTwo configs.\n")
	acks := write("acks.txt", "example: the same folder six times\n")
	dbms := write("dbms.txt", "2m.pg15.c1\n2m.pg15.c2\n")
	sbdbms := write("sbdbms.txt", "x.pg15.c1.pk1\nx.pg15.c2.pk1\n")
	// value gives a flag's value; dir the folder it reads (default: the
	// insert benchmark's example); more the flags it needs beside it.
	type use struct {
		value, dir string
		more       []string
	}
	uses := map[string]use{
		"--compat": {}, "--quiet": {}, "--series": {}, "--history": {}, "--confirm": {}, "--allow-missing": {}, "--allow-na": {}, "--strict": {}, "--all": {},
		"--cores": {value: "48"}, "--dbms": {value: dbms}, "--device": {value: "vda"}, "--ps-user": {value: "mysql"},
		"--run-noise": {value: "0.02"}, "--run-noise-df": {value: "3"}, "--set": {value: "my.80plus", dir: sum}, "--clients": {value: "1"},
		"--sla": {value: "0.95"}, "--some": {value: "l.i0"}, "--stall-rate": {value: "0.5"}, "--stall-rt": {value: "10"},
		"--collate": {value: "C", dir: sb}, "--perf-prefix": {value: "sb", dir: sb}, "--perf-sample": {value: "1", dir: sb},
		"--sb-engine": {value: "innodb", dir: sb}, "--sb-extra": {value: extra, dir: sb}, "--sb-groups": {value: groups, dir: sb},
		"--sb-tag": {value: "pg", dir: sb}, "--scan-gen": {value: "2", dir: sb}, "--format": {value: "md"},
		"--intro": {value: intro}, "--layout": {value: "study"}, "-o": {value: "OUT"}, "--title": {value: "A title"},
		"--noise-settings": {value: "NOISE"}, "--alpha": {value: "0.1"}, "--tables": {value: "mrg"},
		"--threshold": {value: "ips=5%"}, "--warn": {value: "ips=2%"}, "--max-chars": {value: "4000", more: []string{"--format", "md"}},
		"--full-report": {value: "the job summary", more: []string{"--format", "md", "--max-chars", "4000"}},
		"--base":        {value: ib}, "--new": {value: ib}, "--acknowledged": {value: acks},
	}
	flagLine := regexp.MustCompile(`^  (--?[a-z][a-z-]*)`)
	for _, cmd := range []string{"build", "tables", "series", "diff", "inspect"} {
		code, help, _ := runCmd(t, "help", cmd)
		if code != 0 {
			t.Fatalf("help %s: exit %d", cmd, code)
		}
		n := 0
		for _, line := range strings.Split(help, "\n") {
			m := flagLine.FindStringSubmatch(line)
			if m == nil {
				continue
			}
			flag := m[1]
			u, ok := uses[flag]
			if !ok {
				t.Errorf("%s %s: no valid value in this test's table", cmd, flag)
				continue
			}
			n++
			dir := u.dir
			if dir == "" {
				dir = ib
			}
			if flag == "--dbms" && dir == sb {
				u.value = sbdbms
			}
			out := filepath.Join(t.TempDir(), "out")
			value := strings.NewReplacer("OUT", out, "NOISE", filepath.Join(t.TempDir(), "ibreport.settings")).Replace(u.value)
			var args []string
			switch cmd {
			case "diff":
				args = []string{"diff"}
				switch flag {
				case "--base", "--new":
					args = append(args, "--base", ib, "--new", ib)
				case "--history", "--acknowledged", "--confirm":
					args = append(args, "--history", ib, ib, ib, ib, ib, ib)
				default:
					args = append(args, dir, dir)
				}
			case "series":
				args = []string{"series", dir, dir}
				if flag == "--noise-settings" {
					// Noise is learned from five runs of a level or more.
					args = append([]string{"series"}, nightlies(t, "pg1419_o2nofp.x10a", "pg1420_o2nofp.x10a", "pg1514_o2nofp.x10a", "pg1515_o2nofp.x10a",
						"pg1610_o2nofp.x10a", "pg1611_o2nofp.x10a", "pg176_o2nofp.x10a", "pg177_o2nofp.x10a")...)
				}
			case "inspect":
				args = []string{"inspect", filepath.Join(ib, "2m.pg15.c1", "l.i0")}
			default:
				args = []string{cmd, dir}
			}
			if flag != "--base" && flag != "--new" && flag != "--history" {
				args = append(args, flag)
				if value != "" {
					args = append(args, value)
				}
			}
			args = append(args, u.more...)
			if cmd == "tables" && flag != "-o" {
				args = append(args, "-o", out)
			}
			if (cmd == "build" || cmd == "series") && flag != "-o" {
				args = append(args, "-o", out+".html")
			}
			code, _, stderr := runCmd(t, args...)
			if code == 2 {
				t.Errorf("ibreport %s: exit 2: %s", strings.Join(args, " "), stderr)
			}
		}
		if n < 3 {
			t.Errorf("%s: only %d flags found in its help", cmd, n)
		}
	}
}
