package report

import (
	"fmt"
	"io"
	"io/fs"

	"github.com/ibreport/ibreport/internal/inputerr"
	"github.com/ibreport/ibreport/parse"
)

// maxInputFile bounds the bytes read of any one file of a results folder.
// The largest benchmark output seen (an iostat log of a day's run) is a few
// hundred megabytes; a file that goes on past this is no output of a run
// but something that never ends (a fs.FS serving a stream, a log still
// being written by a runaway process), which would otherwise hold the run
// forever. It is a variable for the tests.
var maxInputFile int64 = 1 << 30

// limitFS ends every file of an FS at maxInputFile bytes with an error that
// names it and is bad input.
type limitFS struct{ fs.FS }

func (l limitFS) Open(name string) (fs.File, error) {
	f, err := l.FS.Open(name)
	if err != nil {
		return nil, err
	}
	return &limitFile{File: f, name: name, left: maxInputFile}, nil
}

// OpenRegular passes parse.RegularFS on.
func (l limitFS) OpenRegular(name string) (fs.File, error) {
	f, err := parse.OpenRegular(l.FS, name)
	if err != nil {
		return nil, err
	}
	return &limitFile{File: f, name: name, left: maxInputFile}, nil
}

// ReadDir and Stat pass through, so that walking the folder costs no file
// opens.
func (l limitFS) ReadDir(name string) ([]fs.DirEntry, error) { return fs.ReadDir(l.FS, name) }
func (l limitFS) Stat(name string) (fs.FileInfo, error)      { return fs.Stat(l.FS, name) }

type limitFile struct {
	fs.File
	name string
	left int64
}

func (f *limitFile) Read(b []byte) (int, error) {
	if f.left <= 0 {
		// One byte more tells a file of exactly the limit from a longer one.
		var one [1]byte
		if n, err := f.File.Read(one[:]); n == 0 && err == io.EOF {
			return 0, io.EOF
		}
		return 0, inputerr.Errorf("%s: more than %s; no benchmark output is that large (a file that never ends?); not read further", f.name, sizeText(maxInputFile))
	}
	if int64(len(b)) > f.left {
		b = b[:f.left]
	}
	n, err := f.File.Read(b)
	f.left -= int64(n)
	return n, err
}

// ReadDir lets a folder be listed.
func (f *limitFile) ReadDir(n int) ([]fs.DirEntry, error) {
	if d, ok := f.File.(fs.ReadDirFile); ok {
		return d.ReadDir(n)
	}
	return nil, &fs.PathError{Op: "readdir", Path: f.name, Err: fs.ErrInvalid}
}

// sizeText prints a limit in GiB or MiB.
func sizeText(n int64) string {
	if n >= 1<<30 && n%(1<<30) == 0 {
		return fmt.Sprintf("%d GiB", n>>30)
	}
	return fmt.Sprintf("%d MiB", n>>20)
}
