package parse_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ibreport/ibreport/parse"
)

const (
	vmGroup   = "procs -----------memory---------- ---swap-- -----io---- -system-- ------cpu-----"
	vmCols    = " r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa st"
	vmGroupGu = "procs -----------memory---------- ---swap-- -----io---- -system-- -------cpu-------"
	vmColsGu  = " r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa st gu"
	vmColsOld = " r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa"

	vmRow1 = " 7  0      0 22157776  23960 2106196    0    0  3609  5721  605 1560  9  7 83  1  0"
	vmRow2 = " 3  0      0 22157776  23960 2106196    0    0    96 145424 3929 11773 45 20 26 10  0"
	vmRow3 = " 5  0      0 22157776  23960 2106196    0    0     8 207304 2960 8947 40 31 24  5  0"
)

// vmSample is the part of a VmstatSample the tables compare, as one string:
// "line:cs/us/sy/wa" with a trailing "*" for the since-boot row.
func vmSample(s parse.VmstatSample) string {
	boot := ""
	if s.SinceBoot {
		boot = "*"
	}
	return fmt.Sprintf("%d:%g/%g/%g/%g%s", s.Line, s.Cs, s.Us, s.Sy, s.Wa, boot)
}

type vmstatWant struct {
	columns       int
	samples       []string
	groupHeaders  int
	columnHeaders int
	lines         int
}

type vmstatCase struct {
	name     string
	input    string
	want     vmstatWant
	wantErrs []string
}

var vmstatCases = []vmstatCase{
	{
		name:  "one header pair",
		input: join(vmGroup, vmCols, vmRow1, vmRow2, vmRow3),
		want: vmstatWant{columns: 17, groupHeaders: 1, columnHeaders: 1, lines: 5,
			samples: []string{"3:1560/9/7/1*", "4:11773/45/20/10", "5:8947/40/31/5"}},
	},
	{
		name:  "repeated header pairs",
		input: join(vmGroup, vmCols, vmRow1, vmRow2, vmGroup, vmCols, vmRow3, vmRow2, vmGroup, vmCols, vmRow1),
		want: vmstatWant{columns: 17, groupHeaders: 3, columnHeaders: 3, lines: 11,
			samples: []string{"3:1560/9/7/1*", "4:11773/45/20/10", "7:8947/40/31/5", "8:11773/45/20/10", "11:1560/9/7/1"}},
	},
	{
		name: "procps 4.x with gu (18 columns)",
		input: join(vmGroupGu, vmColsGu,
			vmRow1+"  0",
			" 2  0      0 31043020   5152 495836    0    0     0    12 1215 2021 12  3 85  0  0  4"),
		want: vmstatWant{columns: 18, groupHeaders: 1, columnHeaders: 1, lines: 4,
			samples: []string{"3:1560/9/7/1*", "4:2021/12/3/0"}},
	},
	{
		name:  "gu header but a 17-column row",
		input: join(vmGroupGu, vmColsGu, vmRow1),
		want:  vmstatWant{columns: 18, groupHeaders: 1, columnHeaders: 1, lines: 3},
		wantErrs: []string{
			"test:3: 17 fields, the header has 18",
		},
	},
	{
		name:  "old vmstat without st",
		input: join(vmGroup, vmColsOld, strings.TrimSuffix(vmRow1, "  0")),
		want:  vmstatWant{columns: 16, groupHeaders: 1, columnHeaders: 1, lines: 3, samples: []string{"3:1560/9/7/1*"}},
	},
	{
		name:  "data before the header",
		input: join(vmRow1, vmGroup, vmCols, vmRow2),
		want: vmstatWant{columns: 17, groupHeaders: 1, columnHeaders: 1, lines: 4,
			samples: []string{"4:11773/45/20/10*"}},
		wantErrs: []string{"test:1: data line before the column header"},
	},
	{
		name:  "no header at all",
		input: join(vmRow1, vmRow2),
		want:  vmstatWant{lines: 2},
		wantErrs: []string{
			"test:1: data line before the column header",
			"test:2: data line before the column header",
			"test: no vmstat column header (a line with swpd)",
		},
	},
	{
		name:     "empty file",
		input:    "",
		wantErrs: []string{"test: empty file"},
	},
	{
		name: "non-numbers, NaN and inf",
		input: join(vmGroup, vmCols, vmRow1,
			strings.Replace(vmRow1, "1560", "x", 1),
			strings.Replace(strings.Replace(vmRow2, " 45 ", " nan ", 1), " 20 ", " bad ", 1),
			strings.Replace(vmRow3, " 31 ", " inf ", 1),
			strings.Replace(vmRow3, " 24  5  0", " 24  Inf  0", 1),
			vmRow2),
		want: vmstatWant{columns: 17, groupHeaders: 1, columnHeaders: 1, lines: 8,
			samples: []string{"3:1560/9/7/1*", "8:11773/45/20/10"}},
		wantErrs: []string{
			`test:4: column cs: "x" is not a number`,
			`test:5: column us: "nan" is not a number`,
			`test:6: column sy: "inf" is not a number`,
			`test:7: column wa: "Inf" is not a number`,
		},
	},
	{
		name:  "wrong field count, blank line and binary junk",
		input: join(vmGroup, vmCols, vmRow1, " 1 2 3", "", "  \t ", "\x00\x00\x00", vmRow2),
		want: vmstatWant{columns: 17, groupHeaders: 1, columnHeaders: 1, lines: 8,
			samples: []string{"3:1560/9/7/1*", "8:11773/45/20/10"}},
		wantErrs: []string{
			"test:4: 3 fields, the header has 17",
			"test:5: empty line",
			"test:6: empty line",
			"test:7: binary data or overlong line",
		},
	},
	{
		name:  "header without cs us sy",
		input: join("procs", " r  b   swpd   free", " 1  0  0  100"),
		want:  vmstatWant{columns: 4, groupHeaders: 1, columnHeaders: 1, lines: 3, samples: []string{"3:0/0/0/0*"}},
		wantErrs: []string{
			`test:2: vmstat header has no "cs" column`,
			`test:2: vmstat header has no "us" column`,
			`test:2: vmstat header has no "sy" column`,
		},
	},
	{
		name:  "columns are found by name",
		input: join(vmGroup, " wa sy us cs swpd", " 1 2 3 4 0"),
		want:  vmstatWant{columns: 5, groupHeaders: 1, columnHeaders: 1, lines: 3, samples: []string{"3:4/3/2/1*"}},
	},
}

