package parse_test

import (
	"testing"

	"github.com/ibreport/ibreport/parse"
)

func TestTreeCheckSteps(t *testing.T) {
	for _, c := range []struct {
		name string
		dirs []string
		want string // the error, "" for none
	}{
		{"distinct", []string{"t/l.i0", "t/q.L1.ips100", "t/q.L2.ips100", "t/q200.1"}, ""},
		{"old and merge name", []string{"t/l.i0", "t/q.L1.ips100", "t/q100.1"},
			"step folders t/q.L1.ips100 and t/q100.1 are both step q100.1; move one of them out of the tree"},
		{"second of a rate", []string{"t/q.L1.ips100", "t/q.L3.ips100", "t/q100.2"},
			"step folders t/q.L3.ips100 and t/q100.2 are both step q100.2; move one of them out of the tree"},
		{"one tree at the root", []string{"q.L1.ips100", "q100.1"},
			"step folders q.L1.ips100 and q100.1 are both step q100.1; move one of them out of the tree"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := "t"
			if c.name == "one tree at the root" {
				dir = "."
			}
			trees, err := parse.ReadTree(dirs(c.dirs...), dir)
			if err != nil || len(trees) != 1 {
				t.Fatalf("ReadTree: %d trees, %v", len(trees), err)
			}
			err = trees[0].CheckSteps()
			switch {
			case c.want == "" && err != nil:
				t.Errorf("CheckSteps: %v", err)
			case c.want != "" && (err == nil || err.Error() != c.want):
				t.Errorf("CheckSteps: %v\nwant %s", err, c.want)
			}
		})
	}
}
