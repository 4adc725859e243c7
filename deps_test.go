package ibreport_test

import (
	"bytes"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/ibreport/ibreport"

// allowed lists, for each package of the module, the module packages it may
// import. Imports point one way:
//
//	parse ← metrics ← results ← report ← report/render, diff ← cmd/ibreport
//
// Generic statistics (internal/stats) know nothing of benchmarks. The
// emulation of the original scripts' awk and bc arithmetic (internal/awk)
// is used only by the compat edge (internal/compat), which report calls for
// --compat. internal/sbsum writes the sysbench summaries of the original
// scripts. internal/chart draws charts from its own input, which report/render
// converts the report's charts into;
// internal/fsout writes outputs atomically; internal/osfs opens the files
// of a results folder; internal/names quotes, sorts
// and matches the names of the input for every package that shows them;
// internal/textfmt and internal/inputerr are leaves shared by the packages
// that print text and report bad input; templates is data only.
var allowed = map[string][]string{
	"parse":             {"internal/inputerr", "internal/names"},
	"internal/stats":    {},
	"internal/awk":      {},
	"internal/fsout":    {},
	"internal/osfs":     {},
	"internal/textfmt":  {},
	"internal/inputerr": {},
	"internal/textdiff": {},
	"internal/names":    {},
	"internal/relname":  {"internal/names"},
	"templates":         {},
	"metrics":           {"parse", "internal/stats"},
	"internal/compat":   {"parse", "metrics", "internal/awk", "internal/stats"},
	"results":           {"parse", "metrics", "internal/inputerr", "internal/names"},
	"internal/sbsum":    {"parse", "metrics", "internal/compat", "internal/fsout"},
	"report":            {"results", "internal/names", "internal/relname", "internal/sbsum", "parse", "metrics", "internal/stats", "internal/compat", "internal/fsout", "internal/osfs", "internal/textfmt", "internal/inputerr"},
	"internal/chart":    {"metrics"},
	"report/render":     {"report", "internal/chart", "metrics", "internal/textfmt", "internal/inputerr", "templates"},
	"diff":              {"internal/names", "report", "results", "parse", "metrics", "internal/stats", "internal/textfmt", "internal/inputerr"},
	"cmd/ibreport":      {"internal/names", "report", "report/render", "diff", "parse", "metrics", "internal/fsout", "internal/textfmt"},
}

// public are the packages other programs may import: each says in its
// package documentation what of it is stable. Everything else is internal
// or the command.
var public = []string{"parse", "metrics", "results", "report", "report/render", "diff", "templates"}

// sourceFiles calls each for every non-test Go file of the module (outside
// testdata and hidden folders), with its package's folder.
func sourceFiles(t *testing.T, each func(path, pkg string)) {
	t.Helper()
	err := filepath.WalkDir(".", func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") && p != ".") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go") {
			each(p, filepath.ToSlash(filepath.Dir(p)))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestImportRules parses every non-test Go file and checks its imports of
// module packages against the allowed list.
func TestImportRules(t *testing.T) {
	seen := 0
	sourceFiles(t, func(p, pkg string) {
		ok, known := allowed[pkg]
		if !known {
			t.Errorf("%s: package %s has no import rule; add it to allowed", p, pkg)
			return
		}
		f, err := parser.ParseFile(token.NewFileSet(), p, nil, parser.ImportsOnly)
		if err != nil {
			t.Error(err)
			return
		}
		seen++
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			dep, inModule := strings.CutPrefix(path, module+"/")
			if inModule && !slices.Contains(ok, dep) {
				t.Errorf("%s: %s may not import %s", p, pkg, dep)
			}
		}
	})
	if seen < 10 {
		t.Errorf("only %d Go files checked", seen)
	}
}

// TestPublicPackages checks that every package outside internal/ (but the
// command and this root) is one of the public packages, and that each
// public package documents its stability.
func TestPublicPackages(t *testing.T) {
	for pkg := range allowed {
		if strings.HasPrefix(pkg, "internal/") || strings.HasPrefix(pkg, "cmd/") {
			continue
		}
		if !slices.Contains(public, pkg) {
			t.Errorf("package %s is importable by other programs but not listed as public", pkg)
		}
	}
	for _, pkg := range public {
		doc, err := os.ReadFile(filepath.Join(pkg, "doc.go"))
		if err != nil {
			t.Errorf("%s: %v", pkg, err)
			continue
		}
		if !strings.Contains(string(doc), "// # Stability") {
			t.Errorf("%s/doc.go has no Stability section", pkg)
		}
	}
}

// maxShare is the largest share of the module's non-test lines one
// package may hold: a package that grows past it holds more than one
// concern and should be split.
const maxShare = 0.30

// TestPackageSizes checks that no package holds more than maxShare of the
// non-test Go lines.
func TestPackageSizes(t *testing.T) {
	lines := map[string]int{}
	total := 0
	sourceFiles(t, func(p, pkg string) {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		n := bytes.Count(b, []byte("\n"))
		lines[pkg] += n
		total += n
	})
	if total < 1000 {
		t.Fatalf("only %d lines counted", total)
	}
	for pkg, n := range lines {
		if share := float64(n) / float64(total); share > maxShare {
			t.Errorf("%s holds %d of %d non-test lines (%.0f%%), more than %.0f%%", pkg, n, total, 100*share, 100*maxShare)
		}
	}
}