func TestReadVmstat(t *testing.T) {
	for _, tc := range vmstatCases {
		t.Run(tc.name, func(t *testing.T) {
			v, err := parse.ReadVmstat(strings.NewReader(tc.input), testName)
			checkErrors(t, err, tc.wantErrs)
			if v == nil {
				t.Fatal("nil Vmstat")
			}
			var got []string
			for _, s := range v.Samples {
				got = append(got, vmSample(s))
			}
			w := tc.want
			if v.Name != testName {
				t.Errorf("Name = %q", v.Name)
			}
			if !slices.Equal(got, w.samples) {
				t.Errorf("samples = %v, want %v", got, w.samples)
			}
			if len(v.Columns) != w.columns {
				t.Errorf("%d columns (%q), want %d", len(v.Columns), v.Columns, w.columns)
			}
			if v.GroupHeaders != w.groupHeaders || v.ColumnHeaders != w.columnHeaders {
				t.Errorf("headers %d/%d, want %d/%d", v.GroupHeaders, v.ColumnHeaders, w.groupHeaders, w.columnHeaders)
			}
			if v.Lines != w.lines {
				t.Errorf("Lines = %d, want %d", v.Lines, w.lines)
			}
		})
	}
}

func TestReadVmstatGuColumnNames(t *testing.T) {
	v, err := parse.ReadVmstat(strings.NewReader(join(vmGroupGu, vmColsGu)), testName)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Fields(vmColsGu)
	if !slices.Equal(v.Columns, want) || v.Columns[17] != "gu" {
		t.Errorf("Columns = %q, want %q", v.Columns, want)
	}
}

// The first data row of vmstat holds the averages since boot (FORMATS.md
// §3.2), and VmstatSample.SinceBoot is documented as "the first data row".
// When that row is malformed and skipped, the next row is a real interval and
// must not be flagged, or consumers that drop the since-boot row lose it.
// Regression test: ReadVmstat flagged the first accepted row instead.
func TestReadVmstatSinceBootIsTheFirstDataRow(t *testing.T) {
	input := join(vmGroup, vmCols, strings.Replace(vmRow1, "1560", "x", 1), vmRow2, vmRow3)
	v, err := parse.ReadVmstat(strings.NewReader(input), testName)
	checkErrors(t, err, []string{`test:3: column cs: "x" is not a number`})
	for _, s := range v.Samples {
		if s.SinceBoot {
			t.Errorf("line %d is flagged SinceBoot, but the since-boot row was line 3", s.Line)
		}
	}
}

// FORMATS.md Appendix D: the vmstat parser must detect non-numeric data
// lines. Regression test: ReadVmstat checked only cs, us, sy and wa, so a row
// whose other columns were garbage was accepted as a sample.
func TestReadVmstatRejectsNonNumericUnusedColumn(t *testing.T) {
	input := join(vmGroup, vmCols, vmRow1, strings.Replace(vmRow2, "22157776", "oops", 1), vmRow3)
	v, err := parse.ReadVmstat(strings.NewReader(input), testName)
	if !hasErrorAt(err, 4) {
		t.Errorf("no error for line 4 whose free column is %q; errors: %v", "oops", err)
	}
	for _, s := range v.Samples {
		if s.Line == 4 {
			t.Errorf("line 4 accepted as a sample: %+v", s)
		}
	}
}

// TestErrorsBounded: a file of junk lists at most MaxErrors syntax errors
// and one whole-file error saying the rest were skipped, not one per line.
func TestErrorsBounded(t *testing.T) {
	for _, n := range []int{parse.MaxErrors - 1, parse.MaxErrors, parse.MaxErrors + 1, 5 * parse.MaxErrors} {
		in := vmGroup + "\n" + vmCols + "\n" + vmRow1 + "\n" + strings.Repeat("x y z\n", n) + vmRow2 + "\n"
		v, err := parse.ReadVmstat(strings.NewReader(in), "o.vm")
		errs := parse.SyntaxErrors(err)
		want := min(n, parse.MaxErrors)
		if n > parse.MaxErrors {
			want++
		}
		if len(errs) != want {
			t.Fatalf("%d junk lines: %d errors, want %d", n, len(errs), want)
		}
		if n > parse.MaxErrors {
			last := errs[len(errs)-1]
			if last.Line != 0 || !strings.Contains(last.Msg, fmt.Sprintf("from line %d on skipped", 3+parse.MaxErrors+1)) {
				t.Errorf("%d junk lines: last error %q", n, last)
			}
		}
		if v == nil || len(v.Samples) != 2 {
			t.Errorf("%d junk lines: samples %v, want the 2 good rows", n, v)
		}
	}
}
