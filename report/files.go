package report

import (
	"bytes"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// File is one output file: a name relative to the output directory and its
// complete content.
type File struct {
	Name string
	Data []byte
}

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

// WriteFiles writes every file into dir, creating dir when needed. A name
// may hold one or more folders ("x.pg15.c1.pk1/sb.met.…", for the per-DBMS
// sysbench files), created too; "." and ".." are refused. Each file is
// written to a temporary name beside its final one and renamed into place
// only after all of them were written, so an error never leaves a partial
// file behind.
func WriteFiles(dir string, files []File) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var temps []string
	cleanup := func() {
		for _, t := range temps {
			os.Remove(t)
		}
	}
	for _, f := range files {
		if !validName(f.Name) {
			cleanup()
			return fmt.Errorf("output name %q is not a plain file name", f.Name)
		}
		sub := filepath.Join(dir, filepath.FromSlash(path.Dir(f.Name)))
		if err := os.MkdirAll(sub, 0o755); err != nil {
			cleanup()
			return err
		}
		tmp, err := os.CreateTemp(sub, "."+path.Base(f.Name)+".tmp*")
		if err != nil {
			cleanup()
			return err
		}
		temps = append(temps, tmp.Name())
		if _, err := tmp.Write(f.Data); err != nil {
			tmp.Close()
			cleanup()
			return err
		}
		if err := tmp.Close(); err != nil {
			cleanup()
			return err
		}
	}
	for i, f := range files {
		if err := os.Rename(temps[i], filepath.Join(dir, filepath.FromSlash(f.Name))); err != nil {
			cleanup()
			return err
		}
	}
	return nil
}

// WriteFile writes one file atomically: to a temporary file in the same
// directory, renamed into place when complete.
func WriteFile(name string, data []byte) error {
	dir, base := filepath.Split(name)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, "."+base+".tmp*")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Rename(tmp.Name(), name); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return nil
}

// validName accepts slash-separated names whose every element is a plain
// file name.
func validName(name string) bool {
	if name == "" {
		return false
	}
	for _, e := range strings.Split(name, "/") {
		if e == "" || e == "." || e == ".." || strings.ContainsAny(e, `\`) {
			return false
		}
	}
	return true
}
