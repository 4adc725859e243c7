package report

import (
	"io"
	"io/fs"
	"sync/atomic"

	"github.com/ibreport/ibreport/parse"
)

// Progress counts what Load has read so far, for a progress display. Load
// updates it from several goroutines; read it with Bytes.Load and
// Files.Load.
type Progress struct {
	Bytes atomic.Int64 // bytes read from the results folder
	Files atomic.Int64 // files opened
}

// countingFS counts the bytes read through it.
type countingFS struct {
	fs.FS
	p *Progress
}

func (c countingFS) Open(name string) (fs.File, error) {
	f, err := c.FS.Open(name)
	if err != nil {
		return nil, err
	}
	c.p.Files.Add(1)
	return &countingFile{File: f, p: c.p}, nil
}

// OpenRegular passes parse.RegularFS on.
func (c countingFS) OpenRegular(name string) (fs.File, error) {
	f, err := parse.OpenRegular(c.FS, name)
	if err != nil {
		return nil, err
	}
	c.p.Files.Add(1)
	return &countingFile{File: f, p: c.p}, nil
}

// ReadDir and Stat pass through, so that walking the folder costs no file
// opens.
func (c countingFS) ReadDir(name string) ([]fs.DirEntry, error) { return fs.ReadDir(c.FS, name) }
func (c countingFS) Stat(name string) (fs.FileInfo, error)      { return fs.Stat(c.FS, name) }

type countingFile struct {
	fs.File
	p *Progress
}

func (f *countingFile) Read(b []byte) (int, error) {
	n, err := f.File.Read(b)
	f.p.Bytes.Add(int64(n))
	return n, err
}

// ReadDir lets a counted directory be listed.
func (f *countingFile) ReadDir(n int) ([]fs.DirEntry, error) {
	if d, ok := f.File.(fs.ReadDirFile); ok {
		return d.ReadDir(n)
	}
	return nil, &fs.PathError{Op: "readdir", Err: fs.ErrInvalid}
}

var _ io.Reader = (*countingFile)(nil)
