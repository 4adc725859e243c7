package parse

import (
	"io/fs"
	"os"
	"path"
)

// isDir reports whether the entry e of folder dir is a folder, following a
// symbolic link (result trees are often collected in a folder of links).
func isDir(fsys fs.FS, dir string, e fs.DirEntry) bool {
	if e.IsDir() {
		return true
	}
	if e.Type()&fs.ModeSymlink == 0 {
		return false
	}
	fi, err := fs.Stat(fsys, path.Join(dir, e.Name()))
	return err == nil && fi.IsDir()
}

// entryInfo is the FileInfo of entry e of folder dir, that of the target
// for a symbolic link.
func entryInfo(fsys fs.FS, dir string, e fs.DirEntry) (fs.FileInfo, error) {
	if e.Type()&fs.ModeSymlink != 0 {
		return fs.Stat(fsys, path.Join(dir, e.Name()))
	}
	return e.Info()
}

// ancestors are the folders of the path a walk is in, so that a symbolic
// link back to one of them (a loop) is not followed. Folders are told apart
// as os.SameFile does, for file systems whose Stat gives the operating
// system's file information (os.DirFS); others have no links.
type ancestors struct {
	fsys  fs.FS
	stack []fs.FileInfo
}

// enter reports whether folder p is not one of the ancestors and, if so,
// makes it the innermost one; leave undoes it.
func (a *ancestors) enter(p string) bool {
	fi, err := fs.Stat(orNoInput(a.fsys), p)
	if err != nil {
		fi = nil // unreadable: the walk reports it
	}
	for _, s := range a.stack {
		if fi != nil && os.SameFile(s, fi) {
			return false
		}
	}
	a.stack = append(a.stack, fi)
	return true
}

func (a *ancestors) leave() { a.stack = a.stack[:len(a.stack)-1] }

// FolderSize is the total size of the regular files under dir, found as the
// readers find them: symbolic links are followed, a loop is not.
func FolderSize(fsys fs.FS, dir string) int64 {
	fsys = orNoInput(fsys)
	a := &ancestors{fsys: fsys}
	var walk func(p string) int64
	walk = func(p string) int64 {
		if !a.enter(p) {
			return 0
		}
		defer a.leave()
		ents, err := fs.ReadDir(fsys, p)
		if err != nil {
			return 0
		}
		var total int64
		for _, e := range ents {
			if isDir(fsys, p, e) {
				total += walk(path.Join(p, e.Name()))
			} else if fi, err := entryInfo(fsys, p, e); err == nil && fi.Mode().IsRegular() {
				total += fi.Size()
			}
		}
		return total
	}
	return walk(dir)
}
