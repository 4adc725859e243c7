package parse_test

import (
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/ibreport/ibreport/parse"
)

// readerSpec describes one reader for the tests that every reader must pass.
type readerSpec struct {
	name   string
	read   func(io.Reader, string) (any, error)
	inputs func() []string // the inputs of the reader's table test
	// good is a well-formed input of several lines.
	good string
	// long builds an input whose line longLine is longer than 1 MiB; kept
	// checks that the lines after it were read. longMsg is the expected error
	// ("" when the reader ignores the line).
	long     func(longPart string) string
	longLine int
	longMsg  string
	kept     func(t *testing.T, v any)
}

func wrap[T any](f func(io.Reader, string) (*T, error)) func(io.Reader, string) (any, error) {
	return func(r io.Reader, name string) (any, error) { return f(r, name) }
}

func inputsOf[C any](cases []C, input func(C) string) func() []string {
	return func() []string {
		var out []string
		for _, c := range cases {
			out = append(out, input(c))
		}
		return out
	}
}

func readerSpecs() []readerSpec {
	return []readerSpec{
		{
			name:     "ReadClientLog",
			read:     wrap(parse.ReadClientLog),
			inputs:   inputsOf(clientCases, func(c clientCase) string { return c.input }),
			good:     client17,
			long:     func(l string) string { return join(cmdLine, hdr17, stat17a, l, stat17b, insHdr, insData, "Done") },
			longLine: 4,
			longMsg:  fmt.Sprintf("test:4: line longer than %d bytes", maxLine),
			kept: func(t *testing.T, v any) {
				c := v.(*parse.ClientLog)
				if !slices.Equal(intervalLines(c), []int{3, 5}) || !c.Done || c.Hist(parse.Insert) == nil || c.Lines != 8 {
					t.Errorf("intervals %v, Done %v, Lines %d", intervalLines(c), c.Done, c.Lines)
				}
			},
		},
		{
			name:     "ReadVmstat",
			read:     wrap(parse.ReadVmstat),
			inputs:   inputsOf(vmstatCases, func(c vmstatCase) string { return c.input }),
			good:     vmstatCases[1].input,
			long:     func(l string) string { return join(vmGroup, vmCols, vmRow1, l, vmRow2, vmGroup, vmCols, vmRow3) },
			longLine: 4,
			longMsg:  "test:4: binary data or overlong line",
			kept: func(t *testing.T, v any) {
				var lines []int
				for _, s := range v.(*parse.Vmstat).Samples {
					lines = append(lines, s.Line)
				}
				if !slices.Equal(lines, []int{3, 5, 8}) {
					t.Errorf("sample lines %v, want [3 5 8]", lines)
				}
			},
		},
		{
			name:   "ReadIostat",
			read:   wrap(parse.ReadIostat),
			inputs: inputsOf(iostatCases, func(c iostatCase) string { return c.input }),
			good:   iostatCases[6].input,
			long: func(l string) string {
				return join(ioBanner, "", "", ioAvgHdr, l, "", ioHdrUB22, ioRowUB22, ub22Row("vdb", 1, 2, 3, 4))
			},
			longLine: 5,
			longMsg:  "test:5: binary data or overlong line",
			kept: func(t *testing.T, v any) {
				s := v.(*parse.Iostat)
				if len(s.Rows) != 2 || s.Rows[1].Line != 9 || s.Layout != parse.UB22 || s.CPUs != 2 {
					t.Errorf("rows %+v, layout %q, CPUs %d", s.Rows, s.Layout, s.CPUs)
				}
			},
		},
		{
			name:     "ReadPs",
			read:     wrap(parse.ReadPs),
			inputs:   inputsOf(psCases, func(c psCase) string { return c.input }),
			good:     psCases[2].input,
			long:     func(l string) string { return join(psPg1, l, psPg2) },
			longLine: 2,
			longMsg:  "test:2: binary data or overlong line",
			kept: func(t *testing.T, v any) {
				p := v.(*parse.PsSamples)
				if len(p.Rows) != 2 || p.Rows[1].Line != 3 || p.Rows[1].PID != 11026 {
					t.Errorf("rows %+v", p.Rows)
				}
			},
		},
		{
			name:     "ReadTime",
			read:     wrap(parse.ReadTime),
			inputs:   inputsOf(timeCases, func(c timeCase) string { return c.input }),
			good:     timeCases[1].input,
			long:     func(l string) string { return join(l, timeLine1, timeLine2) },
			longLine: 1,
			longMsg:  "", // ReadTime skips every line that is not the time line
			kept: func(t *testing.T, v any) {
				tm := v.(*parse.Time)
				if tm.Line != 2 || tm.User != 5.17 || tm.Elapsed != 42.15 {
					t.Errorf("time %+v", tm)
				}
			},
		},
		{
			name:     "ReadRes",
			read:     wrap(parse.ReadRes),
			inputs:   inputsOf(resCases, func(c resCase) string { return c.input }),
			good:     resCases[0].input,
			long:     func(l string) string { return join(resLine1, l, "dbGB\t0.708") },
			longLine: 2,
			longMsg:  "test:2: binary data or overlong line",
			kept: func(t *testing.T, v any) {
				r := v.(*parse.Res)
				if len(r.Lines) != 3 || r.Line(3) != "dbGB\t0.708" || r.RealDop != 2 {
					t.Errorf("%d lines, line 3 %q, RealDop %d", len(r.Lines), r.Line(3), r.RealDop)
				}
			},
		},
		{
			name:     "ReadDBSize",
			read:     wrap(parse.ReadDBSize),
			inputs:   inputsOf(dbSizeCases, func(c dbSizeCase) string { return c.input }),
			good:     "\n1855920495\t../../pgdata.c1\n",
			long:     func(l string) string { return join("", "5\t"+l, "7\t/data") },
			longLine: 2,
			longMsg:  "test:2: binary data or overlong line",
			kept: func(t *testing.T, v any) {
				if d := v.(*parse.DBSize); d.Value != 7 || d.Path != "/data" {
					t.Errorf("size %+v, want the line after the long one", d)
				}
			},
		},
		{
			name:     "ReadTable",
			read:     wrap(parse.ReadTable),
			inputs:   inputsOf(tableCases, func(c tableCase) string { return c.input }),
			good:     tableCases[0].input,
			long:     func(l string) string { return join(tblHeader, tblRow1, l, tblRow2) },
			longLine: 3,
			longMsg:  "test:3: binary data or overlong line",
			kept: func(t *testing.T, v any) {
				if got := tableShape(v.(*parse.Table)); !slices.Equal(got, []string{"1H4", "2R4", "4R4"}) {
					t.Errorf("shape %v", got)
				}
			},
		},
	}
}

