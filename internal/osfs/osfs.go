package osfs

import (
	"io/fs"
	"os"
)

// FS is an os.DirFS whose Open skips the poller's setup.
type FS struct {
	dir string
	os  fs.FS // os.DirFS(dir), for everything but Open
}

// Dir returns the file system of the files under dir, as os.DirFS(dir).
func Dir(dir string) FS { return FS{dir: dir, os: os.DirFS(dir)} }

// Open opens name as os.DirFS does, with the same errors.
func (d FS) Open(name string) (fs.File, error) {
	if d.os == nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	if !fast || !fs.ValidPath(name) {
		return d.os.Open(name)
	}
	f, err := open(d.dir + "/" + name)
	if err != nil {
		return d.os.Open(name) // the error os.DirFS gives, or a retry
	}
	return f, nil
}

// OpenRegular opens name when it is a regular file. Otherwise it opens
// nothing (on Linux it opens without blocking, looks and closes) and
// returns the FileInfo of what is there, so that the caller can say what
// it is; a folder is not opened either. The errors are os.DirFS's Open's.
func (d FS) OpenRegular(name string) (fs.File, fs.FileInfo, error) {
	if d.os == nil || !fs.ValidPath(name) {
		return nil, nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	return d.openRegular(name)
}

// Stat is os.DirFS's.
func (d FS) Stat(name string) (fs.FileInfo, error) {
	if d.os == nil {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrInvalid}
	}
	return fs.Stat(d.os, name)
}

// ReadDir is os.DirFS's.
func (d FS) ReadDir(name string) ([]fs.DirEntry, error) {
	if d.os == nil {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrInvalid}
	}
	return fs.ReadDir(d.os, name)
}

// ReadFile is os.DirFS's.
func (d FS) ReadFile(name string) ([]byte, error) {
	if d.os == nil {
		return nil, &fs.PathError{Op: "readfile", Path: name, Err: fs.ErrInvalid}
	}
	return fs.ReadFile(d.os, name)
}

// ReadLink is os.DirFS's.
func (d FS) ReadLink(name string) (string, error) {
	if d.os == nil {
		return "", &fs.PathError{Op: "readlink", Path: name, Err: fs.ErrInvalid}
	}
	return fs.ReadLink(d.os, name)
}

// Lstat is os.DirFS's.
func (d FS) Lstat(name string) (fs.FileInfo, error) {
	if d.os == nil {
		return nil, &fs.PathError{Op: "lstat", Path: name, Err: fs.ErrInvalid}
	}
	return fs.Lstat(d.os, name)
}
