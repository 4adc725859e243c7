package fsout

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// Dir is an output folder checked and locked for one run, so that every
// refusal comes before the run computes anything and no other ibreport
// writes the folder (or removes its temporary folder) until Close.
type Dir struct {
	dir      string   // as given, for messages
	path     string   // absolute: "." has a parent to build beside
	lock     *os.File // nil where there is no flock
	lockName string
	made     string // the outermost folder OpenDir created, "" for none
	written  bool
	close    sync.Once
}

// lockSuffix ends the name of the lock file beside an output folder. It
// does not match the temporary folders' pattern, which removeStale removes.
const lockSuffix = ".ibreport.lock"

// OpenDir checks that a set of files may be written as the folder dir by a
// run that reads inputs, and locks it. dir must be missing, empty or an
// earlier set holding nothing its Manifest does not list, and must not be,
// hold or be inside an input (checkInputs). Another run holding the lock
// is a refusal too: the second of two runs writing one folder fails at
// once rather than waiting, since its set would silently replace the
// first's. Refusals wrap ErrRefused. The lock is a file beside dir,
// removed by Close.
func OpenDir(dir string, inputs ...string) (*Dir, error) {
	dir = filepath.Clean(dir)
	st, err := checkDirShape(dir)
	if err != nil {
		return nil, err
	}
	if st != nil {
		if err := checkInputs(dir, st, inputs); err != nil {
			return nil, err
		}
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	parent, base := split(abs)
	d := &Dir{dir: dir, path: abs, made: missingFrom(parent)}
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, err
	}
	if err := d.takeLock(parent, base); err != nil {
		d.Close()
		return nil, err
	}
	// A run that held the lock until now may have changed the folder.
	if _, err := checkDirShape(dir); err != nil {
		d.Close()
		return nil, err
	}
	// With the lock held, a temporary folder of dir is a killed run's.
	removeStale(parent, base)
	return d, nil
}

// takeLock takes the lock file of the folder base in parent. A holder
// removes the file before it releases it, so a lock taken on a file no
// longer at that name is taken again on the new one.
func (d *Dir) takeLock(parent, base string) error {
	if !canLock {
		return nil
	}
	name := filepath.Join(parent, "."+base+lockSuffix)
	for range 3 {
		f, err := openNoFollow(name, os.O_RDWR|os.O_CREATE)
		if err != nil {
			return err
		}
		ok, err := lockFile(f, false)
		if errors.Is(err, errNoLock) {
			// A file system without flock: the folder is written
			// unlocked, as where there is no flock at all.
			os.Remove(name)
			f.Close()
			return nil
		}
		if err != nil {
			f.Close()
			return err
		}
		if !ok {
			f.Close()
			break
		}
		if sameFileAt(f, name) {
			d.lock, d.lockName = f, name
			return nil
		}
		f.Close()
	}
	return refuse("another ibreport is writing %s (it holds %s); wait until it is done or give another folder", d.dir, name)
}

// Close releases the lock and, when nothing was written, removes the
// folders OpenDir created. It may be called more than once, and from a
// signal handler about to exit while the run has not started to Write.
func (d *Dir) Close() {
	d.close.Do(func() {
		if d.lock != nil {
			os.Remove(d.lockName) // before the release: see takeLock
			d.lock.Close()
		}
		if !d.written && d.made != "" {
			for p := filepath.Dir(d.path); ; p = filepath.Dir(p) {
				if os.Remove(p) != nil || p == d.made {
					break
				}
			}
		}
	})
}

// Write writes a complete set of files as the folder: first into a new
// hidden folder beside it, then swapped in whole, so that the folder is
// always either the previous complete set or the new one, whenever the run
// stops. Files of an earlier set that the new one does not have are gone.
// A name may hold folders ("x.pg15.c1.pk1/sb.met.…"), created too; "." and
// ".." are refused. When ctx is done before the swap, the new folder is
// removed and ctx's error returned.
func (d *Dir) Write(ctx context.Context, files []File) error {
	parent, base := split(d.path)
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
	// The user may have put a file in the folder while the run computed.
	if _, err := checkDirShape(d.dir); err != nil {
		return err
	}
	if err := swapIn(tmp, d.path); err != nil {
		return err
	}
	done = true
	d.written = true
	return nil
}

