package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/ibreport/ibreport/internal/parse"
)

// Entry is one item of a DBMS list: a DBMS tree name or a group break.
type Entry struct {
	Name  string
	Break bool
}

// readDBMSList reads a DBMS list: names separated by blanks or newlines (the
// original etldirs files put them on one line), where "-" or "BREAK" starts a
// new group whose first DBMS is its base. Duplicates are kept: a base DBMS is
// often repeated at the start of every group. Lines starting with # are
// comments.
func readDBMSList(r io.Reader, name string) ([]Entry, error) {
	var out []Entry
	sc := bufio.NewScanner(r)
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		if strings.HasPrefix(strings.TrimSpace(line), "#") {
			continue
		}
		for _, f := range strings.Fields(line) {
			if f == "-" || f == "BREAK" {
				out = append(out, Entry{Break: true})
				continue
			}
			if strings.ContainsAny(f, "/\\") || f == "." || f == ".." {
				return nil, fmt.Errorf("%s:%d: %q is not a DBMS directory name", name, n, f)
			}
			if err := parse.CheckName(f); err != nil {
				return nil, fmt.Errorf("%s:%d: %w", name, n, err)
			}
			out = append(out, Entry{Name: f})
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no DBMS listed", name)
	}
	return out, nil
}

// defaultList lists every tree in natural order as one group.
func defaultList(trees []*parse.Tree) []Entry {
	var out []Entry
	for _, t := range trees {
		out = append(out, Entry{Name: t.Name})
	}
	return out
}

// shown returns the DBMS of the list without breaks and duplicates: the
// DBMS the summary tables show, in order (the original's ch list).
func shown(list []Entry) []string {
	seen := map[string]bool{}
	var out []string
	for _, e := range list {
		if !e.Break && !seen[e.Name] {
			seen[e.Name] = true
			out = append(out, e.Name)
		}
	}
	return out
}

// firstName is the first DBMS of the list.
func firstName(list []Entry) string {
	for _, e := range list {
		if !e.Break {
			return e.Name
		}
	}
	return ""
}