// readAll runs a reader and returns its result and error messages.
func readAll(t *testing.T, spec readerSpec, r io.Reader) (any, []string) {
	t.Helper()
	v, err := spec.read(r, testName)
	if v == nil || reflect.ValueOf(v).IsNil() {
		t.Fatalf("%s returned a nil result", spec.name)
	}
	return v, errorMessages(t, err)
}

func TestReadersReturnIOErrors(t *testing.T) {
	for _, spec := range readerSpecs() {
		t.Run(spec.name, func(t *testing.T) {
			for _, tc := range []struct {
				name string
				r    io.Reader
				want error
			}{
				{"at the start", iotest.ErrReader(errBoom), errBoom},
				{"midway", io.MultiReader(strings.NewReader(spec.good[:len(spec.good)/2]), iotest.ErrReader(errBoom)), errBoom},
				{"after the last newline", io.MultiReader(strings.NewReader(spec.good), iotest.ErrReader(errBoom)), errBoom},
				{"timeout", iotest.TimeoutReader(strings.NewReader(strings.Repeat(spec.good, 20000))), iotest.ErrTimeout},
			} {
				v, err := spec.read(tc.r, testName)
				if err != tc.want {
					t.Errorf("%s: err = %v (%T), want the I/O error itself", tc.name, err, err)
				}
				if parse.SyntaxErrors(err) != nil {
					t.Errorf("%s: the I/O error is reported as syntax errors", tc.name)
				}
				if v == nil || reflect.ValueOf(v).IsNil() {
					t.Errorf("%s: nil result", tc.name)
				}
			}
		})
	}
}

