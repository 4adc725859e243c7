package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/ibreport/ibreport/internal/inputerr"
	"github.com/ibreport/ibreport/parse"
)

// Acknowledged changes.
//
// A nightly history meets changes its owners made on purpose: a new
// config (PostgreSQL 18's io_method), a new host. Until enough runs
// follow it, such a change alerts every night. A file of acknowledged
// changes (diff --history --acknowledged FILE) names them, one a line:
//
//	# result set [/ test]: why
//	03-pg180_o2nofp.x10b: io_method config
//	05-pg1611_o2nofp.x10a / update-index range=100: known, upstream bug 1234
//
// From that result set on, the test's level (every test's without "/
// test") starts anew: the runs before it are no longer its reference. A
// move of NEW itself that is acknowledged is shown as such and is neither
// a regression nor an improvement.

// Acknowledged is one acknowledged change.
type Acknowledged struct {
	// Set is the result set the change begins at, as the history names
	// its members (the folder's name, or the label its tables show).
	Set string
	// Test is the test it applies to, as the tables name it
	// ("update-index range=100", "qr100"); "" for every test.
	Test string
	// Reason says why, shown beside every verdict it changes.
	Reason string
	// Source is where it was read: "acks.txt:3".
	Source string
}

// maxAcknowledged bounds the lines of a file of acknowledged changes: a
// history's known changes are a few dozen.
const maxAcknowledged = 10000

// ReadAcknowledged reads a file of acknowledged changes (see the comment
// above Acknowledged) from r; name is the file's name for messages. Blank
// lines and lines starting with # are skipped. A line without ": " and a
// reason, a name with a control character, or the same set and test
// twice is an error naming file and line, wrapping ErrBadInput.
func ReadAcknowledged(r io.Reader, name string) ([]Acknowledged, error) {
	if r == nil {
		return nil, inputerr.Errorf("%s: no reader", name)
	}
	var out []Acknowledged
	seen := map[[2]string]int{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), 64<<10)
	line := 0
	for sc.Scan() {
		line++
		if line > maxAcknowledged {
			return nil, inputerr.Errorf("%s: more than %d lines; a file of acknowledged changes names a few", name, maxAcknowledged)
		}
		t := strings.TrimSpace(strings.TrimPrefix(sc.Text(), "\ufeff"))
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		where, reason, ok := strings.Cut(t, ": ")
		reason = strings.TrimSpace(reason)
		if !ok || reason == "" {
			return nil, inputerr.Errorf("%s:%d: %q: want \"<result set>[ / <test>]: <why>\"", name, line, t)
		}
		set, test, _ := strings.Cut(where, "/")
		a := Acknowledged{Set: strings.TrimSpace(set), Test: strings.TrimSpace(test), Reason: reason, Source: fmt.Sprintf("%s:%d", name, line)}
		if a.Set == "" {
			return nil, inputerr.Errorf("%s:%d: no result set before %q", name, line, reason)
		}
		for _, s := range []string{a.Set, a.Test, a.Reason} {
			if err := parse.CheckName(s); err != nil {
				return nil, inputerr.Errorf("%s:%d: %v", name, line, err)
			}
		}
		key := [2]string{a.Set, a.Test}
		if first, dup := seen[key]; dup {
			return nil, inputerr.Errorf("%s:%d: %s acknowledged again (first on line %d)", name, line, where, first)
		}
		seen[key] = line
		out = append(out, a)
	}
	if err := sc.Err(); err != nil {
		return nil, inputerr.Errorf("%s:%d: %v", name, line+1, err)
	}
	return out, nil
}

// ackRef is an acknowledged change as the history table uses it: the
// member it begins at and why.
type ackRef struct {
	at     int
	reason string
}

// ackIndex resolves the acknowledged changes against the sets of a
// history and its groups' tests: by test ("" every test) the latest
// change at or before NEW. A set or test the history does not have is an
// error naming the line.
func ackIndex(acks []Acknowledged, sets []ResultSet, groups []*SeriesGroup) (map[string]ackRef, error) {
	if len(acks) == 0 {
		return nil, nil
	}
	tests := map[string]bool{}
	for _, g := range groups {
		for _, t := range g.Tests {
			tests[t] = true
		}
	}
	out := map[string]ackRef{}
	for _, a := range acks {
		at := -1
		for j, s := range sets {
			if s.Name == a.Set || pathBase(s.Name) == a.Set {
				at = j
			}
		}
		for _, g := range groups {
			for j := range g.Members {
				if at < 0 && (g.Members[j] == a.Set || j < len(g.Labels) && g.Labels[j] == a.Set) {
					at = j
				}
			}
		}
		if at < 0 {
			return nil, inputerr.Errorf("%s: %q is none of the %d result sets of the history (%s … %s)", a.Source, a.Set, len(sets), sets[0].Name, sets[len(sets)-1].Name)
		}
		if a.Test != "" && !tests[a.Test] {
			return nil, inputerr.Errorf("%s: %q is no test of the history", a.Source, a.Test)
		}
		if old, ok := out[a.Test]; !ok || at >= old.at {
			out[a.Test] = ackRef{at: at, reason: a.Reason + " (" + a.Source + ")"}
		}
	}
	return out, nil
}

// ackFor is the acknowledged change of a test: its own, else every
// test's, whichever begins later; ok false for none.
func ackFor(acks map[string]ackRef, test string) (ackRef, bool) {
	own, ok1 := acks[test]
	all, ok2 := acks[""]
	switch {
	case ok1 && (!ok2 || own.at >= all.at):
		return own, true
	case ok2:
		return all, true
	}
	return ackRef{}, false
}

// pathBase is the last element of a slash- or backslash-separated name.
func pathBase(name string) string {
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		return name[i+1:]
	}
	return name
}
