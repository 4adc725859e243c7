package parse_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ibreport/ibreport/parse"
)

const (
	ioBanner  = "Linux 6.18.44-fc-v669 (vm) \t11/29/26 \t_x86_64_\t(2 CPU)"
	ioAvgHdr  = "avg-cpu:  %user   %nice %system %iowait  %steal   %idle"
	ioAvgVals = "          45.21    0.00   19.68    9.57    0.00   25.53"

	ioHdrUB16 = "Device:         rrqm/s   wrqm/s     r/s     w/s    rkB/s    wkB/s avgrq-sz avgqu-sz   await r_await w_await  svctm  %util"
	ioHdrUB18 = "Device            r/s     w/s     rkB/s     wkB/s   rrqm/s   wrqm/s  %rrqm  %wrqm r_await w_await aqu-sz rareq-sz wareq-sz  svctm  %util"
	ioHdrUB20 = "Device            r/s     rkB/s   rrqm/s  %rrqm r_await rareq-sz     w/s     wkB/s   wrqm/s  %wrqm w_await wareq-sz     d/s     dkB/s   drqm/s  %drqm d_await dareq-sz  aqu-sz  %util"
	ioHdrUB22 = "Device            r/s     rkB/s   rrqm/s  %rrqm r_await rareq-sz     w/s     wkB/s   wrqm/s  %wrqm w_await wareq-sz     d/s     dkB/s   drqm/s  %drqm d_await dareq-sz     f/s f_await  aqu-sz  %util"
	ioHdrNoX  = "Device             tps    kB_read/s    kB_wrtn/s    kB_dscd/s    kB_read    kB_wrtn    kB_dscd"

	ioRowUB22 = "vda             11.00     96.00    13.00  54.17    1.36     8.73 2178.00 144652.00   116.00   5.06    0.95    66.42    9.00     36.00     0.00   0.00    0.67     4.00  811.00    0.07    2.15  23.60"
)

// ub22Row returns a ub22 device row with the given r/s, rkB/s, w/s and wkB/s;
// the other 18 columns are small distinct numbers.
func ub22Row(dev string, rs, rkb, ws, wkb float64) string {
	vals := make([]string, 22)
	for i := range vals {
		vals[i] = fmt.Sprintf("%d.%02d", i, i)
	}
	vals[0] = fmt.Sprintf("%.2f", rs)
	vals[1] = fmt.Sprintf("%.2f", rkb)
	vals[6] = fmt.Sprintf("%.2f", ws)
	vals[7] = fmt.Sprintf("%.2f", wkb)
	return fmt.Sprintf("%-12s %s", dev, strings.Join(vals, " "))
}

// ioInterval is one interval of `iostat -y -kx` output: two blank lines, the
// avg-cpu block, a blank line, the Device header and the device rows.
func ioInterval(hdr string, rows ...string) []string {
	out := []string{"", "", ioAvgHdr, ioAvgVals, "", hdr}
	return append(out, rows...)
}

func ioFile(parts ...[]string) string {
	lines := []string{ioBanner}
	for _, p := range parts {
		lines = append(lines, p...)
	}
	return join(lines...)
}

type iostatWant struct {
	layout    parse.IostatLayout
	cpus      int
	rows      []string // "<line>:<device>:<number of values>"
	intervals int
	headerLen int
	col       [4]int // RS, WS, RKB, WKB
	devices   []string
	busiest   string
	lines     int
}

type iostatCase struct {
	name     string
	input    string
	want     iostatWant
	wantErrs []string
}

