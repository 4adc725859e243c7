package report

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/ibreport/ibreport/parse"
)

// Entry is one item of a DBMS list: a DBMS tree name or a group break.
type Entry struct {
	Name  string
	Break bool
}

// maxListNames bounds the names of a DBMS list. Each name listed, repeated
// or not, is a row of every table and chart of every step: the work and the
// memory of a report grow in proportion (about 2 ms and 200 KB a name), so
// a list of 100,000 lines took minutes and gigabytes. A thousand is far
// more than a readable report holds.
const maxListNames = 1000

// readDBMSList reads a DBMS list: names separated by blanks or newlines (the
// original etldirs files put them on one line), where "-" or "BREAK" starts a
// new group whose first DBMS is its base. Duplicates are kept: a base DBMS is
// often repeated at the start of every group. Lines starting with # are
// comments.
func readDBMSList(r io.Reader, name string) ([]Entry, error) {
	var out []Entry
	sc := bufio.NewScanner(r)
	// The original etldirs files hold every name on one line: a line may
	// be as long as the file Load allows.
	sc.Buffer(nil, int(dbmsListFile.Limit)+1)
	n, names := 0, 0
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
			if names++; names > maxListNames {
				return nil, fmt.Errorf("%s:%d: more than %d DBMS names; each is a row of every table and chart of the report", name, n, maxListNames)
			}
			out = append(out, Entry{Name: f})
		}
	}
	if err := sc.Err(); errors.Is(err, bufio.ErrTooLong) {
		return nil, fmt.Errorf("%s:%d: line longer than %d bytes; a DBMS list is a few lines", name, n+1, dbmsListFile.Limit)
	} else if err != nil {
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
