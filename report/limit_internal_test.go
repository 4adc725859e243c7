package report

import (
	"errors"
	"io/fs"
	"os"
	"strings"
	"testing"
	"testing/fstest"
	"time"
)

// endlessFS serves one file that never ends: a vmstat line, forever.
type endlessFS struct {
	fstest.MapFS
	name string
}

func (e endlessFS) Open(name string) (fs.File, error) {
	if name != e.name {
		return e.MapFS.Open(name)
	}
	f, err := e.MapFS.Open(name) // for Stat
	if err != nil {
		return nil, err
	}
	return &endless{File: f}, nil
}

type endless struct {
	fs.File
	off int
}

const vmLine = " 4  0      0 22479188  45732 2024008    0    0  3814  4690  528 1287  6  6 87  1  0\n"

func (e *endless) Read(b []byte) (int, error) {
	for i := range b {
		b[i] = vmLine[e.off%len(vmLine)]
		e.off++
	}
	return len(b), nil
}

// TestLoadFSEndlessFile: a file that never ends stops at maxInputFile
// with bad input naming it, not a run that never returns.
func TestLoadFSEndlessFile(t *testing.T) {
	old := maxInputFile
	maxInputFile = 1 << 20
	defer func() { maxInputFile = old }()
	m := fstest.MapFS{}
	src := os.DirFS("../testdata/example")
	fs.WalkDir(src, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := fs.ReadFile(src, p)
			m[p] = &fstest.MapFile{Data: b}
		}
		return err
	})
	const name = "2m.pg15.c1/l.i1/o.vm.dop2"
	done := make(chan error, 1)
	go func() {
		_, _, err := LoadFS(endlessFS{m, name}, "endless", LoadOptions{})
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil || !errors.Is(err, ErrBadInput) || !strings.Contains(err.Error(), name+": more than 1 MiB; no benchmark output is that large (a file that never ends?)") {
			t.Errorf("LoadFS: %v", err)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("LoadFS on a file that never ends did not return in a minute")
	}
	if _, _, err := LoadFS(nil, "nil", LoadOptions{}); !errors.Is(err, ErrBadInput) {
		t.Errorf("LoadFS(nil): %v", err)
	}
}
