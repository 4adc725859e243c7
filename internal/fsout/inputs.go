package fsout

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// ErrRefused is what errors.Is finds in the error of an output path
// refused before anything is written: one that would destroy an input or a
// file of the user's, a link, a device, a folder another run is writing.
var ErrRefused = errors.New("output refused")

type refusal struct{ err error }

func (e refusal) Error() string   { return e.err.Error() }
func (e refusal) Unwrap() []error { return []error{e.err, ErrRefused} }

func refuse(format string, a ...any) error { return refusal{fmt.Errorf(format, a...)} }

// input is a file or folder a run reads: one given on the command line, or
// one a symbolic link inside a given folder leads to (the loader follows
// links: result trees are often collected in a folder of links).
type input struct {
	given string      // the input as given, for messages
	link  string      // the link that leads to it, as the loader reaches it; "" for an input given
	path  string      // the resolved absolute path
	info  fs.FileInfo // of path
}

// note says, for a message, where an input really is when its name does
// not tell.
func (in input) note() string {
	if in.link != "" {
		return fmt.Sprintf(" (through the link %s, which resolves to %s)", in.link, in.path)
	}
	if abs, err := filepath.Abs(in.given); err == nil && abs != in.path {
		return fmt.Sprintf(" (%s resolves to %s)", in.given, in.path)
	}
	return ""
}

// shown is the path the loader reads the input by.
func (in input) shown() string {
	if in.link != "" {
		return in.link
	}
	return in.given
}

// checkInputs refuses the existing output name (st is its Lstat; not a
// link) when it is, holds or is inside anything the run reads: each of the
// inputs, files or folders, and every file or folder that a symbolic link
// inside an input folder leads to, however deep. Paths are compared
// resolved (filepath.EvalSymlinks) and folders as os.SameFile does, so
// that no spelling of a path, through links or not, gets past.
func checkInputs(name string, st fs.FileInfo, inputs []string) error {
	real, err := resolve(name)
	if err != nil {
		return err
	}
	out := output{name: name, info: st, up: folders(filepath.Dir(real))}
	var walked []fs.FileInfo // the folders walked or to walk
	var queue []input
	add := func(in input) error {
		if err := out.against(in); err != nil {
			return err
		}
		if in.info.IsDir() && !within(folders(in.path), walked) {
			walked = append(walked, in.info)
			queue = append(queue, in)
		}
		return nil
	}
	for _, g := range inputs {
		real, err := resolve(g)
		if err != nil {
			continue // a missing input is reported by the run that reads it
		}
		st, err := os.Stat(real)
		if err != nil {
			continue
		}
		if err := add(input{given: g, path: real, info: st}); err != nil {
			return err
		}
	}
	for len(queue) > 0 {
		in := queue[0]
		queue = queue[1:]
		err := filepath.WalkDir(in.path, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.Type()&fs.ModeSymlink == 0 {
				return nil // an unreadable folder is skipped, as the loader reports it
			}
			real, err := resolve(p)
			if err != nil {
				return nil // a dangling link
			}
			st, err := os.Stat(real)
			if err != nil {
				return nil
			}
			rel, _ := filepath.Rel(in.path, p)
			return add(input{given: in.given, link: filepath.Join(in.shown(), rel), path: real, info: st})
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// output is an existing output path being checked against the inputs.
type output struct {
	name string        // as given
	info fs.FileInfo   // Lstat of the output
	up   []fs.FileInfo // the folders holding it, innermost first
}

// against refuses the output when it is in, holds or is inside in.
func (o output) against(in input) error {
	switch {
	case os.SameFile(o.info, in.info):
		return refuse("%s is an input of this run%s; write the output elsewhere", o.name, in.note())
	case in.info.IsDir() && within(o.up, []fs.FileInfo{in.info}):
		return refuse("%s is inside %s, the results being read%s; write the output elsewhere", o.name, in.given, in.note())
	case o.info.IsDir() && within(folders(filepath.Dir(in.path)), []fs.FileInfo{o.info}):
		return refuse("%s holds %s, an input of this run%s; write the output elsewhere", o.name, in.shown(), in.note())
	}
	return nil
}

// resolve is the absolute path of p with every symbolic link resolved.
func resolve(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(abs)
}

// folders are the FileInfo of the resolved folder dir and of every folder
// above it, innermost first; those that cannot be read are left out.
func folders(dir string) []fs.FileInfo {
	var out []fs.FileInfo
	for {
		if st, err := os.Stat(dir); err == nil {
			out = append(out, st)
		}
		up := filepath.Dir(dir)
		if up == dir {
			return out
		}
		dir = up
	}
}

// within reports whether one of the folders a is one of b.
func within(a, b []fs.FileInfo) bool {
	for _, x := range a {
		for _, y := range b {
			if os.SameFile(x, y) {
				return true
			}
		}
	}
	return false
}