// checkDirShape refuses an output folder that is not a folder, is a link,
// or holds anything that its Manifest does not list (or that has none): a
// file or folder of the user's, never to be deleted. It returns the
// folder's Lstat, nil when it does not exist.
func checkDirShape(dir string) (fs.FileInfo, error) {
	st, err := os.Lstat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case err != nil:
		return nil, err
	case st.Mode()&fs.ModeSymlink != 0:
		return nil, refuse("%s is a symbolic link; give the folder itself", dir)
	case !st.IsDir():
		return nil, refuse("%s is not a folder", dir)
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	if len(ents) == 0 {
		return st, nil
	}
	if m, err := os.Lstat(filepath.Join(dir, Manifest)); err != nil || !m.Mode().IsRegular() {
		return nil, refuse("%s holds files ibreport did not write (it has no %s); give a new or empty folder", dir, Manifest)
	}
	foreign, err := unlisted(dir)
	if err != nil {
		return nil, err
	}
	if len(foreign) > 0 {
		const shown = 5
		list := strings.Join(foreign[:min(len(foreign), shown)], ", ")
		if len(foreign) > shown {
			list += fmt.Sprintf(" and %d more", len(foreign)-shown)
		}
		return nil, refuse("%s holds what ibreport did not write (not listed in its %s): %s; move it away or give another folder", dir, Manifest, list)
	}
	return st, nil
}

// unlisted returns, in walk order, the names (slash-separated, folders
// with a trailing slash) of what dir holds that its Manifest does not list:
// a file not named in it, a folder no name in it is inside.
func unlisted(dir string) ([]string, error) {
	m, err := os.ReadFile(filepath.Join(dir, Manifest))
	if err != nil {
		return nil, err
	}
	files := map[string]bool{Manifest: true}
	folders := map[string]bool{}
	for _, name := range strings.Split(string(m), "\n") {
		if !validName(name) {
			continue
		}
		files[name] = true
		for p := name; strings.Contains(p, "/"); {
			p = p[:strings.LastIndex(p, "/")]
			folders[p] = true
		}
	}
	var out []string
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == dir {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		switch {
		case d.IsDir() && folders[rel]:
			return nil
		case d.IsDir():
			out = append(out, rel+"/")
			return filepath.SkipDir
		case !files[rel]:
			out = append(out, rel)
		}
		return nil
	})
	return out, err
}

// removeStale removes what a killed run left beside the folder base in
// dir: its temporary folders ("."+base+".ibreport-" and MkdirTemp's
// digits, with ".old" after a two-rename exchange). The exact pattern keeps
// those of other outputs whose names start alike.
func removeStale(dir, base string) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	prefix := "." + base + ".ibreport-"
	for _, e := range ents {
		if rest, ok := strings.CutPrefix(e.Name(), prefix); ok && digits(strings.TrimSuffix(rest, ".old")) {
			os.RemoveAll(filepath.Join(dir, e.Name()))
		}
	}
}

// missingFrom returns the outermost folder of the path dir that does not
// exist, "" when dir does.
func missingFrom(dir string) string {
	missing := ""
	for p := filepath.Clean(dir); ; p = filepath.Dir(p) {
		if _, err := os.Lstat(p); err == nil {
			return missing
		}
		missing = p
		if filepath.Dir(p) == p {
			return missing
		}
	}
}

// split is filepath.Split of a clean path with "." for no folder.
func split(name string) (dir, base string) {
	dir, base = filepath.Split(name)
	if dir == "" {
		dir = "."
	}
	return dir, base
}

// sameFileAt reports whether the open file f is still the file at name.
func sameFileAt(f *os.File, name string) bool {
	a, err := f.Stat()
	if err != nil {
		return false
	}
	b, err := os.Lstat(name)
	return err == nil && os.SameFile(a, b)
}

// digits reports whether s is a non-empty run of ASCII digits, the random
// part of os.CreateTemp's and os.MkdirTemp's names.
func digits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
