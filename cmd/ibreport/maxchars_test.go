package main

import (
	"strings"
	"testing"
)

// TestDiffMaxChars: --max-chars cuts only the md report, not below 2,000,
// and --full-report goes with it; a report that fits is unchanged.
func TestDiffMaxChars(t *testing.T) {
	const tables = "../../testdata/ibench/reference/res"
	for _, tc := range []struct {
		args []string
		code int
		err  string
	}{
		{[]string{"--max-chars", "5000"}, 2, "--max-chars cuts the md report; --format is text"},
		{[]string{"--format", "md", "--max-chars", "1999"}, 2, "--max-chars 1999: want at least 2000"},
		{[]string{"--format", "md", "--full-report", "there"}, 2, "give --max-chars too"},
		{[]string{"--format", "md", "--max-chars", "65000", "--full-report", "there"}, 0, ""},
		{[]string{"--history", "--max-chars", "65000"}, 2, "takes no --max-chars"},
	} {
		code, out, stderr := runCmd(t, append(append([]string{"diff"}, tc.args...), tables, tables)...)
		if code != tc.code || !strings.Contains(stderr, tc.err) {
			t.Errorf("%v: exit %d, %q; want %d, %q", tc.args, code, stderr, tc.code, tc.err)
		}
		if tc.code == 0 {
			_, full, _ := runCmd(t, "diff", "--format", "md", tables, tables)
			if out != full {
				t.Errorf("%v: a report that fits changed:\n%s", tc.args, out)
			}
		}
	}
}
