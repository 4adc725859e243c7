//go:build unix

package fsout

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// canLock tells that flock is there: a temporary's owner is known to be
// gone when its lock can be taken.
const canLock = true

// errNoLock is lockFile's error on a file system without flock.
var errNoLock = errors.New("no flock on this file system")

// lockFile takes the exclusive flock of f, waiting for it when wait is
// set. It reports false when another holds it and wait is not set. The
// lock goes with the last descriptor of f, so the kernel releases it when
// its owner dies, however it dies.
func lockFile(f *os.File, wait bool) (bool, error) {
	how := unix.LOCK_EX
	if !wait {
		how |= unix.LOCK_NB
	}
	for {
		err := unix.Flock(int(f.Fd()), how)
		switch {
		case err == nil:
			return true, nil
		case errors.Is(err, unix.EINTR):
			continue
		case errors.Is(err, unix.EWOULDBLOCK):
			return false, nil
		case errors.Is(err, unix.ENOLCK), errors.Is(err, unix.EOPNOTSUPP), errors.Is(err, unix.EINVAL):
			return false, errNoLock
		}
		return false, &os.PathError{Op: "flock", Path: f.Name(), Err: err}
	}
}

// openNoFollow opens an existing file for locking, refusing a symbolic
// link: a link put where a temporary or a lock file was is not followed.
func openNoFollow(name string, flag int) (*os.File, error) {
	return os.OpenFile(name, flag|unix.O_NOFOLLOW, 0o600)
}