var iostatCases = []iostatCase{
	{
		name:  "ub22, one device, two intervals",
		input: ioFile(ioInterval(ioHdrUB22, ioRowUB22), ioInterval(ioHdrUB22, ub22Row("vda", 1, 8, 1211, 207856))),
		want: iostatWant{layout: parse.UB22, cpus: 2, rows: []string{"8:vda:22", "15:vda:22"}, intervals: 2,
			headerLen: 22, col: [4]int{0, 6, 1, 7}, devices: []string{"vda"}, busiest: "vda", lines: 15},
	},
	{
		name: "ub16 with Device: and 96 CPUs",
		input: join("Linux 4.4.0-210-generic (host) \t03/05/2019 \t_x86_64_\t(96 CPU)", "", ioHdrUB16,
			"nvme0n1           0.00     3.00   10.00  200.00    40.00  8000.00    76.57     0.10    0.50    0.20    0.52   0.05   1.10"),
		want: iostatWant{layout: parse.UB16, cpus: 96, rows: []string{"4:nvme0n1:13"}, intervals: 1,
			headerLen: 13, col: [4]int{2, 3, 4, 5}, devices: []string{"nvme0n1"}, busiest: "nvme0n1", lines: 4},
	},
	{
		name: "ub18",
		input: join(ioBanner, "", ioHdrUB18,
			"md2             10.00  200.00    40.00  8000.00     0.00     3.00   0.00   1.48    0.20    0.52   0.10     4.00    40.00   0.05   1.10"),
		want: iostatWant{layout: parse.UB18, cpus: 2, rows: []string{"4:md2:15"}, intervals: 1,
			headerLen: 15, col: [4]int{0, 1, 2, 3}, devices: []string{"md2"}, busiest: "md2", lines: 4},
	},
	{
		name: "ub20",
		input: join(ioBanner, "", ioHdrUB20,
			"sda   1.00 2.00 3.00 4.00 5.00 6.00 7.00 8.00 9.00 10.00 11.00 12.00 13.00 14.00 15.00 16.00 17.00 18.00 19.00 20.00"),
		want: iostatWant{layout: parse.UB20, cpus: 2, rows: []string{"4:sda:20"}, intervals: 1,
			headerLen: 20, col: [4]int{0, 6, 1, 7}, devices: []string{"sda"}, busiest: "sda", lines: 4},
	},
	{
		name: "unknown layout without the needed columns",
		input: join(ioBanner, "", ioHdrNoX,
			"vda              29.00       100.00      3000.00         0.00        100       3000          0"),
		want: iostatWant{cpus: 2, rows: []string{"4:vda:7"}, intervals: 1, headerLen: 7,
			col: [4]int{-1, -1, -1, -1}, devices: []string{"vda"}, busiest: "", lines: 4},
		wantErrs: []string{
			"test:3: unknown iostat column layout: Device tps kB_read/s kB_wrtn/s kB_dscd/s kB_read kB_wrtn kB_dscd",
			"test:3: iostat header lacks r/s, w/s, rkB/s or wkB/s (run iostat with -k -x)",
		},
	},
	{
		name:  "unknown layout, columns found by name",
		input: join(ioBanner, "", "Device w/s wkB/s r/s rkB/s", "vda 1 2 3 4", "vdb 1 20 3 4"),
		want: iostatWant{cpus: 2, rows: []string{"4:vda:4", "5:vdb:4"}, intervals: 1, headerLen: 4,
			col: [4]int{2, 0, 3, 1}, devices: []string{"vda", "vdb"}, busiest: "vdb", lines: 5},
		wantErrs: []string{"test:3: unknown iostat column layout: Device w/s wkB/s r/s rkB/s"},
	},
	{
		name: "two devices, the busiest one second",
		input: ioFile(
			ioInterval(ioHdrUB22, ub22Row("vda", 5, 100, 5, 100), ub22Row("nvme0n1", 1, 150, 1, 150)),
			ioInterval(ioHdrUB22, ub22Row("vda", 5, 100, 5, 0), ub22Row("nvme0n1", 1, 0, 1, 10))),
		want: iostatWant{layout: parse.UB22, cpus: 2, rows: []string{"8:vda:22", "9:nvme0n1:22", "16:vda:22", "17:nvme0n1:22"},
			intervals: 2, headerLen: 22, col: [4]int{0, 6, 1, 7}, devices: []string{"vda", "nvme0n1"}, busiest: "nvme0n1", lines: 17},
	},
	{
		name: "two devices tied, the first one wins",
		input: ioFile(ioInterval(ioHdrUB22,
			ub22Row("loop0", 0, 0, 0, 0), ub22Row("sdb", 0, 10, 0, 30), ub22Row("sda", 0, 30, 0, 10))),
		want: iostatWant{layout: parse.UB22, cpus: 2, rows: []string{"8:loop0:22", "9:sdb:22", "10:sda:22"},
			intervals: 1, headerLen: 22, col: [4]int{0, 6, 1, 7}, devices: []string{"loop0", "sdb", "sda"}, busiest: "sdb", lines: 10},
	},
	{
		name: "bad rows",
		input: ioFile(ioInterval(ioHdrUB22,
			"vda 1.00 2.00 3.00",                            // 8
			strings.Replace(ioRowUB22, "11.00", "nan", 1),   // 9
			strings.Replace(ioRowUB22, "144652.00", "x", 1), // 10
			strings.Replace(ioRowUB22, "23.60", "+Inf", 1),  // 11
			strings.Replace(ioRowUB22, "vda", "vdb", 1))),   // 12
		want: iostatWant{layout: parse.UB22, cpus: 2, rows: []string{"12:vdb:22"}, intervals: 1, headerLen: 22,
			col: [4]int{0, 6, 1, 7}, devices: []string{"vdb"}, busiest: "vdb", lines: 12},
		wantErrs: []string{
			"test:8: device vda: 3 values, the header has 22 columns",
			`test:9: device vda column r/s: "nan" is not a number`,
			`test:10: device vda column wkB/s: "x" is not a number`,
			`test:11: device vda column %util: "+Inf" is not a number`,
		},
	},
	{
		name: "a later header with another column count",
		input: ioFile(ioInterval(ioHdrUB22, ioRowUB22),
			ioInterval(ioHdrUB20, "vda 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20"),
			ioInterval(ioHdrUB22, ioRowUB22)),
		want: iostatWant{layout: parse.UB22, cpus: 2, rows: []string{"8:vda:22", "22:vda:22"}, intervals: 3, headerLen: 22,
			col: [4]int{0, 6, 1, 7}, devices: []string{"vda"}, busiest: "vda", lines: 22},
		wantErrs: []string{"test:14: Device header has 20 columns, the first one had 22"},
	},
	{
		name:     "empty file",
		input:    "",
		want:     iostatWant{col: [4]int{}},
		wantErrs: []string{"test: empty file"},
	},
	{
		name:     "no Device header",
		input:    join(ioBanner, "", ioAvgHdr, ioAvgVals),
		want:     iostatWant{cpus: 2, lines: 4},
		wantErrs: []string{"test: no Device header line"},
	},
	{
		name:  "banner without a CPU count, rows outside a device block",
		input: join("Linux 5.4.0 (host) \t01/01/20 \t_x86_64_", "vda 1 2 3 4", "", ioHdrUB22, ioRowUB22, ioAvgHdr, ioAvgVals, ioRowUB22),
		want: iostatWant{layout: parse.UB22, rows: []string{"5:vda:22"}, intervals: 1, headerLen: 22,
			col: [4]int{0, 6, 1, 7}, devices: []string{"vda"}, busiest: "vda", lines: 8},
	},
}

