package report

import (
	"maps"
	"reflect"
	"slices"
	"strings"
	"sync"
)

// NameKey is one line of the key of short names: the name a report shows
// and the full name of the DBMS.
type NameKey struct {
	Short string `json:"short"`
	Full  string `json:"full"`
	// Words says what the name holds when it reads as a release: "MySQL
	// 8.0.43, config z12a, build rel o2nofp, size class c8r32"; "" otherwise.
	Words string `json:"words,omitempty"`
}

// shortNameMin is the length of the longest DBMS name from which names are
// shortened: below it the full names read as easily as short ones.
const shortNameMin = 14

// shortNames is the key of short names for DBMS names: each name without
// the parts all of them share, the parts being what dots, underscores and
// dashes separate ("x.my5651_rel_o2nofp.z12a_c8r32.pk1" and
// "x.my8043_rel_o2nofp.z12a_c8r32.pk1" give "my5651" and "my8043"). It is
// nil when the names are too short to need it, when fewer than two, or
// when short names would not tell them apart.
//
// desc are the user's descriptions of codes and names (describe.<code>
// keys): each code in a key's words is followed by its description in
// parentheses, and a whole name's description ends its words.
func shortNames(names []string, desc map[string]string) []NameKey {
	names = uniqueNames(names)
	if len(names) < 2 || len(slices.MaxFunc(names, func(a, b string) int { return len(a) - len(b) })) < shortNameMin {
		return nil
	}
	if key := releaseNames(names, desc); key != nil {
		return key
	}
	short := shortByParts(names)
	seen := map[string]bool{}
	for _, s := range short {
		if s == "" || seen[s] {
			return nil
		}
		seen[s] = true
	}
	var key []NameKey
	for i, n := range names {
		if short[i] != n {
			key = append(key, NameKey{Short: short[i], Full: n, Words: desc[n]})
		}
	}
	return key
}

