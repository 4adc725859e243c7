package main

import (
	"errors"
	"io/fs"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/ibreport/ibreport/internal/names"
	"github.com/ibreport/ibreport/metrics"
)

// printable returns msg with every character that is not printable (a
// control character such as ESC or CR, a byte that is not UTF-8) written as
// a Go escape (\x1b, \r, \xff), so that nothing from the input — a DBMS
// name, a path, a line of a log — reaches a terminal or a CI log as a
// control sequence or a workflow command. A message without such
// characters is unchanged. keepNewlines keeps the newlines of a message of
// several lines (several syntax errors, a usage line); the names and paths
// in it are quoted where the message is built (names.Quoted).
func printable(msg string, keepNewlines bool) string {
	clean := true
	for _, r := range msg {
		if r == utf8.RuneError || !strconv.IsPrint(r) && !(keepNewlines && r == '\n') {
			clean = false
			break
		}
	}
	if clean {
		return msg
	}
	var b strings.Builder
	for i, w := 0, 0; i < len(msg); i += w {
		r, size := utf8.DecodeRuneInString(msg[i:])
		w = size
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteString(`\x` + strconv.FormatUint(uint64(msg[i])|0x100, 16)[1:])
		case keepNewlines && r == '\n', strconv.IsPrint(r):
			b.WriteRune(r)
		default:
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		}
	}
	return b.String()
}

// errorText is the message of err as stderr shows it: the path of a file
// system error (the os package prints it raw) quoted when it holds
// anything but printable characters, then escaped by printable. Its
// newlines are kept: a message may list several syntax errors, or end with
// a usage line.
func errorText(err error) string {
	msg := err.Error()
	var pe *fs.PathError
	if errors.As(err, &pe) {
		if q := names.Quoted(pe.Path); q != pe.Path {
			msg = strings.ReplaceAll(msg, pe.Path, q)
		}
	}
	return printable(msg, true)
}

// printWarning prints a warning as "warning:", information as "note:".
func printWarning(e *env, w metrics.Warning) {
	kind := "warning:"
	if w.Info() {
		kind = "note:"
	}
	printNote(e, kind, w.Text)
}

// printNote prints a warning or a note: one line, escaped.
func printNote(e *env, kind, msg string) {
	e.stderr.Write([]byte(kind + " " + printable(msg, false) + "\n"))
}
