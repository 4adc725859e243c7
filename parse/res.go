package parse

import (
	"io"
	"strconv"
	"strings"
)

// Res is the per-step summary o.res.dop<D> that the benchmark driver writes
// after each step. Its first line holds the wall-clock duration of the step,
// which no other file records; the rest can be recomputed from raw logs.
type Res struct {
	Name       string
	Lines      []string // every line, for readers that go by line number as etl.sh did
	RealDop    int
	MaxRows    int64
	TotSecs    int64
	InsertRate string // as printed by bc, e.g. "86956.5"
	InsertPer  string
	TotalQuery int64
	QueryRate  string
	Deletes    string // "yes", "no", "1", "0"; "" for the generation before deletes
	// Valid reports that line 1 was read and its numbers are plausible;
	// the fields above are zero otherwise.
	Valid bool
}

// ReadRes reads an o.res file. Only line 1 is checked strictly; the other
// lines are kept verbatim.
func ReadRes(r io.Reader, name string) (*Res, error) {
	res := &Res{Name: name}
	var errs ErrorList
	sc := newLineScanner(r)
	defer sc.release()
	for sc.Scan() {
		if sc.long || binaryJunk(sc.Text()) {
			errs.add(name, sc.n, "binary data or overlong line")
		}
		res.Lines = append(res.Lines, sc.Text())
	}
	if err := sc.Err(); err != nil {
		return res, err
	}
	if len(res.Lines) == 0 {
		errs.add(name, 0, "empty file")
		return res, errs.Err()
	}
	// "2 processes, 1000000 rows-per-process, 23 seconds, 86956.5 rows-per-second, ..."
	f := fields(res.Lines[0])
	want := []struct {
		i int
		w string
	}{{2, "processes,"}, {4, "rows-per-process,"}, {6, "seconds,"}, {8, "rows-per-second,"}, {10, "rows-per-second-per-user,"}}
	for _, x := range want {
		i, w := x.i, x.w
		if i > len(f) || f[i-1] != w {
			errs.add(name, 1, "not an o.res summary line (want %q as field %d)", w, i)
			return res, errs.inOrder().Err()
		}
	}
	var e1, e2, e3 error
	valid := true
	res.RealDop, e1 = strconv.Atoi(f[0])
	res.MaxRows, e2 = strconv.ParseInt(f[2], 10, 64)
	res.TotSecs, e3 = strconv.ParseInt(f[4], 10, 64)
	if e1 != nil || e2 != nil || e3 != nil {
		errs.add(name, 1, "processes, rows-per-process and seconds must be integers")
		valid = false
	} else if err := firstError(Plausible(Count, float64(res.RealDop)), Plausible(Count, float64(res.MaxRows)), Plausible(Duration, float64(res.TotSecs))); err != nil {
		errs.add(name, 1, "%v", err)
		res.RealDop, res.MaxRows, res.TotSecs = 0, 0, 0
		valid = false
	}
	for _, rate := range []string{f[6], f[8]} {
		if v, ok := number(rate); !ok || Plausible(Rate, v) != nil {
			errs.add(name, 1, "rate %q is not a plausible number of rows per second", rate)
			f[6], f[8] = "", ""
			valid = false
			break
		}
	}
	res.Valid = valid
	res.InsertRate, res.InsertPer = f[6], f[8]
	if len(f) >= 14 && f[11] == "queries," && strings.HasPrefix(f[13], "queries-per-second") {
		res.TotalQuery, _ = strconv.ParseInt(f[10], 10, 64)
		res.QueryRate = f[12]
		if v, ok := number(res.QueryRate); !ok || Plausible(Rate, v) != nil || Plausible(Count, float64(res.TotalQuery)) != nil {
			errs.add(name, 1, "queries %q at %q per second are not plausible", f[10], f[12])
			res.TotalQuery, res.QueryRate = 0, ""
		}
	}
	if len(f) >= 16 && f[15] == "deletes" {
		res.Deletes = f[14]
	}
	return res, errs.inOrder().Err()
}

// Line returns line n (1-based) or "" when the file is shorter, which is what
// `head -n | tail -1` gave etl.sh for most purposes.
func (r *Res) Line(n int) string {
	if n < 1 || n > len(r.Lines) {
		return ""
	}
	return r.Lines[n-1]
}

// DBSize is the content of o.dbsz.dop<D> (GiB as printed by the DBMS probe)
// or of o.dbdirsz.dop<D> ("bytes<TAB>path" from du -bs).
type DBSize struct {
	Name  string
	Value float64 // GiB for o.dbsz, bytes for o.dbdirsz
	Path  string  // o.dbdirsz only
	// OK reports that the file held a size; Value is 0 otherwise.
	OK bool
}

// ReadDBSize reads a one-line size file.
func ReadDBSize(r io.Reader, name string) (*DBSize, error) {
	d := &DBSize{Name: name}
	var errs ErrorList
	sc := newLineScanner(r)
	defer sc.release()
	for sc.Scan() {
		if sc.long || binaryJunk(sc.Text()) {
			errs.add(name, sc.n, "binary data or overlong line")
			continue
		}
		f := fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		if d.OK {
			errs.add(name, sc.n, "extra line in a size file")
			continue
		}
		v, ok := number(f[0])
		if !ok {
			errs.add(name, sc.n, "size %q is not a number", f[0])
			continue
		}
		if err := Plausible(Size, v); err != nil {
			errs.add(name, sc.n, "size: %v", err)
			continue
		}
		d.Value, d.OK = v, true
		if len(f) > 1 {
			d.Path = strings.Join(f[1:], " ")
		}
	}
	if err := sc.Err(); err != nil {
		return d, err
	}
	if !d.OK && len(errs) == 0 {
		errs.add(name, 0, "empty file")
	}
	return d, errs.Err()
}
