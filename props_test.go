package ibreport_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ibreport/ibreport/metrics"
)

// propsTable is the one file that may define a metric's properties.
const propsTable = "metrics/props.go"

// directionIdents are the names of the directions: a declaration that
// names one beside a metric name is defining that metric's direction.
var directionIdents = map[string]bool{
	"HigherIsBetter": true, "LowerIsBetter": true, "NoDirection": true, "Neutral": true,
	"higherBetter": true, "lowerBetter": true, "noDirection": true,
}

// propertyKeys are the fields (in lower case) that carry a property of a
// metric: a composite literal that sets one beside a metric name defines
// it again.
var propertyKeys = map[string]bool{
	"better": true, "direction": true, "floor": true, "gate": true, "warn": true, "fail": true,
	"cost": true, "class": true, "digits": true, "unit": true, "like": true,
}

// secondDefinitions lists the places of a file that define a property of
// a metric (a direction, a floor, a gate rule) keyed by its name, which
// only the properties table may do:
//
//   - a map literal keyed by a metric name ({"ips": 1, …});
//   - a switch case on a metric name (case "ips", "qps": return higher);
//   - a composite literal that pairs a metric name with a property field,
//     a direction or a number ({Metric: "maxop", Better: LowerIsBetter,
//     …}, {"cpu/o", 6, "cpupq"});
//   - a composite literal that sets a direction, with or without a name
//     ({cpuPerOp, 6, LowerIsBetter});
//   - a function or declaration that compares with, or passes, a metric
//     name and names a direction (if col == "ips" { return
//     HigherIsBetter }; tput("ips") with tput setting HigherIsBetter).
func secondDefinitions(fset *token.FileSet, f *ast.File, names map[string]bool) []string {
	var out []string
	at := func(n ast.Node, format string, args ...any) {
		out = append(out, fmt.Sprintf("%s: %s", fset.Position(n.Pos()), fmt.Sprintf(format, args...)))
	}
	name := func(e ast.Expr) (string, bool) {
		l, ok := e.(*ast.BasicLit)
		if !ok || l.Kind != token.STRING {
			return "", false
		}
		s, err := strconv.Unquote(l.Value)
		return s, err == nil && names[s]
	}
	// constant is a metric named by its typed constant (metrics.CPUPQ,
	// or CPUPQ inside metrics): code computes by those in switches and
	// indexes, so only a direction or a property beside one defines it.
	constant := func(e ast.Expr) (string, bool) {
		switch e := e.(type) {
		case *ast.Ident:
			return e.Name, metricConsts[e.Name]
		case *ast.SelectorExpr:
			if x, ok := e.X.(*ast.Ident); ok && x.Name == "metrics" {
				return "metrics." + e.Sel.Name, metricConsts[e.Sel.Name]
			}
		}
		return "", false
	}
	direction := func(e ast.Expr) bool {
		switch e := e.(type) {
		case *ast.Ident:
			return directionIdents[e.Name]
		case *ast.SelectorExpr:
			return directionIdents[e.Sel.Name]
		}
		return false
	}
	for _, decl := range f.Decls {
		var used []string // metric names compared with or passed
		directed := false
		ast.Inspect(decl, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CompositeLit:
				var metric string
				property, positional, directs := false, false, false
				for _, e := range n.Elts {
					v := e
					if kv, ok := e.(*ast.KeyValueExpr); ok {
						if s, ok := name(kv.Key); ok {
							at(kv, "a map keyed by the metric name %q", s)
						}
						if c, ok := constant(kv.Key); ok {
							at(kv, "a map keyed by the metric %s", c)
						}
						if k, ok := kv.Key.(*ast.Ident); ok && propertyKeys[strings.ToLower(k.Name)] {
							property = true
						}
						v = kv.Value
					} else if l, ok := e.(*ast.BasicLit); ok && (l.Kind == token.INT || l.Kind == token.FLOAT) {
						positional = true
					}
					if s, ok := name(v); ok && metric == "" {
						metric = s
					}
					if c, ok := constant(v); ok && metric == "" && !isKey(e) {
						metric = c
					}
					if direction(v) {
						directs, property = true, true
					}
				}
				// A number beside a name, in a literal of a struct with
				// unnamed fields, is a floor, a threshold or decimals.
				switch {
				case metric != "" && (property || positional):
					at(n, "a literal gives the metric %q a property", metric)
				case directs:
					// Columns listed with their directions and no names
					// ({getCPU, 6, LowerIsBetter}) define them too.
					at(n, "a literal sets a direction")
				}
			case *ast.CaseClause:
				for _, e := range n.List {
					if s, ok := name(e); ok {
						at(e, "a switch case on the metric name %q", s)
					}
					if c, ok := constant(e); ok {
						used = append(used, c)
					}
				}
			case *ast.BinaryExpr:
				if n.Op == token.EQL || n.Op == token.NEQ {
					for _, e := range []ast.Expr{n.X, n.Y} {
						if s, ok := name(e); ok {
							used = append(used, s)
						}
						if c, ok := constant(e); ok {
							used = append(used, c)
						}
					}
				}
			case *ast.CallExpr:
				for _, e := range n.Args {
					if s, ok := name(e); ok {
						used = append(used, s)
					}
				}
			case *ast.Ident:
				directed = directed || directionIdents[n.Name]
			}
			return true
		})
		if len(used) > 0 && directed {
			at(decl, "a declaration names a direction and the metrics %s", strings.Join(used, " "))
		}
	}
	return out
}

