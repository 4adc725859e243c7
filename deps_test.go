package ibreport_test

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/ibreport/ibreport"

// allowed lists, for each package of the module, the module packages it may
// import. Imports point one way: parse ← metrics ← report ← cmd/ibreport,
// and templates is a leaf that report uses. The emulation of the original
// scripts' awk and bc arithmetic (internal/awk) is used only by the compat
// edge (internal/compat), which renders the model as those scripts printed
// it; report calls the edge for --compat.
var allowed = map[string][]string{
	"internal/parse":    {},
	"templates":         {},
	"internal/awk":      {},
	"internal/metrics":  {"internal/parse", "internal/stats"},
	"internal/stats":    {},
	"internal/compat":   {"internal/parse", "internal/metrics", "internal/awk"},
	"internal/fsout":    {},
	"internal/textfmt":  {},
	"internal/inputerr": {},
	"report":            {"internal/parse", "internal/metrics", "internal/stats", "internal/fsout", "internal/textfmt", "internal/inputerr", "templates", "internal/compat"},
	"internal/chart":    {"report", "internal/metrics"},
	"report/render":     {"report", "internal/chart", "internal/metrics", "internal/textfmt", "internal/inputerr", "templates"},
	"diff":              {"report", "internal/parse", "internal/metrics", "internal/stats", "internal/inputerr", "internal/textfmt"},
	"internal/textdiff": {},
	"cmd/ibreport":      {"internal/parse", "internal/metrics", "internal/fsout", "report", "report/render", "diff"},
}

// TestImportRules parses every non-test Go file and checks its imports of
// module packages against the allowed list.
func TestImportRules(t *testing.T) {
	seen := 0
	err := filepath.WalkDir(".", func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") && p != ".") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		pkg := filepath.ToSlash(filepath.Dir(p))
		ok, known := allowed[pkg]
		if !known {
			t.Errorf("%s: package %s has no import rule; add it to allowed", p, pkg)
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		seen++
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			dep, inModule := strings.CutPrefix(path, module+"/")
			if !inModule {
				continue
			}
			permitted := false
			for _, a := range ok {
				permitted = permitted || a == dep
			}
			if !permitted {
				t.Errorf("%s: %s may not import %s", p, pkg, dep)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if seen < 10 {
		t.Errorf("only %d Go files checked", seen)
	}
}
