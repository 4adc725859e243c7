package parse

import (
	"errors"
	"fmt"
	"sort"
	"strings"
)

// Pos is the place a record or an error came from.
type Pos struct {
	File string // name given to the reader, usually a path inside the results tree
	Line int    // 1-based line number; 0 when the error concerns the whole file
}

func (p Pos) String() string {
	if p.Line == 0 {
		return p.File
	}
	return fmt.Sprintf("%s:%d", p.File, p.Line)
}

// A SyntaxError reports one malformed input line. Readers skip the line and
// go on, so a SyntaxError never means that the rest of the file was lost.
type SyntaxError struct {
	Pos
	Msg string
}

func (e *SyntaxError) Error() string {
	if e == nil {
		return "<nil>"
	}
	return e.Pos.String() + ": " + e.Msg
}

// ErrorList holds every SyntaxError of one read, in input order.
type ErrorList []*SyntaxError

func (l ErrorList) Error() string {
	switch len(l) {
	case 0:
		return "no errors"
	case 1:
		return l[0].Error()
	}
	var b strings.Builder
	for i, e := range l {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// Err returns nil for an empty list, so that callers can return it as an
// error without creating a non-nil interface around an empty slice.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}

// inOrder sorts the list by line, keeping whole-file errors (line 0) last,
// for readers that only judge some lines after reading the whole file.
func (l ErrorList) inOrder() ErrorList {
	sort.SliceStable(l, func(i, j int) bool {
		a, b := l[i].Line, l[j].Line
		if a == 0 || b == 0 {
			return b == 0 && a != 0
		}
		return a < b
	})
	return l
}

// MaxErrors is the most syntax errors one read lists: a file of junk
// (a binary, a log written into the wrong name) would otherwise keep one
// error per line, without bound. One last whole-file error says that more
// lines were skipped.
const MaxErrors = 1000

func (l *ErrorList) add(file string, line int, format string, args ...any) {
	switch n := len(*l); {
	case n < MaxErrors:
		*l = append(*l, &SyntaxError{Pos{file, line}, fmt.Sprintf(format, args...)})
	case n == MaxErrors:
		*l = append(*l, &SyntaxError{Pos{file, 0}, fmt.Sprintf("more malformed lines from line %d on skipped, not listed (only the first %d are)", line, MaxErrors)})
	}
}

// SyntaxErrors returns the syntax errors carried by err: the list itself for an
// ErrorList, one element for a *SyntaxError, and nil for anything else (an
// I/O error, which the caller should treat as fatal).
func SyntaxErrors(err error) ErrorList {
	var l ErrorList
	if errors.As(err, &l) {
		return l
	}
	var se *SyntaxError
	if errors.As(err, &se) {
		return ErrorList{se}
	}
	return nil
}