func TestReadIostat(t *testing.T) {
	for _, tc := range iostatCases {
		t.Run(tc.name, func(t *testing.T) {
			s, err := parse.ReadIostat(strings.NewReader(tc.input), testName)
			checkErrors(t, err, tc.wantErrs)
			if s == nil {
				t.Fatal("nil Iostat")
			}
			w := tc.want
			var rows []string
			for _, r := range s.Rows {
				rows = append(rows, fmt.Sprintf("%d:%s:%d", r.Line, r.Device, len(r.Values)))
			}
			if s.Name != testName {
				t.Errorf("Name = %q", s.Name)
			}
			if s.Layout != w.layout {
				t.Errorf("Layout = %q, want %q", s.Layout, w.layout)
			}
			if s.CPUs != w.cpus {
				t.Errorf("CPUs = %d, want %d", s.CPUs, w.cpus)
			}
			if !slices.Equal(rows, w.rows) {
				t.Errorf("rows = %v, want %v", rows, w.rows)
			}
			if s.Intervals != w.intervals {
				t.Errorf("Intervals = %d, want %d", s.Intervals, w.intervals)
			}
			if len(s.Header) != w.headerLen {
				t.Errorf("header has %d columns, want %d", len(s.Header), w.headerLen)
			}
			if got := [4]int{s.Col.RS, s.Col.WS, s.Col.RKB, s.Col.WKB}; got != w.col {
				t.Errorf("Col = %v, want %v", got, w.col)
			}
			if got := s.Devices(); !slices.Equal(got, w.devices) {
				t.Errorf("Devices() = %v, want %v", got, w.devices)
			}
			hasRates := w.headerLen > 0 && w.col[0] >= 0 && w.col[1] >= 0 && w.col[2] >= 0 && w.col[3] >= 0
			if s.HasRates() != hasRates {
				t.Errorf("HasRates() = %v, want %v", s.HasRates(), hasRates)
			}
			if got := s.BusiestDevice(); got != w.busiest {
				t.Errorf("BusiestDevice() = %q, want %q", got, w.busiest)
			}
			if s.Lines != w.lines {
				t.Errorf("Lines = %d, want %d", s.Lines, w.lines)
			}
		})
	}
}

