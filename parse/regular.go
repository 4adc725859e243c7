package parse

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// NotRegularError is a path that names something other than a regular file
// (a FIFO, a device, a socket, a folder), itself or through a symbolic
// link. Such a path is never opened: opening a FIFO blocks until a writer
// comes, and a device such as /dev/zero never ends.
type NotRegularError struct {
	Path string
	Mode fs.FileMode
	// Kind says what it is when Mode cannot ("a symbolic link member
	// of x.tar.gz"); "" to name it by Mode.
	Kind string
}

func (e *NotRegularError) Error() string {
	if e == nil {
		return "<nil>"
	}
	kind := e.Kind
	if kind == "" {
		kind = modeKind(e.Mode)
	}
	return fmt.Sprintf("%s: %s, not a regular file", e.Path, kind)
}

// modeKind names the kind of file of a mode that is not a regular file.
func modeKind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m.IsDir():
		return "a folder"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return "a special file"
}

// checkRegular returns the FileInfo of p, following symbolic links, or a
// *NotRegularError when p is not a regular file. It is called before p is
// opened. (A file swapped for a FIFO between the check and the open is not
// caught: fs.FS offers no non-blocking open. A RegularFS has one.)
func checkRegular(fsys fs.FS, p string) (fs.FileInfo, error) {
	fi, err := fs.Stat(orNoInput(fsys), p)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		e := &NotRegularError{Path: p, Mode: fi.Mode()}
		if k, ok := fi.(interface{ notRegularKind() string }); ok {
			e.Kind = k.notRegularKind()
		}
		return nil, e
	}
	return fi, nil
}

// RegularFS is an FS that opens a file only when it is a regular file,
// telling it from a FIFO, a device or a folder as it opens it, not by a
// look before (Stat, then Open): a system call less a file, and a file
// swapped for a FIFO in between cannot block. OpenRegular uses it when an
// FS has it. Packed FSs over a folder of the system have it; an FS that
// wraps another can pass it on by calling OpenRegular on the other.
type RegularFS interface {
	fs.FS
	// OpenRegular is OpenRegular of this FS: a *NotRegularError, nothing
	// opened, for what is no regular file.
	OpenRegular(name string) (fs.File, error)
}

// OpenRegular opens p of fsys when it is a regular file; otherwise it
// returns a *NotRegularError without opening it.
func OpenRegular(fsys fs.FS, p string) (fs.File, error) {
	fsys = orNoInput(fsys)
	if r, ok := fsys.(RegularFS); ok {
		return r.OpenRegular(p)
	}
	if _, err := checkRegular(fsys, p); err != nil {
		return nil, err
	}
	return fsys.Open(p)
}

// UserFile describes a small input file the user names on the command line
// (a DBMS list, an introduction, sysbench groups), for ReadUserFile.
type UserFile struct {
	Flag  string // the flag that names it, e.g. "--dbms"
	What  string // what it is, e.g. "a DBMS list"
	Limit int64  // its largest size in bytes
}

// ReadUserFile reads the file name given with f.Flag. It must be a regular
// file (a FIFO or a device such as /dev/zero is refused rather than read
// forever) of at most f.Limit bytes; the messages name the flag and the file.
func ReadUserFile(name string, f UserFile) ([]byte, error) {
	fi, err := os.Stat(name)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.Flag, err)
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s %s: %s, not a regular file", f.Flag, name, modeKind(fi.Mode()))
	}
	file, err := os.Open(name)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.Flag, err)
	}
	defer file.Close()
	b, over, err := readAtMost(file, f.Limit)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.Flag, err)
	}
	if over {
		return nil, fmt.Errorf("%s %s: larger than %s; %s is a few lines", f.Flag, name, byteSize(f.Limit), f.What)
	}
	return b, nil
}

// readAtMost reads r to its end, but no more than limit bytes; over says
// that there was more. The limit is checked on what is read, not on a size
// Stat gave: the file may grow (a log still being written).
func readAtMost(r io.Reader, limit int64) (b []byte, over bool, err error) {
	b, err = io.ReadAll(io.LimitReader(r, limit+1))
	if int64(len(b)) > limit {
		return nil, true, err
	}
	return b, false, err
}

// byteSize prints a limit: 1 MiB, 64 KiB, or bytes.
func byteSize(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// IsNotRegular reports whether err is a *NotRegularError.
func IsNotRegular(err error) bool {
	var nr *NotRegularError
	return errors.As(err, &nr)
}

// ReadRegular reads the file p of fsys whole when it is a regular file of
// at most limit bytes: a FIFO is not opened (*NotRegularError, ending in
// "; skipped"), and a larger file is an error naming it and the limit.
func ReadRegular(fsys fs.FS, p string, limit int64) ([]byte, error) {
	f, err := OpenRegular(fsys, p)
	if err != nil {
		if IsNotRegular(err) {
			return nil, fmt.Errorf("%w; skipped", err)
		}
		return nil, err
	}
	defer f.Close()
	b, over, err := readAtMost(f, limit)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	if over {
		return nil, &TooLargeError{Path: p, Limit: limit}
	}
	return b, nil
}

// TooLargeError is the error of ReadRegular for a file larger than its
// limit, which it does not read: "<path>: larger than 16 MiB; skipped".
type TooLargeError struct {
	Path  string
	Limit int64
}

func (e *TooLargeError) Error() string {
	if e == nil {
		return "<nil>"
	}
	return fmt.Sprintf("%s: larger than %s; skipped", e.Path, byteSize(e.Limit))
}
