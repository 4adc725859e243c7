package parse_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ibreport/ibreport/parse"
)

var (
	tblHeader = tab("ips", "qps", "maxop", "tag")
	tblRow1   = tab("139860", "0", "0.265", "my5649.cx6d")
	tblRow2   = tab("103093", "0", "0.005", "pg1110.cx5")
	tblRow3   = tab("85106", "0", "0.118", "my8022.cx6d")
)

func tableKind(k parse.TableLineKind) string {
	switch k {
	case parse.TableHeader:
		return "H"
	case parse.TableRow:
		return "R"
	case parse.TableBreak:
		return "B"
	case parse.TableOther:
		return "O"
	}
	return "?"
}

// tableShape is "<line><kind><cells>" for every kept line, e.g. "1H4".
func tableShape(t *parse.Table) []string {
	var out []string
	for _, l := range t.Lines {
		out = append(out, fmt.Sprintf("%d%s%d", l.Line, tableKind(l.Kind), len(l.Cells)))
	}
	return out
}

type tableCase struct {
	name     string
	input    string
	header   []string
	shape    []string
	wantErrs []string
}

var tableCases = []tableCase{
	{
		name:   "groups separated by -",
		input:  join(tblHeader, tblRow1, tblRow2, "-", tblRow3, tblRow1),
		header: []string{"ips", "qps", "maxop", "tag"},
		shape:  []string{"1H4", "2R4", "3R4", "4B1", "5R4", "6R4"},
	},
	{
		name:   "rows with wrong cell counts",
		input:  join(tblHeader, tblRow1, tab("1", "2", "x"), tblRow2+"\t", "139860 0 0.265 my5649.cx6d", tblRow3),
		header: []string{"ips", "qps", "maxop", "tag"},
		shape:  []string{"1H4", "2R4", "3O3", "4O5", "5O1", "6R4"},
		wantErrs: []string{
			"test:3: row has 3 cells, the header has 4",
			"test:4: row has 5 cells, the header has 4",
			"test:5: row has 1 cells, the header has 4",
		},
	},
	{
		name:   "empty cells are kept",
		input:  join(tblHeader, tab("100", "", "", "pg.c1")),
		header: []string{"ips", "qps", "maxop", "tag"},
		shape:  []string{"1H4", "2R4"},
	},
	{
		name:   "mrg.some layout: step names and repeated headers",
		input:  join("", "l.i0", tblHeader, tblRow1, "", "l.x", tblHeader, tblRow2),
		header: []string{"ips", "qps", "maxop", "tag"},
		shape:  []string{"1O1", "2O1", "3H4", "4R4", "5O1", "6O1", "7H4", "8R4"},
		wantErrs: []string{
			"test:6: row has 1 cells, the header has 4",
		},
	},
	{
		name:   "blank and whitespace lines after the header",
		input:  join(tblHeader, "", "  ", tblRow1),
		header: []string{"ips", "qps", "maxop", "tag"},
		shape:  []string{"1H4", "2O1", "3O1", "4R4"},
	},
	{
		name:     "no header",
		input:    join(tblRow1, "-", tblRow2),
		shape:    []string{"1O4", "2B1", "3O4"},
		wantErrs: []string{"test:1: no header line starting with ips"},
	},
	{
		name:     "empty file",
		input:    "",
		wantErrs: []string{"test: empty file"},
	},
	{
		name:     "binary junk is reported and dropped",
		input:    join(tblHeader, "\x00\x00\x00\x00", tblRow1),
		header:   []string{"ips", "qps", "maxop", "tag"},
		shape:    []string{"1H4", "3R4"},
		wantErrs: []string{"test:2: binary data or overlong line"},
	},
	{
		name:   "a dash with blanks is not a break",
		input:  join(tblHeader, " - ", "-"),
		header: []string{"ips", "qps", "maxop", "tag"},
		shape:  []string{"1H4", "2O1", "3B1"},
		wantErrs: []string{
			"test:2: row has 1 cells, the header has 4",
		},
	},
}

func TestReadTable(t *testing.T) {
	for _, tc := range tableCases {
		t.Run(tc.name, func(t *testing.T) {
			tb, err := parse.ReadTable(strings.NewReader(tc.input), testName)
			checkErrors(t, err, tc.wantErrs)
			if tb == nil {
				t.Fatal("nil Table")
			}
			if tb.Name != testName {
				t.Errorf("Name = %q", tb.Name)
			}
			if !slices.Equal(tb.Header, tc.header) {
				t.Errorf("Header = %q, want %q", tb.Header, tc.header)
			}
			if got := tableShape(tb); !slices.Equal(got, tc.shape) {
				t.Errorf("shape = %v, want %v", got, tc.shape)
			}
		})
	}
}

func TestReadTableCellsAndText(t *testing.T) {
	tb, err := parse.ReadTable(strings.NewReader(join(tblHeader, tab("100", "", "0.1", "pg.c1"))), testName)
	if err != nil {
		t.Fatal(err)
	}
	row := tb.Lines[1]
	if !slices.Equal(row.Cells, []string{"100", "", "0.1", "pg.c1"}) {
		t.Errorf("Cells = %q", row.Cells)
	}
	if row.Text != "100\t\t0.1\tpg.c1" {
		t.Errorf("Text = %q", row.Text)
	}
}
