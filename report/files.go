package report

import (
	"bytes"
	"sort"

	"github.com/ibreport/ibreport/internal/fsout"
)

// File is one output file: a name relative to the output folder and its
// complete content.
type File = fsout.File

// FileSet collects output files by name.
type FileSet struct {
	files map[string]*bytes.Buffer
	order []string
}

func newFileSet() *FileSet { return &FileSet{files: map[string]*bytes.Buffer{}} }

// line appends one line (and a newline) to the named file.
func (fs *FileSet) line(name string, lines ...string) {
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
func (fs *FileSet) touch(name string) { fs.line(name) }

// Files returns the files sorted by name.
func (fs *FileSet) Files() []File {
	names := append([]string(nil), fs.order...)
	sort.Strings(names)
	out := make([]File, 0, len(names))
	for _, n := range names {
		out = append(out, File{Name: n, Data: fs.files[n].Bytes()})
	}
	return out
}
