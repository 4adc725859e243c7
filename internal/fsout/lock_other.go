//go:build !unix

package fsout

import (
	"errors"
	"os"
)

// canLock is false where there is no flock: no temporary is then known to
// be stale, and none is removed; folders are not locked.
const canLock = false

var errNoLock = errors.New("no flock on this system")

func lockFile(*os.File, bool) (bool, error) { return true, nil }

func openNoFollow(name string, flag int) (*os.File, error) { return os.OpenFile(name, flag, 0o600) }