func uniqueNames(names []string) []string {
	var out []string
	for _, n := range names {
		if n != "" && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// splitName splits a name into its parts, each with the separator before
// it ("" for the first).
func splitName(n string) (parts, seps []string) {
	start, sep := 0, ""
	for i, r := range n {
		if r == '.' || r == '_' || r == '-' {
			parts, seps = append(parts, n[start:i]), append(seps, sep)
			start, sep = i+1, string(r)
		}
	}
	return append(parts, n[start:]), append(seps, sep)
}

// shortByParts drops the parts every name has at the same place when all
// names have as many parts; otherwise the parts they all start or end
// with.
func shortByParts(names []string) []string {
	parts := make([][]string, len(names))
	seps := make([][]string, len(names))
	same := true
	for i, n := range names {
		parts[i], seps[i] = splitName(n)
		same = same && len(parts[i]) == len(parts[0])
	}
	keep := func(j int) bool { // part j differs between the names
		for i := range names {
			if parts[i][j] != parts[0][j] || seps[i][j] != seps[0][j] {
				return true
			}
		}
		return false
	}
	out := make([]string, len(names))
	if same {
		for i := range names {
			var b strings.Builder
			for j := range parts[i] {
				if keep(j) {
					if b.Len() > 0 {
						b.WriteString(seps[i][j])
					}
					b.WriteString(parts[i][j])
				}
			}
			out[i] = b.String()
		}
		return out
	}
	// The parts every name has, wherever they are: an odd name with a
	// part more (x.ma120101_mdev16168_rel_withdbg.z12b…) keeps the others
	// from losing rel and withdbg.
	if d := dropShared(parts, seps); d != nil {
		return d
	}
	// Leading and trailing parts in common.
	lead, trail := len(parts[0]), len(parts[0])
	for i := range names {
		l := 0
		for l < len(parts[i]) && l < len(parts[0]) && parts[i][l] == parts[0][l] && (l == 0 || seps[i][l] == seps[0][l]) {
			l++
		}
		t := 0
		for t < len(parts[i]) && t < len(parts[0]) && parts[i][len(parts[i])-1-t] == parts[0][len(parts[0])-1-t] {
			t++
		}
		lead, trail = min(lead, l), min(trail, t)
	}
	for i := range names {
		lo, hi := lead, len(parts[i])-trail
		if lo >= hi {
			return names
		}
		var b strings.Builder
		for j := lo; j < hi; j++ {
			if j > lo {
				b.WriteString(seps[i][j])
			}
			b.WriteString(parts[i][j])
		}
		out[i] = b.String()
	}
	return out
}

// reportNames lists the DBMS a report compares, in order.
func (r *Report) reportNames() []string {
	names := append([]string(nil), r.DBMS...)
	if r.Sysbench != nil {
		names = append(names, r.Sysbench.DBMS...)
	}
	return uniqueNames(names)
}

// WithShortNames returns a copy of the report that names every DBMS by its
// short name in every text, table, chart and finding, with
// the key in Names; the report itself when no name is shortened or in
// compat mode, whose outputs keep the original's names. The JSON output
// is the report itself, with the full names: the human formats show the
// copy.
func (r *Report) WithShortNames() *Report {
	if r == nil || r.Compat || r.Names != nil {
		return r
	}
	key := shortNames(r.reportNames(), r.Descriptions)
	if len(key) == 0 {
		return r
	}
	// Longest names first, so that no name is replaced inside a longer one.
	slices.SortStableFunc(key, func(a, b NameKey) int { return len(b.Full) - len(a.Full) })
	pairs := make([]string, 0, 2*len(key))
	for _, k := range key {
		pairs = append(pairs, k.Full, k.Short)
	}
	rep := strings.NewReplacer(pairs...)
	shortest := len(key[len(key)-1].Full)
	rename := func(s string) string {
		if len(s) < shortest {
			return s // most strings of a model are numbers, too short to hold a name
		}
		return rep.Replace(s)
	}
	out := deepCopy(reflect.ValueOf(r), rename).Interface().(*Report)
	// The key in the order of the report.
	order := r.reportNames()
	slices.SortStableFunc(key, func(a, b NameKey) int {
		return slices.Index(order, a.Full) - slices.Index(order, b.Full)
	})
	out.Names = key
	return out
}

// deepCopy copies v, passing every string through f. Values that hold no
// string (numbers, and slices and structs of them: chart points, interval
// samples) are shared with v rather than copied: a built report is not
// changed after, and copying the points of the interval charts cost more
// than all the renaming.
func deepCopy(v reflect.Value, f func(string) string) reflect.Value {
	c := reflect.New(v.Type()).Elem()
	c.Set(v)
	renameIn(c, f)
	return c
}

// renameIn makes c, a settable shallow copy, a deep one, passing every
// string through f: what c points to is copied, what holds no string is
// left as it is.
func renameIn(c reflect.Value, f func(string) string) {
	switch c.Kind() {
	case reflect.String:
		if s := f(c.String()); s != c.String() {
			c.SetString(s)
		}
	case reflect.Pointer:
		if c.IsNil() {
			return
		}
		n := reflect.New(c.Type().Elem())
		n.Elem().Set(c.Elem())
		renameIn(n.Elem(), f)
		c.Set(n)
	case reflect.Interface:
		if c.IsNil() {
			return
		}
		n := reflect.New(c.Elem().Type()).Elem()
		n.Set(c.Elem())
		renameIn(n, f)
		c.Set(n)
	case reflect.Struct:
		for _, i := range textFields(c.Type()) {
			renameIn(c.Field(i), f)
		}
	case reflect.Slice:
		if c.IsNil() || plainType(c.Type().Elem()) {
			return
		}
		n := reflect.MakeSlice(c.Type(), c.Len(), c.Len())
		reflect.Copy(n, c)
		for i := 0; i < n.Len(); i++ {
			renameIn(n.Index(i), f)
		}
		c.Set(n)
	case reflect.Array:
		if plainType(c.Type().Elem()) {
			return
		}
		for i := 0; i < c.Len(); i++ {
			renameIn(c.Index(i), f)
		}
	case reflect.Map:
		if c.IsNil() {
			return
		}
		n := reflect.MakeMapWithSize(c.Type(), c.Len())
		it := c.MapRange()
		for it.Next() {
			n.SetMapIndex(deepCopy(it.Key(), f), deepCopy(it.Value(), f))
		}
		c.Set(n)
	}
}

// textFieldsOf caches textFields.
var textFieldsOf sync.Map // reflect.Type -> []int

// textFields are the fields of a struct type that renameIn visits: the
// exported ones that may hold a string or point to one. Unexported fields
// are kept as the shallow copy has them.
func textFields(t reflect.Type) []int {
	if fs, ok := textFieldsOf.Load(t); ok {
		return fs.([]int)
	}
	var fs []int
	for i := 0; i < t.NumField(); i++ {
		if t.Field(i).IsExported() && !plainType(t.Field(i).Type) {
			fs = append(fs, i)
		}
	}
	textFieldsOf.Store(t, fs)
	return fs
}

// plainTypes caches plainType; the model has a few dozen types.
var plainTypes sync.Map // reflect.Type -> bool

// plainType reports whether values of t hold no string, pointer, map or
// interface: numbers and booleans, and slices, arrays and structs of them
// (with exported fields only), which deepCopy shares instead of copying.
func plainType(t reflect.Type) bool {
	if p, ok := plainTypes.Load(t); ok {
		return p.(bool)
	}
	var p bool
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
		p = true
	case reflect.Array, reflect.Slice:
		p = plainType(t.Elem())
	case reflect.Struct:
		p = true
		for i := 0; i < t.NumField() && p; i++ {
			p = t.Field(i).IsExported() && plainType(t.Field(i).Type)
		}
	}
	plainTypes.Store(t, p)
	return p
}

// dropShared drops from each name the parts all names hold, wherever they
// are; nil when that leaves a name empty or two names alike.
func dropShared(parts, seps [][]string) []string {
	count := func(p []string, x string) int {
		n := 0
		for _, y := range p {
			if y == x {
				n++
			}
		}
		return n
	}
	shared := map[string]int{} // part: how often every name holds it
	for _, x := range parts[0] {
		m := count(parts[0], x)
		for _, p := range parts[1:] {
			m = min(m, count(p, x))
		}
		if m > 0 {
			shared[x] = m
		}
	}
	out := make([]string, len(parts))
	seen := map[string]bool{}
	for i := range parts {
		left := maps.Clone(shared)
		var b strings.Builder
		for j, x := range parts[i] {
			if left[x] > 0 {
				left[x]--
				continue
			}
			if b.Len() > 0 {
				b.WriteString(seps[i][j])
			}
			b.WriteString(x)
		}
		out[i] = b.String()
		if out[i] == "" || seen[out[i]] {
			return nil
		}
		seen[out[i]] = true
	}
	return out
}

// releaseNames is the key of names that read as one DBMS's releases of
// at least two versions: each by its version, with its config when the
// names have several and its own build parts ("10.5.6", "10.5.6 z12b",
// "12.1.1 z12b ahi1"), and what it holds in words. Nil otherwise, or when
// two builds would share a label.
func releaseNames(names []string, desc map[string]string) []NameKey {
	rs := releasesOf(names)
	if rs == nil {
		return nil
	}
	versions := map[string]bool{}
	seen := map[string]bool{}
	var key []NameKey
	for _, r := range rs.Rels {
		versions[r.Version.String()] = true
		l := rs.Label(r)
		if seen[l] {
			return nil
		}
		seen[l] = true
		w := r.DBMS() + " " + r.Version.String()
		if r.Config != "" {
			w += ", config " + described(r.Config, desc)
		}
		if len(r.Flavour) > 0 {
			parts := make([]string, len(r.Flavour))
			for i, f := range r.Flavour {
				parts[i] = described(f, desc)
			}
			w += ", build " + strings.Join(parts, " ")
		}
		if r.Host != "" {
			// c8r32 is the my.cnf size class (8 CPUs, 32 GB), not a
			// host: hosts of one class carry the same suffix.
			w += ", size class " + described(r.Host, desc)
		}
		if d := desc[r.Name]; d != "" {
			w += "; " + d
		}
		key = append(key, NameKey{Short: l, Full: r.Name, Words: w})
	}
	if len(versions) < 2 {
		return nil
	}
	return key
}
