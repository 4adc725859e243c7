package osfs

import (
	"os"
	"syscall"
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
