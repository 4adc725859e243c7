package parse_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ibreport/ibreport/parse"
)

// testName is the file name every table-driven case passes to its reader, so
// that the expected messages read "test:<line>: ...".
const testName = "test"

// maxLine mirrors the package's limit on the length of one line (1 MiB).
const maxLine = 1 << 20

// exampleDir is the sample results tree shared with the other packages.
const exampleDir = "../testdata/example"

// errorMessages returns the messages of the syntax errors carried by err, in
// order. It fails the test when err is not nil but is not a syntax error.
func errorMessages(t testing.TB, err error) []string {
	t.Helper()
	if err == nil {
		return nil
	}
	list := parse.SyntaxErrors(err)
	if list == nil {
		t.Fatalf("got a non-syntax error %T: %v", err, err)
	}
	if len(list) == 0 {
		t.Fatalf("non-nil error %q carries an empty ErrorList", err)
	}
	msgs := make([]string, len(list))
	for i, e := range list {
		msgs[i] = e.Error()
	}
	return msgs
}

// checkErrors compares the positioned messages of err with want.
func checkErrors(t testing.TB, err error, want []string) {
	t.Helper()
	got := errorMessages(t, err)
	if (err == nil) != (len(want) == 0) {
		t.Errorf("err = %v, want errors %q", err, want)
		return
	}
	if !slices.Equal(got, want) {
		t.Errorf("errors:\n got %s\nwant %s", quoteAll(got), quoteAll(want))
	}
}

func quoteAll(s []string) string {
	if len(s) == 0 {
		return "(none)"
	}
	return "\n\t" + strings.Join(s, "\n\t")
}

// hasErrorAt reports whether err carries a syntax error at the given line.
func hasErrorAt(err error, line int) bool {
	for _, e := range parse.SyntaxErrors(err) {
		if e.Line == line {
			return true
		}
	}
	return false
}

// countLines is the number of lines a reader sees in s: every '\n' ends one,
// and a last line without a terminator counts too.
func countLines(s string) int {
	n := strings.Count(s, "\n")
	if s != "" && !strings.HasSuffix(s, "\n") {
		n++
	}
	return n
}

// join builds a file from lines, each ended by '\n'.
func join(lines ...string) string {
	if len(lines) == 0 {
		return ""
	}
	return strings.Join(lines, "\n") + "\n"
}

// tab joins cells with TABs, as the iibench client and the mrg scripts do.
func tab(cells ...string) string { return strings.Join(cells, "\t") }

// sampleFiles returns the sample files of the example trees whose base name
// matches pattern (a filepath.Match pattern such as "o.ib.dop*").
func sampleFiles(t testing.TB, pattern string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(exampleDir, "*", "*", pattern))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no sample files match %s", pattern)
	}
	return files
}

func readSample(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// errBoom is the I/O error injected by the failing readers of the tests.
var errBoom = errors.New("boom: device error")
