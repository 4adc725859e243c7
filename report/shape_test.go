package report_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// maxMethods bounds the methods declared on one type of package report: a
// type that grows past it holds more than one concern of the report (the
// insert benchmark, sysbench, series, findings) and is split.
const maxMethods = 30

// compatEdge are the files of package report that read the compat mode
// (a Compat or compat field): the loader and the writers of the scripts'
// files, and build, which reads the option once and gives each part of
// the report its edge value (ibEdge, sbText) or decision. Every other file
// asks those.
var compatEdge = map[string]bool{
	"build.go":            true, // reads the option once, chooses each part's edge
	"load.go":             true,
	"merged.go":           true,
	"tables.go":           true,
	"typedtables.go":      true, // the rel tables of the merged model, as tables.go writes them
	"archive.go":          true,
	"history.go":          true, // a series' report keeps the mode of its first set
	"shortnames.go":       true, // the compat report prints the scripts' names
	"sysbench_options.go": true, // refuses compat sets: their files come from internal/compat
}

// reportFiles parses the non-test Go files of package report.
func reportFiles(t *testing.T) (map[string]*ast.File, *token.FileSet) {
	t.Helper()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	out := map[string]*ast.File{}
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, name, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		out[name] = f
	}
	if len(out) == 0 {
		t.Fatal("no Go files in package report")
	}
	return out, fset
}

// TestMethodSetsSmall fails when one type of report declares more than
// maxMethods methods, as the single report builder did (66).
func TestMethodSetsSmall(t *testing.T) {
	files, _ := reportFiles(t)
	count := map[string]int{}
	where := map[string]map[string]bool{}
	for name, f := range files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv == nil || len(fd.Recv.List) == 0 {
				continue
			}
			typ := fd.Recv.List[0].Type
			if s, ok := typ.(*ast.StarExpr); ok {
				typ = s.X
			}
			if ix, ok := typ.(*ast.IndexExpr); ok {
				typ = ix.X
			}
			id, ok := typ.(*ast.Ident)
			if !ok {
				continue
			}
			count[id.Name]++
			if where[id.Name] == nil {
				where[id.Name] = map[string]bool{}
			}
			where[id.Name][name] = true
		}
	}
	if len(count) == 0 {
		t.Fatal("no methods found")
	}
	for typ, n := range count {
		if n > maxMethods {
			var fs []string
			for f := range where[typ] {
				fs = append(fs, f)
			}
			sort.Strings(fs)
			t.Errorf("type %s has %d methods (at most %d) in %s: split it by concern", typ, n, maxMethods, strings.Join(fs, ", "))
		}
	}
}

// TestCompatReadAtEdge fails when a file outside compatEdge reads a
// Compat or compat field: the mode is decided once, at the edge, and the
// parts of the report get the decision, not the flag.
func TestCompatReadAtEdge(t *testing.T) {
	files, fset := reportFiles(t)
	reads := 0
	for name, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok || sel.Sel.Name != "Compat" && sel.Sel.Name != "compat" {
				return true
			}
			reads++
			if !compatEdge[name] {
				t.Errorf("%s reads .%s: only %v read the mode", fset.Position(sel.Pos()), sel.Sel.Name, edgeNames())
			}
			return true
		})
	}
	if reads == 0 {
		t.Fatal("no read of Compat found: the test no longer sees the option")
	}
}

func edgeNames() []string {
	var out []string
	for n := range compatEdge {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}
