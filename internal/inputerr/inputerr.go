// Package inputerr marks errors caused by the input — unreadable or
// inconsistent files, unknown names, bad options — rather than by the
// machine, so that every package reports them alike and the command line
// exits 2 on them. report.ErrBadInput is ErrBadInput.
package inputerr

import (
	"errors"
	"fmt"
)

// ErrBadInput is what errors.Is finds in every error of this package.
var ErrBadInput = errors.New("bad input")

type badInput struct{ err error }

func (e badInput) Error() string   { return e.err.Error() }
func (e badInput) Unwrap() []error { return []error{e.err, ErrBadInput} }

// Wrap marks err as bad input; its message is unchanged.
func Wrap(err error) error { return badInput{err} }

// Errorf is fmt.Errorf, marked as bad input.
func Errorf(format string, a ...any) error { return badInput{fmt.Errorf(format, a...)} }
