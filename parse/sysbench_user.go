package parse

import (
	"encoding/csv"
	"errors"
	"io"
	"strconv"
	"strings"

	"github.com/gocarina/gocsv"
)

// SysbenchGroup is one line of a test-group file: a group name and the tests
// it holds, in order.
type SysbenchGroup struct {
	Pos   Pos
	Name  string
	Tests []string // test types ("point-query"), keys ("read-only.range10") or suffixes
}

// ReadSysbenchGroups reads a file that replaces the default point / range /
// write grouping of the summary statistics. Each line is
//
//	<name>: <test> <test> ...
//
// where a test is a test type (every range of it), a type with its range
// ("read-only.range10000") or a full suffix ("read-only.range10000.pk1").
// Blank lines and lines starting with # are ignored. Groups keep the file's
// order and are never split.
func ReadSysbenchGroups(r io.Reader, name string) ([]SysbenchGroup, error) {
	var out []SysbenchGroup
	var errs ErrorList
	names := map[string]int{}
	sc := newLineScanner(r)
	defer sc.release()
	for sc.Scan() {
		n, line := sc.n, strings.TrimSpace(sc.Text())
		if sc.long || binaryJunk(line) {
			errs.add(name, n, "binary data or overlong line")
			continue
		}
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		g, tests, ok := strings.Cut(line, ":")
		g = strings.TrimSpace(g)
		switch {
		case !ok || g == "":
			errs.add(name, n, "want <group name>: <test> <test> ...")
			continue
		case names[g] > 0:
			errs.add(name, n, "group %q already defined at line %d", g, names[g])
			continue
		}
		names[g] = n
		out = append(out, SysbenchGroup{Pos: Pos{name, n}, Name: g, Tests: fields(tests)})
		if len(out[len(out)-1].Tests) == 0 {
			errs.add(name, n, "group %q lists no test", g)
		}
	}
	if err := sc.Err(); err != nil {
		return out, err
	}
	if len(out) == 0 && len(errs) == 0 {
		errs.add(name, 0, "no group defined")
	}
	return out, errs.Err()
}

// Matches reports whether a name of a group file designates test t.
func (t SysbenchTest) Matches(name string) bool {
	return name == t.Type || name == t.Key() || name == t.Sfx
}

// SysbenchExtra holds the user-supplied per-query columns of the engine
// table (rows read per query, index lookups, ...), read from CSV.
type SysbenchExtra struct {
	Columns []string // the extra columns, in file order
	Rows    []SysbenchExtraRow
}

// SysbenchExtraRow is one CSV record.
type SysbenchExtraRow struct {
	Pos     Pos
	DBMS    string // result folder name, e.g. x.pg15.c1.pk1
	Test    string // as in a group file: type, key or suffix
	Threads int    // 0 when the row applies to every thread count
	Values  map[string]string
}

// extraKeys are the CSV columns every extra file has; gocsv maps them and
// hands back the others.
type extraKeys struct {
	DBMS    string `csv:"dbms"`
	Test    string `csv:"test"`
	Threads string `csv:"threads"`
}

// ReadSysbenchExtra reads the per-query columns CSV. The header names the
// columns; dbms and test are required, threads is optional, and every other
// column is an extra value shown as printed. Records with a missing key or a
// bad thread count are errors and are skipped.
func ReadSysbenchExtra(r io.Reader, name string) (*SysbenchExtra, error) {
	if r == nil {
		r = noInput{}
	}
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = 0
	um, err := gocsv.NewUnmarshaller(cr, extraKeys{})
	if err != nil {
		if errors.Is(err, io.EOF) {
			return &SysbenchExtra{}, ErrorList{{Pos{name, 0}, "empty file"}}
		}
		return &SysbenchExtra{}, csvError(name, err)
	}
	x := &SysbenchExtra{}
	var errs ErrorList
	has := map[string]bool{}
	for _, h := range um.Headers {
		has[h] = true
		if h != "dbms" && h != "test" && h != "threads" {
			x.Columns = append(x.Columns, h)
		}
	}
	if !has["dbms"] || !has["test"] {
		errs.add(name, 1, "header must name the columns dbms and test")
		return x, errs.Err()
	}
	for {
		v, extra, err := um.ReadUnmatched()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				errs.add(name, pe.Line, "%v", pe.Err)
				if errors.Is(pe.Err, csv.ErrFieldCount) {
					continue
				}
				break // the csv reader cannot resynchronize after a quote error
			}
			errs.add(name, 0, "%v", err)
			continue
		}
		line, _ := cr.FieldPos(0)
		k := v.(extraKeys)
		row := SysbenchExtraRow{Pos: Pos{name, line}, DBMS: strings.TrimSpace(k.DBMS), Test: strings.TrimSpace(k.Test), Values: extra}
		if row.DBMS == "" || row.Test == "" {
			errs.add(name, line, "dbms and test must not be empty")
			continue
		}
		if t := strings.TrimSpace(k.Threads); t != "" {
			n, err := strconv.Atoi(t)
			if err != nil || n <= 0 {
				errs.add(name, line, "threads %q is not a positive integer", t)
				continue
			}
			row.Threads = n
		}
		x.Rows = append(x.Rows, row)
	}
	return x, errs.Err()
}

func csvError(name string, err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return ErrorList{{Pos{name, pe.Line}, pe.Err.Error()}}
	}
	return ErrorList{{Pos{name, 1}, err.Error()}}
}
