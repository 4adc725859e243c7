//go:build !linux

package osfs

import (
	"io/fs"
	"os"
)

const fast = false

func open(path string) (*os.File, error) { return os.Open(path) }

// openRegular is not used where fast is false.
func openRegular(full, name string) (fs.File, fs.FileInfo, error) {
	return nil, nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
}
