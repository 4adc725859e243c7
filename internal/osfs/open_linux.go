package osfs

import (
	"io"
	"io/fs"
	"os"
	"path"
	"syscall"
	"time"
)

// fast is whether open is used; elsewhere os.DirFS opens, with its checks
// of the names the system would read as more than one element.
const fast = true

// open opens path for reading with one system call; the descriptor stays
// blocking, so os.NewFile leaves it out of the poller.
func open(path string) (*os.File, error) {
	for {
		fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, err
		}
		return os.NewFile(uintptr(fd), path), nil
	}
}

// openRegular opens name without blocking (a FIFO's open waits for a
// writer otherwise) and looks at what it opened: a regular file is
// returned, anything else closed at once. Two system calls where a look
// before the open (Stat) and os.NewFile's take three, and a file swapped
// for a FIFO between a look and an open cannot block. For a regular file
// O_NONBLOCK changes nothing: its reads never wait.
func (d FS) openRegular(name string) (fs.File, fs.FileInfo, error) {
	full := d.dir + "/" + name
	var fd int
	var err error
	for {
		fd, err = syscall.Open(full, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NONBLOCK, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return nil, nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	var st syscall.Stat_t
	for {
		err = syscall.Fstat(fd, &st)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		syscall.Close(fd)
		return nil, nil, &fs.PathError{Op: "stat", Path: name, Err: err}
	}
	fi := infoOf(path.Base(name), &st)
	if !fi.Mode().IsRegular() {
		syscall.Close(fd)
		return nil, fi, nil
	}
	return &file{fd: fd, name: name, info: fi}, fi, nil
}

// file is a regular file read with system calls on its descriptor: no
// poller, no finalizer. Its FileInfo is the one of its open.
type file struct {
	fd   int // -1 once closed
	name string
	info fs.FileInfo
}

func (f *file) Stat() (fs.FileInfo, error) { return f.info, nil }

func (f *file) Read(b []byte) (int, error) {
	if f.fd < 0 {
		return 0, &fs.PathError{Op: "read", Path: f.name, Err: fs.ErrClosed}
	}
	if len(b) == 0 {
		return 0, nil
	}
	if len(b) > 1<<30 {
		b = b[:1<<30] // as os.File: one read of at most 1 GiB
	}
	for {
		n, err := syscall.Read(f.fd, b)
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return 0, &fs.PathError{Op: "read", Path: f.name, Err: err}
		case n == 0:
			return 0, io.EOF
		}
		return n, nil
	}
}

func (f *file) Close() error {
	if f.fd < 0 {
		return &fs.PathError{Op: "close", Path: f.name, Err: fs.ErrClosed}
	}
	err := syscall.Close(f.fd)
	f.fd = -1
	if err != nil {
		return &fs.PathError{Op: "close", Path: f.name, Err: err}
	}
	return nil
}

// info is a FileInfo made from a stat structure, as os.Stat makes one.
type info struct {
	name string
	size int64
	mode fs.FileMode
	mod  time.Time
	sys  syscall.Stat_t
}

func (i *info) Name() string       { return i.name }
func (i *info) Size() int64        { return i.size }
func (i *info) Mode() fs.FileMode  { return i.mode }
func (i *info) ModTime() time.Time { return i.mod }
func (i *info) IsDir() bool        { return i.mode.IsDir() }
func (i *info) Sys() any           { return &i.sys }

func infoOf(name string, st *syscall.Stat_t) *info {
	m := fs.FileMode(st.Mode & 0o777)
	switch st.Mode & syscall.S_IFMT {
	case syscall.S_IFBLK:
		m |= fs.ModeDevice
	case syscall.S_IFCHR:
		m |= fs.ModeDevice | fs.ModeCharDevice
	case syscall.S_IFDIR:
		m |= fs.ModeDir
	case syscall.S_IFIFO:
		m |= fs.ModeNamedPipe
	case syscall.S_IFLNK:
		m |= fs.ModeSymlink
	case syscall.S_IFSOCK:
		m |= fs.ModeSocket
	}
	if st.Mode&syscall.S_ISGID != 0 {
		m |= fs.ModeSetgid
	}
	if st.Mode&syscall.S_ISUID != 0 {
		m |= fs.ModeSetuid
	}
	if st.Mode&syscall.S_ISVTX != 0 {
		m |= fs.ModeSticky
	}
	return &info{name: name, size: st.Size, mode: m, mod: time.Unix(st.Mtim.Unix()), sys: *st}
}
