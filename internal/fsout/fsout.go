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
// other non-empty folder is refused.
const Manifest = ".ibreport-files"

// WriteFiles is WriteFilesContext without a context.
func WriteFiles(dir string, files []File) error {
	return WriteFilesContext(context.Background(), dir, files)
}

// WriteFilesContext writes a complete set of files as the folder dir: first
// into a new hidden folder beside it, then swapped in whole, so that dir is
// always either the previous complete set or the new one, whenever the run
// stops. Files of an earlier set that the new one does not have are gone.
// A name may hold folders ("x.pg15.c1.pk1/sb.met.…"), created too; "." and
// ".." are refused. dir must be missing, empty or an earlier set (it holds
// the Manifest): a folder with other files is refused, so that no file of
// the user's is lost. When ctx is done before the swap, the new folder is
// removed and ctx's error returned. Hidden folders left by a killed run are
// removed.
func WriteFilesContext(ctx context.Context, dir string, files []File) error {
	dir = filepath.Clean(dir)
	if err := checkOutputDir(dir); err != nil {
		return err
	}
	parent, base := filepath.Split(dir)
	if parent == "" {
		parent = "."
	}
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	removeStale(parent, "."+base+".ibreport-")
	tmp, err := os.MkdirTemp(parent, "."+base+".ibreport-")
	if err != nil {
		return err
	}
	done := false
	defer func() {
		if !done {
			os.RemoveAll(tmp)
		}
	}()
	if err := os.Chmod(tmp, 0o755); err != nil {
		return err
	}
	var names []string
	for _, f := range files {
		if err := ctx.Err(); err != nil {
			return err
		}
		if !validName(f.Name) || f.Name == Manifest {
			return fmt.Errorf("output name %q is not a plain file name", f.Name)
		}
		p := filepath.Join(tmp, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			return err
		}
		names = append(names, f.Name)
	}
	// The manifest is written last: a folder with it is complete.
	if err := os.WriteFile(filepath.Join(tmp, Manifest), []byte(strings.Join(names, "\n")+"\n"), 0o644); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := swapIn(tmp, dir); err != nil {
		return err
	}
	done = true
	return nil
}

// checkOutputDir refuses an output folder that is not a folder, is a
// link, or holds files of the user's.
func checkOutputDir(dir string) error {
	st, err := os.Lstat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return err
	case st.Mode()&fs.ModeSymlink != 0:
		return fmt.Errorf("%s is a symbolic link; give the folder itself", dir)
	case !st.IsDir():
		return fmt.Errorf("%s is not a folder", dir)
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	if len(ents) == 0 {
		return nil
	}
	if _, err := os.Stat(filepath.Join(dir, Manifest)); err != nil {
		return fmt.Errorf("%s holds files ibreport did not write (it has no %s); give a new or empty folder", dir, Manifest)
	}
	return nil
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

// removeStale removes the hidden folders and files a killed run left in
// dir (their names start with prefix).
func removeStale(dir, prefix string) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), prefix) {
			os.RemoveAll(filepath.Join(dir, e.Name()))
		}
	}
}

// CheckOutputFile refuses an output file (-o) that would destroy something:
// anything but a regular file or a missing path (a device, a link, a
// FIFO, a folder), and a file inside one of the inputs of the run (the
// results folder, a list or settings file). inputs are files or folders.
func CheckOutputFile(name string, inputs ...string) error {
	st, err := os.Lstat(name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil // a new file is never an input
	case err != nil:
		return err
	case st.Mode()&fs.ModeSymlink != 0:
		return fmt.Errorf("%s is a symbolic link; ibreport writes only regular files", name)
	case !st.Mode().IsRegular():
		return fmt.Errorf("%s is not a regular file (%s); ibreport writes only regular files", name, st.Mode().Type())
	}
	for _, in := range inputs {
		if ist, err := os.Stat(in); err == nil && os.SameFile(st, ist) {
			return fmt.Errorf("%s is an input of this run; write the output elsewhere", name)
		}
	}
	return checkNotInside(name, inputs)
}

// checkNotInside refuses an existing file inside one of the input
// folders: it may be one of the files the run reads.
func checkNotInside(name string, inputs []string) error {
	abs, err := filepath.Abs(name)
	if err != nil {
		return err
	}
	for _, in := range inputs {
		st, err := os.Stat(in)
		if err != nil || !st.IsDir() {
			continue
		}
		root, err := filepath.Abs(in)
		if err != nil {
			continue
		}
		if rel, err := filepath.Rel(root, abs); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return fmt.Errorf("%s is inside %s, the results being read; write the output elsewhere", name, in)
		}
	}
	return nil
}

// WriteFile is WriteFileContext without a context.
func WriteFile(name string, data []byte) error {
	return WriteFileContext(context.Background(), name, data)
}

// WriteFileContext writes one file atomically: to a temporary file in the
// same directory, renamed into place when complete. When ctx is done before
// the rename, the temporary file is removed and ctx's error returned.
func WriteFileContext(ctx context.Context, name string, data []byte) error {
	dir, base := filepath.Split(name)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, "."+base+".tmp*")
	if err != nil {
		return err
	}
	fail := func(err error) error {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		return fail(err)
	}
	if err := tmp.Close(); err != nil {
		return fail(err)
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return fail(err)
	}
	if err := ctx.Err(); err != nil {
		return fail(err)
	}
	if err := os.Rename(tmp.Name(), name); err != nil {
		return fail(err)
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