func TestReadIostatValues(t *testing.T) {
	s, err := parse.ReadIostat(strings.NewReader(ioFile(ioInterval(ioHdrUB22, ioRowUB22))), testName)
	if err != nil {
		t.Fatal(err)
	}
	r := s.Rows[0]
	got := []float64{r.Values[s.Col.RS], r.Values[s.Col.WS], r.Values[s.Col.RKB], r.Values[s.Col.WKB], r.Values[21]}
	if want := []float64{11, 2178, 96, 144652, 23.6}; !slices.Equal(got, want) {
		t.Errorf("r/s w/s rkB/s wkB/s %%util = %v, want %v", got, want)
	}
	if s.Header[0] != "r/s" || s.Header[21] != "%util" {
		t.Errorf("Header = %q", s.Header)
	}
}

func TestDetectIostatLayout(t *testing.T) {
	for _, tc := range []struct {
		hdr  string
		want parse.IostatLayout
		ok   bool
	}{
		{ioHdrUB16, parse.UB16, true},
		{ioHdrUB18, parse.UB18, true},
		{ioHdrUB20, parse.UB20, true},
		{ioHdrUB22, parse.UB22, true},
		{ioHdrNoX, "", false},
		{"Device", "", false},
		{"", "", false},
		// ub22 without f_await at 21 is neither ub20 (aqu-sz is at 22) nor ub22.
		{strings.Replace(ioHdrUB22, "f_await", "x_await", 1), "", false},
	} {
		got, ok := parse.DetectIostatLayout(strings.Fields(tc.hdr))
		if got != tc.want || ok != tc.ok {
			t.Errorf("DetectIostatLayout(%.40q...) = %q, %v; want %q, %v", tc.hdr, got, ok, tc.want, tc.ok)
		}
	}
}

// A SyntaxError "never means that the rest of the file was lost" (pos.go).
// Regression test: after a junk line inside a device block ReadIostat used to
// stop taking rows until the next Device header, so the well-formed row of
// the second device of the same interval vanished without an error.
func TestReadIostatKeepsRowsAfterJunkLine(t *testing.T) {
	input := ioFile(ioInterval(ioHdrUB22,
		ub22Row("vda", 1, 2, 3, 4),      // 8
		"vda  \x00\x00\x00\x00\x00\x00", // 9
		ub22Row("vdb", 5, 6, 7, 8)))     // 10
	s, err := parse.ReadIostat(strings.NewReader(input), testName)
	checkErrors(t, err, []string{"test:9: binary data or overlong line"})
	var lines []int
	for _, r := range s.Rows {
		lines = append(lines, r.Line)
	}
	if !slices.Equal(lines, []int{8, 10}) {
		t.Errorf("rows at lines %v, want [8 10]: the vdb row after the junk line was dropped", lines)
	}
}
