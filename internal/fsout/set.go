package fsout

import (
	"bytes"
	"sort"
)

// Set collects output files in memory, line by line and by name, until
// they are written whole.
type Set struct {
	files map[string]*bytes.Buffer
	order []string
}

// NewSet returns an empty set.
func NewSet() *Set { return &Set{files: map[string]*bytes.Buffer{}} }

// Line appends lines (each with a newline) to the named file, created on
// first use.
func (s *Set) Line(name string, lines ...string) {
	b, ok := s.files[name]
	if !ok {
		b = &bytes.Buffer{}
		s.files[name] = b
		s.order = append(s.order, name)
	}
	for _, l := range lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
}

// Touch creates the named file, empty if nothing is written to it.
func (s *Set) Touch(name string) { s.Line(name) }

// Files returns the files sorted by name.
func (s *Set) Files() []File {
	names := append([]string(nil), s.order...)
	sort.Strings(names)
	out := make([]File, 0, len(names))
	for _, n := range names {
		out = append(out, File{Name: n, Data: s.files[n].Bytes()})
	}
	return out
}

// Put adds the named file with data unless the set has it already, and
// reports whether it did.
func (s *Set) Put(name string, data []byte) bool {
	if _, ok := s.files[name]; ok {
		return false
	}
	s.files[name] = bytes.NewBuffer(append([]byte(nil), data...))
	s.order = append(s.order, name)
	return true
}
