//go:build !linux

package osfs

import (
	"io/fs"
	"os"
)

const fast = false

func open(path string) (*os.File, error) { return os.Open(path) }

// openRegular is OpenRegular where no non-blocking open is at hand: a
// FIFO is told by a look before the open, and not opened.
func (d FS) openRegular(name string) (fs.File, fs.FileInfo, error) {
	fi, err := fs.Stat(d.os, name)
	if err != nil || !fi.Mode().IsRegular() {
		return nil, fi, err
	}
	f, err := d.os.Open(name)
	if err != nil {
		return nil, nil, err
	}
	return f, fi, nil
}
