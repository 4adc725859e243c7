package report

import (
	"bytes"
	"sort"

	"github.com/ibreport/ibreport/internal/fsout"
)

// File is one output file: a name relative to the output folder and its
// complete content.
type File = fsout.File

// fileSet collects output files by name.
type fileSet struct {
	files map[string]*bytes.Buffer
	order []string
}

func newFileSet() *fileSet { return &fileSet{files: map[string]*bytes.Buffer{}} }

// line appends one line (and a newline) to the named file.
func (fs *fileSet) line(name string, lines ...string) {
	b, ok := fs.files[name]
	if !ok {
		b = &bytes.Buffer{}
		fs.files[name] = b
		fs.order = append(fs.order, name)
	}
	for _, l := range lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
}

// touch creates the named file, empty if nothing is written to it.
func (fs *fileSet) touch(name string) { fs.line(name) }

// Files returns the files sorted by name.
func (fs *fileSet) Files() []File {
	names := append([]string(nil), fs.order...)
	sort.Strings(names)
	out := make([]File, 0, len(names))
	for _, n := range names {
		out = append(out, File{Name: n, Data: fs.files[n].Bytes()})
	}
	return out
}