// isKey reports whether a composite literal's element is a key: value
// pair (a constant as a map key is an index, not the value paired).
func isKey(e ast.Expr) bool {
	_, ok := e.(*ast.KeyValueExpr)
	return ok
}

// metricConsts are the names of the typed metric constants (metrics.IPS …
// metrics.P99), read from the const block of metrics/metric.go that
// declares them as Metric.
var metricConsts = func() map[string]bool {
	out := map[string]bool{}
	f, err := parser.ParseFile(token.NewFileSet(), "metrics/metric.go", nil, parser.SkipObjectResolution)
	if err != nil {
		return out
	}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		typed := false
		for _, sp := range g.Specs {
			vs := sp.(*ast.ValueSpec)
			if id, ok := vs.Type.(*ast.Ident); ok && id.Name == "Metric" {
				typed = true
			}
			if typed {
				for _, n := range vs.Names {
					if n.IsExported() {
						out[n.Name] = true
					}
				}
			}
		}
	}
	return out
}()

// metricNames are the names of the properties table.
func metricNames() map[string]bool {
	names := map[string]bool{}
	for _, p := range metrics.AllProps() {
		names[p.Name] = true
	}
	return names
}

// TestOneDefinitionOfMetricProperties fails when a property of a metric
// is defined outside the properties table (metrics/props.go): every
// non-test Go file of the module is parsed and searched for a second
// definition keyed by a metric's name.
func TestOneDefinitionOfMetricProperties(t *testing.T) {
	names := metricNames()
	fset := token.NewFileSet()
	files := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != "." && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") || strings.HasPrefix(d.Name(), "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || filepath.ToSlash(path) == propsTable {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		files++
		for _, s := range secondDefinitions(fset, f, names) {
			t.Errorf("%s: a metric property is defined outside %s; read it there (metrics.PropsByName, Metric.Props)", s, propsTable)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 50 {
		t.Fatalf("parsed %d Go files, want the whole module", files)
	}
	if _, err := os.Stat(propsTable); err != nil {
		t.Fatal(err)
	}
}

// TestSecondDefinitionsCatches proves the search on the second definitions
// that the properties table replaced, and passes the reads that replaced
// them.
func TestSecondDefinitionsCatches(t *testing.T) {
	names := metricNames()
	for _, c := range []struct {
		name, src string
		want      int
	}{
		{"floor map", `var floors = map[string]float64{"ips": 1, "rpq": 0.01}`, 2},
		{"direction switch", `func d(col string) direction {
	switch col {
	case "ips", "qps":
		return higherBetter
	}
	return 0
}`, 2},
		{"direction if", `func d(col string) metrics.Direction {
	if col == "cpu/o" { return metrics.LowerIsBetter }
	return metrics.NoDirection
}`, 1},
		{"rule literal", `var r = Rule{Metric: "maxop", Better: LowerIsBetter, Warn: 0.1}`, 1},
		{"rule helper", `func rules() []Rule {
	tput := func(m string) Rule { return Rule{Metric: m, Better: HigherIsBetter} }
	return []Rule{tput("ips"), tput("qps")}
}`, 2},
		{"positional columns", `var cols = []struct{ name string; b metrics.Direction }{{"r/o", metrics.LowerIsBetter}}`, 1},
		{"measure cost", `var m = metrics.Measure{Name: "cs/o", Cost: true}`, 1},
		{"digits and like", `var cols = []struct{ name string; digits int; like string }{{"qps", 0, "qps"}, {"cpu/o", 6, "cpupq"}}`, 2},
		{"lower-case keys", `var cols = []col{{name: "r/o", floor: 0.01}}`, 1},
		{"directions without names", `var cols = []col{{get: cpu, digits: 6, better: metrics.LowerIsBetter}}`, 1},
		{"typed direction switch", `func d(m metrics.Metric) metrics.Direction {
	switch m {
	case metrics.IPS, metrics.QPS:
		return metrics.HigherIsBetter
	}
	return metrics.LowerIsBetter
}`, 1},
		{"typed direction in metrics", `func d(m Metric) Direction { if m == CPUPQ { return LowerIsBetter }; return NoDirection }`, 1},
		{"typed property literal", `var r = Rule{M: metrics.MaxOp, Better: metrics.LowerIsBetter}`, 1},
		{"typed switch computing", `func v(m metrics.Metric, r row) float64 {
	switch m {
	case metrics.CPUPQ:
		return r.cpu / r.q
	}
	return 0
}`, 0},
		{"typed map", `var digits = map[metrics.Metric]int{metrics.IPS: 0}`, 1},
		{"table read", `func d(col string) metrics.Direction { p, _ := metrics.PropsByName(col); return p.Better }`, 0},
		{"header", `var h = []string{"dbms", "cpu/o", "cs/o"}`, 0},
		{"header check", `func hdr(c string) bool { return c == "ips" }`, 0},
	} {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "x.go", "package x\n"+c.src, 0)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := secondDefinitions(fset, f, names); len(got) != c.want {
			t.Errorf("%s: %d findings %q, want %d", c.name, len(got), got, c.want)
		}
	}
}
