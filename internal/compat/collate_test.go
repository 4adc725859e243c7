package compat

import (
	"math/rand"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestCollateEnUS checks the en_US order against orders real `sort` wrote
// under LC_ALL=en_US.UTF-8 (glibc 2.36): labels and file names of the
// summaries, and the corners of glibc's strcoll the names can meet.
// testdata/collate_en_US.txt lists the sb.r.qps file names of every test
// of the drivers' lists at ranges 10 to 10000 and the sb.r.qps and sb.met
// names of every test in the archives of mdcallag/mytools, in sort's order.
func TestCollateEnUS(t *testing.T) {
	b, err := os.ReadFile("testdata/collate_en_US.txt")
	if err != nil {
		t.Fatal(err)
	}
	names := strings.Fields(string(b))
	for _, c := range []struct {
		name string
		want []string // in the order sort printed them
	}{
		{"archive names", names},
		{"ranges at the end", []string{"random-points_range=10", "random-points_range=100", "random-points_range=1000"}},
		{"punctuation ignored first", []string{"read-only-count_range=1000", "read-only_range=10", "read-only_range=10000", "read-only-sum_range=1000"}},
		{"case after letters, punctuation last", []string{"a-1", "a1", "a-b", "a.b", "a_b", "ab", "aB", "A-b"}},
		{"a run of digits and punctuation before a letter", []string{"100.p", "10.p", "1-0p", "1.0p"}},
		{"dollar signs", []string{"$/$", "$$", "$$a", "$/$a"}},
		{"digits before letters", []string{"x.a1", "x.A1", "x.a10", "x.a2"}},
	} {
		got := slices.Clone(c.want)
		slices.Sort(got) // byte order first, so that the collation has to reorder
		CollateEnUS.Sort(got)
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: en_US order\n%q\nwant\n%q", c.name, got, c.want)
		}
	}
	c := []string{"b", "B", "a-", "a"}
	CollateC.Sort(c)
	if !slices.Equal(c, []string{"B", "a", "a-", "b"}) {
		t.Errorf("C order %q", c)
	}
}

func TestParseCollation(t *testing.T) {
	for in, want := range map[string]Collation{"en_US": CollateEnUS, "en_US.UTF-8": CollateEnUS, "C": CollateC, "POSIX": CollateC} {
		if got, err := ParseCollation(in); err != nil || got != want {
			t.Errorf("%q: %v %v", in, got, err)
		}
	}
	if _, err := ParseCollation("de_DE"); err == nil {
		t.Error("de_DE accepted")
	}
}

// TestCollateMatchesSort compares the en_US order with the machine's sort
// on random names, when the machine has the en_US.UTF-8 locale (Debian:
// the locales package with en_US.UTF-8 enabled in /etc/locale.gen);
// otherwise it is skipped.
func TestCollateMatchesSort(t *testing.T) {
	sortEnUS := func(in []string) ([]string, error) {
		cmd := exec.Command("sort")
		cmd.Env = []string{"LC_ALL=en_US.UTF-8"}
		cmd.Stdin = strings.NewReader(strings.Join(in, "\n") + "\n")
		out, err := cmd.Output()
		return strings.Split(strings.TrimSuffix(string(out), "\n"), "\n"), err
	}
	if got, err := sortEnUS([]string{"B", "a"}); err != nil || got[0] != "a" {
		t.Skip("no en_US.UTF-8 locale for sort on this machine")
	}
	for seed, alphabet := range []string{"aAbBzZ019$-._= \t~!/#@+,", "ab01.-_=", "rangepk0123.-_=", "a0.$-"} {
		rng := rand.New(rand.NewSource(int64(seed)))
		r := []rune(alphabet)
		seen := map[string]bool{}
		var in []string
		for len(in) < 20000 {
			var b strings.Builder
			for range rng.Intn(10) + 1 {
				b.WriteRune(r[rng.Intn(len(r))])
			}
			if s := b.String(); !seen[s] {
				seen[s] = true
				in = append(in, s)
			}
		}
		want, err := sortEnUS(in)
		if err != nil {
			t.Fatal(err)
		}
		CollateEnUS.Sort(in)
		for i := range want {
			if in[i] != want[i] {
				t.Errorf("alphabet %q: at %d sort has %q, we have %q", alphabet, i, want[i], in[i])
				break
			}
		}
	}
}
