package diff_test

import (
	"bytes"
	"testing"

	"github.com/ibreport/ibreport/diff"
)

// TestZeroOptions checks that a zero Options compares as the defaults
// do, as a zero report.BuildOptions builds, instead of failing on its
// zero alpha.
func TestZeroOptions(t *testing.T) {
	write := func(opt diff.Options) string {
		t.Helper()
		c, _, err := diff.Run([]string{archive}, []string{archive}, opt)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := diff.Write(&b, c, diff.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	zero, def := write(diff.Options{}), write(diff.Options{Compare: diff.DefaultCompareOptions()})
	if zero != def || zero == "" {
		t.Errorf("zero Options:\n%s\ndefaults:\n%s", zero, def)
	}
	if got := diff.ExitCode(nil, false); got != 2 {
		t.Errorf("ExitCode(nil) = %d, want 2", got)
	}
}
