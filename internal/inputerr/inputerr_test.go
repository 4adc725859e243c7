package inputerr

import (
	"errors"
	"io/fs"
	"testing"
)

func TestMarks(t *testing.T) {
	e := Wrap(fs.ErrNotExist)
	if !errors.Is(e, ErrBadInput) || !errors.Is(e, fs.ErrNotExist) || e.Error() != fs.ErrNotExist.Error() {
		t.Errorf("Wrap: %v", e)
	}
	e = Errorf("%s: line %d: %w", "o.res", 3, fs.ErrInvalid)
	if !errors.Is(e, ErrBadInput) || !errors.Is(e, fs.ErrInvalid) || e.Error() != "o.res: line 3: invalid argument" {
		t.Errorf("Errorf: %v", e)
	}
	if errors.Is(errors.New("disk full"), ErrBadInput) {
		t.Error("a plain error is bad input")
	}
}
