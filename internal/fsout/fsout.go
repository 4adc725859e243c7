package fsout

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// File is one output file: a name relative to the output folder and its
// complete content.
type File struct {
	Name string
	Data []byte
}

// Manifest is the file a folder written by WriteFiles lists its files in.
// A folder that holds one is a set ibreport wrote and may be replaced; any
// other non-empty folder is refused, and so is a set that holds anything
// its manifest does not list.
const Manifest = ".ibreport-files"

// WriteFiles is WriteFilesContext without a context.
func WriteFiles(dir string, files []File) error {
	return WriteFilesContext(context.Background(), dir, files)
}

// WriteFilesContext writes a complete set of files as the folder dir:
// OpenDir (with no inputs), Write and Close. A run that reads inputs opens
// the folder before it computes, so that a refusal comes first.
func WriteFilesContext(ctx context.Context, dir string, files []File) error {
	d, err := OpenDir(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Write(ctx, files)
}

// swapIn puts the folder tmp in place of dir: a rename when dir does not
// exist, else an exchange of the two (atomic where the system has one),
// after which tmp holds the old set and is removed.
func swapIn(tmp, dir string) error {
	if _, err := os.Lstat(dir); errors.Is(err, fs.ErrNotExist) {
		return os.Rename(tmp, dir)
	}
	if err := exchange(tmp, dir); err != nil {
		return err
	}
	return os.RemoveAll(tmp)
}

// CheckOutputFile refuses an output file (-o) that would destroy something:
// anything but a regular file or a missing path (a device, a link, a
// FIFO, a folder), and a file that is or is inside one of the inputs of
// the run (the results folder, a list or settings file), or is reached
// from them through symbolic links (checkInputs). inputs are files or
// folders. A new file is never an input. Refusals wrap ErrRefused.
func CheckOutputFile(name string, inputs ...string) error {
	st, err := os.Lstat(name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return err
	case st.Mode()&fs.ModeSymlink != 0:
		return refuse("%s is a symbolic link; ibreport writes only regular files", name)
	case !st.Mode().IsRegular():
		return refuse("%s is not a regular file (%s); ibreport writes only regular files", name, st.Mode().Type())
	}
	return checkInputs(name, st, inputs)
}

// CheckOutputFolder returns an error naming name when the folder it
// would be written in is not there (or is a file): checked before the
// work, a missing folder does not waste it. The error is one of writing,
// not of usage: WriteFile would fail the same way.
func CheckOutputFolder(name string) error {
	dir := filepath.Dir(name)
	st, err := os.Stat(dir)
	switch {
	case err != nil:
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return fmt.Errorf("%s: folder %s: %w", name, dir, err)
	case !st.IsDir():
		return fmt.Errorf("%s: %s is not a folder", name, dir)
	}
	return nil
}

// WriteFile is WriteFileContext without a context.
func WriteFile(name string, data []byte) error {
	return WriteFileContext(context.Background(), name, data)
}

// WriteFileContext writes one file atomically: to a temporary file in the
// same directory (".NAME.tmp" and digits), renamed into place when
// complete. When ctx is done before the rename, the temporary file is
// removed and ctx's error returned. The temporaries of NAME that a killed
// run left are removed first; the run holds an flock on its own while it
// writes, so that only those whose owner is gone are (see removeStaleTemps).
func WriteFileContext(ctx context.Context, name string, data []byte) error {
	dir, base := split(filepath.Clean(name))
	prefix := "." + base + ".tmp"
	removeStaleTemps(dir, prefix)
	tmp, err := createLocked(dir, prefix)
	if err != nil {
		// The error names the temporary file; the user named name.
		var pe *fs.PathError
		if errors.As(err, &pe) {
			return &fs.PathError{Op: pe.Op, Path: name, Err: pe.Err}
		}
		return err
	}
	fail := func(err error) error {
		os.Remove(tmp.Name())
		tmp.Close()
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		return fail(err)
	}
	if err := tmp.Chmod(0o644); err != nil {
		return fail(err)
	}
	if err := ctx.Err(); err != nil {
		return fail(err)
	}
	if err := os.Rename(tmp.Name(), name); err != nil {
		return fail(err)
	}
	// Closing releases the lock, after the rename: the temporary's name
	// is never free while it holds data.
	return tmp.Close()
}

// createLocked creates a temporary file named prefix and digits in dir and
// takes its flock. A run removing stale temporaries may have taken the lock
// first, between the creation and the lock, and removed the file: then
// another is made (a few times: only a run that keeps removing fresh
// temporaries could make them all go).
func createLocked(dir, prefix string) (*os.File, error) {
	for range 10 {
		f, err := os.CreateTemp(dir, prefix+"*")
		if err != nil {
			return nil, err
		}
		if _, err := lockFile(f, true); err != nil && !errors.Is(err, errNoLock) {
			os.Remove(f.Name())
			f.Close()
			return nil, err
		}
		if sameFileAt(f, f.Name()) {
			return f, nil
		}
		f.Close()
	}
	return nil, fmt.Errorf("%s: the temporary files for %s* keep disappearing", dir, prefix)
}

// removeStaleTemps removes the temporary files (prefix and digits) in dir
// whose writer is gone: a live writer holds its file's flock, which the
// kernel releases when the writer dies, however it dies (SIGKILL, a
// crash, the machine's reset). A lock is sounder than a process id in the
// name: ids are reused, and mean nothing to a run in another PID namespace
// or on another host sharing the folder. Where there is no flock, nothing
// is removed.
func removeStaleTemps(dir, prefix string) {
	if !canLock {
		return
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		rest, ok := strings.CutPrefix(e.Name(), prefix)
		if !ok || !digits(rest) || !e.Type().IsRegular() {
			continue
		}
		p := filepath.Join(dir, e.Name())
		f, err := openNoFollow(p, os.O_RDWR)
		if err != nil {
			continue
		}
		if ok, err := lockFile(f, false); ok && err == nil && sameFileAt(f, p) {
			os.Remove(p)
		}
		f.Close()
	}
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
