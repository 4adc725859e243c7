package parse

import (
	"errors"
	"io/fs"
)

// errNoInput is the error of a read from a nil io.Reader or a nil fs.FS:
// a program that passes one gets an error to report, not a panic.
var errNoInput = errors.New("nil reader or file system")

// noInput stands for a nil io.Reader or fs.FS: every read and open fails
// with errNoInput.
type noInput struct{}

func (noInput) Read([]byte) (int, error) { return 0, errNoInput }

func (noInput) Open(name string) (fs.File, error) {
	return nil, &fs.PathError{Op: "open", Path: name, Err: errNoInput}
}

// orNoInput returns fsys, or noInput for a nil one.
func orNoInput(fsys fs.FS) fs.FS {
	if fsys == nil {
		return noInput{}
	}
	return fsys
}
