//go:build !linux

package fsout

import "os"

// exchange swaps two folders with two renames: a run stopped between them
// leaves the old set at a and none at b (the next run removes a).
func exchange(a, b string) error {
	old := a + ".old"
	if err := os.Rename(b, old); err != nil {
		return err
	}
	if err := os.Rename(a, b); err != nil {
		os.Rename(old, b)
		return err
	}
	return os.Rename(old, a)
}
