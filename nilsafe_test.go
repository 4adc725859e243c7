package ibreport_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// publicAPI lists, for every package of the module a program outside it
// can import (not internal/, not a command), each exported function and
// each exported method of an exported type, as Go expressions a user
// program can write: "p1.Load", "(*p1.Results).Tree", "p2.Value.Format".
// Generic functions are left out: they cannot be named without type
// arguments. The list comes from the source, so new API is in it.
func publicAPI(t *testing.T) (imports map[string]string, exprs []apiFunc) {
	t.Helper()
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}}|{{.Name}}|{{.Dir}}|{{join .GoFiles \",\"}}", "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	imports = map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Split(line, "|")
		path, name, dir, files := f[0], f[1], f[2], f[3]
		rel := strings.TrimPrefix(strings.TrimPrefix(path, module), "/")
		if name == "main" || rel == "" || strings.HasPrefix(rel, "internal/") || strings.Contains(rel, "/internal/") || files == "" {
			continue
		}
		alias := fmt.Sprintf("p%d_", len(imports))
		imports[alias] = path
		fset := token.NewFileSet()
		types := map[string]bool{} // exported types without type parameters
		var funcs []*ast.FuncDecl
		for _, file := range strings.Split(files, ",") {
			af, err := parser.ParseFile(fset, filepath.Join(dir, file), nil, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range af.Decls {
				switch d := d.(type) {
				case *ast.GenDecl:
					for _, s := range d.Specs {
						if ts, ok := s.(*ast.TypeSpec); ok && ts.Name.IsExported() && ts.TypeParams == nil && !ts.Assign.IsValid() {
							types[ts.Name.Name] = true
						}
					}
				case *ast.FuncDecl:
					if d.Name.IsExported() && d.Type.TypeParams == nil {
						funcs = append(funcs, d)
					}
				}
			}
		}
		add := func(expr string) {
			exprs = append(exprs, apiFunc{expr, strings.ReplaceAll(expr, alias+".", rel+".")})
		}
		for _, fd := range funcs {
			if fd.Recv == nil {
				add(alias + "." + fd.Name.Name)
				continue
			}
			typ, ptr := fd.Recv.List[0].Type, false
			if s, ok := typ.(*ast.StarExpr); ok {
				typ, ptr = s.X, true
			}
			id, ok := typ.(*ast.Ident)
			if !ok || !types[id.Name] {
				continue // unexported or generic receiver
			}
			if ptr {
				add("(*" + alias + "." + id.Name + ")." + fd.Name.Name)
			} else {
				add(alias + "." + id.Name + "." + fd.Name.Name)
			}
		}
	}
	sort.Slice(exprs, func(i, j int) bool { return exprs[i].name < exprs[j].name })
	return imports, exprs
}

// apiFunc is one function or method: the expression naming it in the
// generated program and the name a failure is reported by.
type apiFunc struct{ expr, name string }

// nilCaller is the program that calls every function of the list. Each
// is called twice: once with the zero value of every argument (nil
// pointers, slices, maps, interfaces and functions, a nil receiver), and
// once with pointers to zero values, slices of one zero element and, for
// interfaces, an empty file system, an empty reader or a discarding
// writer. A panic, or a call that does not return within the limit, is
// printed as a FAIL line.
const nilCaller = `
func main() {
	calls := 0
	for _, f := range api {
		for mode := 0; mode < 2; mode++ {
			calls++
			if msg := call(f.fn, mode); msg != "" {
				fmt.Printf("FAIL %s (%s): %s\n", f.name, modes[mode], msg)
			}
		}
	}
	fmt.Printf("CALLS %d\n", calls)
}

var modes = []string{"zero arguments", "pointers to zero values"}

func call(fn any, mode int) string {
	v := reflect.ValueOf(fn)
	t := v.Type()
	args := make([]reflect.Value, t.NumIn())
	for i := range args {
		args[i] = arg(t.In(i), mode)
	}
	done := make(chan string, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- fmt.Sprintf("panic: %v at %s", r, where(debug.Stack()))
			}
		}()
		if t.IsVariadic() {
			v.CallSlice(args)
		} else {
			v.Call(args)
		}
		done <- ""
	}()
	select {
	case msg := <-done:
		return msg
	case <-time.After(20 * time.Second):
		return "no return within 20s"
	}
}

// where returns the first frame of the module in a stack.
func where(stack []byte) string {
	lines := strings.Split(string(stack), "\n")
	for i, l := range lines {
		if strings.Contains(l, "github.com/ibreport/ibreport/") && i+1 < len(lines) {
			return strings.TrimSpace(l) + " " + strings.TrimSpace(lines[i+1])
		}
	}
	return "?"
}

var samples = []any{fstest.MapFS{}, strings.NewReader(""), io.Discard}

func arg(t reflect.Type, mode int) reflect.Value {
	if mode == 1 {
		switch t.Kind() {
		case reflect.Pointer:
			return reflect.New(t.Elem())
		case reflect.Slice:
			s := reflect.MakeSlice(t, 1, 1)
			s.Index(0).Set(arg(t.Elem(), mode))
			return s
		case reflect.Interface:
			if t.NumMethod() == 0 {
				break
			}
			for _, s := range samples {
				if reflect.TypeOf(s).Implements(t) {
					return reflect.ValueOf(s)
				}
			}
		}
	}
	return reflect.Zero(t)
}
`

// TestPublicAPINilSafe calls every exported function and method of the
// public packages with nil and zero arguments and receivers: each must
// return (an error, NA or an empty value), never panic or hang.
func TestPublicAPINilSafe(t *testing.T) {
	dir := userModule(t)
	imports, exprs := publicAPI(t)
	var b strings.Builder
	b.WriteString("package main\n\nimport (\n\t\"fmt\"\n\t\"io\"\n\t\"reflect\"\n\t\"runtime/debug\"\n\t\"strings\"\n\t\"testing/fstest\"\n\t\"time\"\n\n")
	aliases := make([]string, 0, len(imports))
	for a := range imports {
		aliases = append(aliases, a)
	}
	sort.Strings(aliases)
	for _, a := range aliases {
		used := false
		for _, e := range exprs {
			used = used || strings.Contains(e.expr, a+".")
		}
		if used {
			fmt.Fprintf(&b, "\t%s %q\n", a, imports[a])
		}
	}
	b.WriteString(")\n\nvar api = []struct {\n\tname string\n\tfn   any\n}{\n")
	for _, e := range exprs {
		fmt.Fprintf(&b, "\t{%q, %s},\n", e.name, e.expr)
	}
	b.WriteString("}\n")
	b.WriteString(nilCaller)
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := goIn(t, dir, "run", ".")
	if err != nil {
		t.Fatalf("go run: %v\n%s", err, out)
	}
	calls := 0
	for _, l := range strings.Split(out, "\n") {
		switch {
		case strings.HasPrefix(l, "FAIL "):
			t.Error(strings.TrimPrefix(l, "FAIL "))
		case strings.HasPrefix(l, "CALLS "):
			fmt.Sscan(strings.TrimPrefix(l, "CALLS "), &calls)
		}
	}
	// Both modes of every listed function ran: the list is not empty by
	// a fault of the enumeration.
	if calls != 2*len(exprs) || len(exprs) < 100 {
		t.Errorf("%d calls of %d functions and methods", calls, len(exprs))
	}
}
