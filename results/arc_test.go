package results_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ibreport/ibreport/results"
)

// TestArchives reads every folder with summary tables under
// $IBREPORT_ARC (a checkout of bench/arc of mdcallag/mytools): each must
// give a set or say why not, and every set's relative tables must agree
// with its absolute ones.
func TestArchives(t *testing.T) {
	root := os.Getenv("IBREPORT_ARC")
	if root == "" {
		t.Skip("IBREPORT_ARC is not set")
	}
	n := 0
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		ok, err := results.HasSummaries(os.DirFS(p), ".")
		if err != nil || !ok {
			return err
		}
		n++
		s, err := results.ReadSummaries(os.DirFS(p), ".", p)
		if err != nil {
			t.Errorf("%s: %v", p, err)
			return nil
		}
		var sets []string
		for _, set := range s.Sets {
			kind := ""
			switch {
			case set.Relative:
				kind = " rel"
			case set.MetOnly:
				kind = " met"
			}
			sets = append(sets, set.Name+kind+"("+strconv.Itoa(len(set.Builds))+"b,"+strconv.Itoa(len(set.Rows))+"t,dop"+strconv.Itoa(set.Threads)+","+strconv.Itoa(len(set.Groups))+"g)")
		}
		def := results.DefaultSet(s.Sets)
		name := "-"
		if def != nil {
			name = def.Name
		}
		rel, _ := filepath.Rel(root, p)
		t.Logf("%s: default %s; %s", rel, name, strings.Join(sets, " "))
		for _, k := range s.Skipped {
			t.Logf("   skipped %s: %s", k.File, k.Why)
		}
		for _, w := range s.Warnings {
			t.Logf("   warning %s", w.Text)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatalf("no folder with summary tables under %s", root)
	}
}
