package osfs

import (
	"io"
	"io/fs"
	"os"
	"path"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
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
	wait bool // the file system refused readCached: every read is a read(2)
}

// maxCached is the most readCached copies in a call: about 0.1 ms.
const maxCached = 1 << 20

// readCached reads what the page cache holds of the file at its offset,
// without waiting for the disk (preadv2 with RWF_NOWAIT, offset -1: the
// file's own, advanced): EAGAIN when none of it is there.
//
// It is a raw system call, which the scheduler does not hear of. A read of
// the cache is a copy, done in tens of microseconds; told of it as a
// blocking call (syscall.Read), the scheduler took the processor of a
// worker in such a read for another thread whenever both were busy, and
// handed it back after, a thread switch each way: a build of the 467 MB
// insert tree made 1,200 to 4,900 context switches instead of 340, and the
// runtime's monitor, finding processors so taken, woke every 20
// microseconds instead of backing off to every 10 ms.
func readCached(fd int, b []byte) (int, syscall.Errno) {
	iov := syscall.Iovec{Base: unsafe.SliceData(b)}
	iov.SetLen(len(b))
	n, _, e := syscall.RawSyscall6(unix.SYS_PREADV2, uintptr(fd), uintptr(unsafe.Pointer(&iov)), 1,
		^uintptr(0), ^uintptr(0), unix.RWF_NOWAIT)
	return int(n), e
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
	for !f.wait {
		// At most maxCached bytes: the runtime cannot stop a thread in
		// a raw call, so a garbage collection waits for the copy.
		n, e := readCached(f.fd, b[:min(len(b), maxCached)])
		switch e {
		case 0:
			if n == 0 {
				return 0, io.EOF
			}
			return n, nil
		case syscall.EINTR:
			continue
		case syscall.EAGAIN:
			// Not in the page cache: this read waits for the disk, as
			// a system call the scheduler knows of.
		default:
			// A file system or kernel without RWF_NOWAIT (EOPNOTSUPP,
			// ENOSYS), a filter that refuses the call (EPERM), or an
			// error read(2) reports again: the file is read with
			// read(2) from now on.
			f.wait = true
		}
		break
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