// The result must not depend on how the input is cut into reads.
func TestReadersSplitReads(t *testing.T) {
	for _, spec := range readerSpecs() {
		t.Run(spec.name, func(t *testing.T) {
			for i, input := range append(spec.inputs(), spec.good) {
				want, wantErrs := readAll(t, spec, strings.NewReader(input))
				for _, wr := range []struct {
					name string
					r    io.Reader
				}{
					{"OneByteReader", iotest.OneByteReader(strings.NewReader(input))},
					{"HalfReader", iotest.HalfReader(strings.NewReader(input))},
					{"DataErrReader", iotest.DataErrReader(strings.NewReader(input))},
				} {
					got, gotErrs := readAll(t, spec, wr.r)
					if !reflect.DeepEqual(got, want) || !slices.Equal(gotErrs, wantErrs) {
						t.Errorf("input %d via %s:\n got %+v %q\nwant %+v %q", i, wr.name, got, gotErrs, want, wantErrs)
					}
				}
			}
		})
	}
}

func TestReadersCRLF(t *testing.T) {
	for _, spec := range readerSpecs() {
		t.Run(spec.name, func(t *testing.T) {
			for i, input := range append(spec.inputs(), spec.good) {
				want, wantErrs := readAll(t, spec, strings.NewReader(input))
				crlf := strings.ReplaceAll(input, "\n", "\r\n")
				got, gotErrs := readAll(t, spec, strings.NewReader(crlf))
				if !reflect.DeepEqual(got, want) || !slices.Equal(gotErrs, wantErrs) {
					t.Errorf("input %d with CRLF:\n got %+v %q\nwant %+v %q", i, got, gotErrs, want, wantErrs)
				}
			}
		})
	}
}

func TestReadersLongLine(t *testing.T) {
	long := strings.Repeat("x", maxLine+4096)
	for _, spec := range readerSpecs() {
		if spec.long == nil {
			continue
		}
		t.Run(spec.name, func(t *testing.T) {
			for _, variant := range []string{long, long + "\r", "\x00" + long[1:]} {
				v, err := spec.read(strings.NewReader(spec.long(variant)), testName)
				msgs := errorMessages(t, err)
				if spec.longMsg != "" && !hasErrorAt(err, spec.longLine) {
					t.Errorf("no error at line %d", spec.longLine)
				}
				if spec.longMsg == "" {
					if len(msgs) != 0 {
						t.Errorf("errors %q, want none", msgs)
					}
				} else if !slices.Equal(msgs, []string{spec.longMsg}) {
					t.Errorf("errors %.200q, want [%q]", msgs, spec.longMsg)
				}
				spec.kept(t, v)
			}
		})
	}
}

// Regression test: ReadDBSize did not check for overlong lines, so a size
// line longer than 1 MiB was cut at 1 MiB and the cut text was taken as the
// value and the path, without any error.
func TestReadDBSizeReportsLongLine(t *testing.T) {
	path := "/data/" + strings.Repeat("p", maxLine+100)
	input := "1855920495\t" + path + "\n"
	d, err := parse.ReadDBSize(strings.NewReader(input), testName)
	if !hasErrorAt(err, 1) {
		t.Errorf("no error for the %d-byte line 1; got Value %v and a %d-byte Path (the file has %d)",
			len(input)-1, d.Value, len(d.Path), len(path))
	}
}

// A line of exactly maxLine bytes is the longest line a reader accepts
// (lines.go). Regression test: the limit used to apply to the line plus its
// terminator, so the same line was accepted at the end of the file and
// rejected when a "\n" or "\r\n" followed it.
func TestLongLineLimitExcludesTerminator(t *testing.T) {
	for _, tc := range []struct {
		name string
		line string
		ok   bool
	}{
		{"maxLine bytes, no terminator", strings.Repeat("a", maxLine), true},
		{"maxLine bytes, LF", strings.Repeat("a", maxLine) + "\n", true},
		{"maxLine bytes, CRLF", strings.Repeat("a", maxLine) + "\r\n", true},
		{"maxLine-1 bytes, CRLF", strings.Repeat("a", maxLine-1) + "\r\n", true},
		{"maxLine+1 bytes, no terminator", strings.Repeat("a", maxLine+1), false},
		{"maxLine+1 bytes, LF", strings.Repeat("a", maxLine+1) + "\n", false},
	} {
		r, err := parse.ReadRes(strings.NewReader(resLine1+"\n"+tc.line), testName)
		reported := hasErrorAt(err, 2)
		if reported == tc.ok {
			t.Errorf("%s: reported as overlong = %v, want %v", tc.name, reported, !tc.ok)
		}
		if tc.ok && len(r.Line(2)) != len(strings.TrimRight(tc.line, "\r\n")) {
			t.Errorf("%s: line 2 has %d bytes", tc.name, len(r.Line(2)))
		}
	}
}

func TestPosAndErrorList(t *testing.T) {
	if s := (parse.Pos{File: "a/b", Line: 0}).String(); s != "a/b" {
		t.Errorf("Pos line 0 = %q", s)
	}
	if s := (parse.Pos{File: "a/b", Line: 7}).String(); s != "a/b:7" {
		t.Errorf("Pos line 7 = %q", s)
	}
	e1 := &parse.SyntaxError{Pos: parse.Pos{File: "f", Line: 1}, Msg: "one"}
	e2 := &parse.SyntaxError{Pos: parse.Pos{File: "f"}, Msg: "two"}
	if e1.Error() != "f:1: one" || e2.Error() != "f: two" {
		t.Errorf("SyntaxError texts %q %q", e1.Error(), e2.Error())
	}
	for _, tc := range []struct {
		l    parse.ErrorList
		want string
	}{
		{nil, "no errors"},
		{parse.ErrorList{e1}, "f:1: one"},
		{parse.ErrorList{e1, e2}, "f:1: one\nf: two"},
	} {
		if got := tc.l.Error(); got != tc.want {
			t.Errorf("ErrorList%v.Error() = %q, want %q", tc.l, got, tc.want)
		}
	}
	if err := (parse.ErrorList{}).Err(); err != nil {
		t.Errorf("empty ErrorList.Err() = %v, want nil", err)
	}
	if err := (parse.ErrorList(nil)).Err(); err != nil {
		t.Errorf("nil ErrorList.Err() = %v, want nil", err)
	}
	if err := (parse.ErrorList{e1}).Err(); err == nil {
		t.Error("non-empty ErrorList.Err() = nil")
	}

	list := parse.ErrorList{e1, e2}
	for _, tc := range []struct {
		name string
		err  error
		want parse.ErrorList
	}{
		{"nil", nil, nil},
		{"plain", errBoom, nil},
		{"list", list, list},
		{"wrapped list", fmt.Errorf("reading: %w", list.Err()), list},
		{"single", e1, parse.ErrorList{e1}},
		{"wrapped single", fmt.Errorf("x: %w", e2), parse.ErrorList{e2}},
		{"joined", errors.Join(errBoom, e1), parse.ErrorList{e1}},
	} {
		if got := parse.SyntaxErrors(tc.err); !slices.Equal(got, tc.want) {
			t.Errorf("SyntaxErrors(%s) = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// ErrorList "holds every SyntaxError of one read, in input order" (pos.go).
// Regression test: ReadRes checks line 1 after the scan, and ReadTable
// reports a missing header at line 1 after the scan, so an error at line 1
// used to follow one at a later line. (Found by FuzzReadRes and
// FuzzReadTable; the inputs are kept in testdata/fuzz.)
func TestErrorsAreInInputOrder(t *testing.T) {
	for _, tc := range []struct {
		name  string
		read  func(io.Reader, string) (any, error)
		input string
	}{
		{"ReadRes", wrap(parse.ReadRes), "Cannot parse: Device tps\n\x00\x00\n"},
		{"ReadRes/fuzz", wrap(parse.ReadRes), "\n\x00"},
		{"ReadTable", wrap(parse.ReadTable), "mrg.l.i0\n\x00\x00\n"},
		{"ReadTable/fuzz", wrap(parse.ReadTable), "\n\xd8"},
	} {
		_, err := tc.read(strings.NewReader(tc.input), testName)
		prev := 0
		for _, e := range parse.SyntaxErrors(err) {
			if e.Line > 0 && e.Line < prev {
				t.Errorf("%s: errors out of input order: %q", tc.name, errorMessages(t, err))
				break
			}
			prev = max(prev, e.Line)
		}
		if len(parse.SyntaxErrors(err)) < 2 {
			t.Errorf("%s: errors %v, want two", tc.name, err)
		}
	}
}
