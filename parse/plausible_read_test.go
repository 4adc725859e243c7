package parse_test

import (
	"strings"
	"testing"

	"github.com/ibreport/ibreport/parse"
)

func TestPlausibleCPU(t *testing.T) {
	for _, c := range []struct {
		us, sy, id, wa, st float64
		want               string // a phrase of the error, "" for none
	}{
		{9, 7, 83, 1, 0, ""},
		{0, 0, 100, 0, 0, ""},
		{51, 50, 1, 0, 0, ""}, // us+sy 101: two columns rounded up
		{50, 50, 1, 1, 0, ""}, // total 102: rounding of five columns
		{90, 90, 0, 0, 0, "us+sy = 180 is more than 101"},
		{51, 51, 0, 0, 0, "us+sy = 102 is more than 101"},
		{50, 40, 10, 2, 1, "us+sy+id+wa+st = 103 is more than 102"},
		{0, 0, 200, 0, 0, "us+sy+id+wa+st = 200 is more than 102"},
	} {
		err := parse.PlausibleCPU(c.us, c.sy, c.id, c.wa, c.st)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%v: %v, want nil", c, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%v: %v, want %q", c, err, c.want)
		}
	}
}

func TestPlausibleUtil(t *testing.T) {
	for _, c := range []struct {
		v    float64
		want string
	}{
		{0, ""},
		{23.6, ""},
		{100, ""},
		{100.8, ""},
		{101, ""},
		{101.01, "%util 101.01 is more than 101, not a share of the interval"},
		{150, "%util 150 is more than 101"},
		{-1, "-1 is negative, not a rate"},
	} {
		err := parse.PlausibleUtil(c.v)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%g: %v, want nil", c.v, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%g: %v, want %q", c.v, err, c.want)
		}
	}
}

// TestVmstatImplausibleCPU checks that a sample whose CPU columns sum past
// what vmstat prints is handed over marked, on the fast and the general path
// of the reader, in ReadVmstat and ScanVmstat, with no syntax error: the
// original scripts used it, and the metrics decide.
func TestVmstatImplausibleCPU(t *testing.T) {
	const (
		busy     = " 3  0      0 22157776  23960 2106196    0    0    96 145424 3929 11773 90 90  0  0  0"
		busyExp  = " 3  0      0 22157776  23960 2106196    0    0    96 145424 3929 11773 9e1 90  0  0  0" // not a plain number: the general path
		total    = " 3  0      0 22157776  23960 2106196    0    0    96 145424 3929 11773 45 20 60  0  0"
		rounding = " 3  0      0 22157776  23960 2106196    0    0    96 145424 3929 11773 51 50  1  0  0"
		busyGu   = " 3  0      0 22157776  23960 2106196    0    0    96 145424 3929 11773 45 20 34  1  0 30"
	)
	for _, c := range []struct {
		name  string
		input string
		want  []string // per sample: its Implausible
	}{
		{"plausible", join(vmGroup, vmCols, vmRow1, vmRow2, rounding), []string{"", "", ""}},
		{"us+sy 180", join(vmGroup, vmCols, vmRow1, busy, vmRow3), []string{"", "us+sy = 180 is more than 101, not a percentage of the CPUs", ""}},
		{"us+sy 180, general path", join(vmGroup, vmCols, vmRow1, busyExp), []string{"", "us+sy = 180 is more than 101, not a percentage of the CPUs"}},
		{"sum 125", join(vmGroup, vmCols, vmRow1, total), []string{"", "us+sy+id+wa+st = 125 is more than 102, not a split of the CPUs' time"}},
		{"since-boot row", join(vmGroup, vmCols, busy, vmRow2), []string{"us+sy = 180 is more than 101, not a percentage of the CPUs", ""}},
		{"gu is not summed", join(vmGroupGu, vmColsGu, busyGu), []string{""}},
		{"no st column", join(vmGroup, vmColsOld, " 3  0      0 22157776  23960 2106196    0    0    96 145424 3929 11773 45 20 60  0"),
			[]string{"us+sy+id+wa+st = 125 is more than 102, not a split of the CPUs' time"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			v, err := parse.ReadVmstat(strings.NewReader(c.input), testName)
			checkErrors(t, err, nil)
			var scanned []string
			if _, err := parse.ScanVmstat(strings.NewReader(c.input), testName, func(s *parse.VmstatSample) {
				scanned = append(scanned, s.Implausible)
			}); err != nil {
				t.Fatal(err)
			}
			if len(v.Samples) != len(c.want) || len(scanned) != len(c.want) {
				t.Fatalf("%d samples, %d scanned; want %d", len(v.Samples), len(scanned), len(c.want))
			}
			for i, w := range c.want {
				if got := v.Samples[i].Implausible; got != w {
					t.Errorf("sample %d: Implausible %q, want %q", i, got, w)
				}
				if scanned[i] != w {
					t.Errorf("scanned sample %d: Implausible %q, want %q", i, scanned[i], w)
				}
			}
		})
	}
}

// TestIostatImplausibleUtil checks that a row with %util above MaxUtil is
// handed over marked, with no syntax error, in ReadIostat and ScanIostat.
func TestIostatImplausibleUtil(t *testing.T) {
	withUtil := func(util string) string {
		f := strings.Fields(ioRowUB22)
		f[len(f)-1] = util
		return strings.Join(f, " ")
	}
	for _, c := range []struct {
		name  string
		input string
		want  []string
	}{
		{"plausible", join(ioBanner, "", ioHdrUB22, withUtil("100.80"), withUtil("101.00")), []string{"", ""}},
		{"150", join(ioBanner, "", ioHdrUB22, ioRowUB22, withUtil("150.00"), ioRowUB22),
			[]string{"", "%util 150 is more than 101, not a share of the interval", ""}},
		{"150, general path", join(ioBanner, "", ioHdrUB22, withUtil("1.5e2")),
			[]string{"%util 150 is more than 101, not a share of the interval"}},
		{"ub18", join(ioBanner, "", ioHdrUB18, "vda 1 2 3 4 5 6 7 8 9 10 11 12 13 14 250"),
			[]string{"%util 250 is more than 101, not a share of the interval"}},
		{"no %util column", join(ioBanner, "", ioHdrNoX, "vda 1 2 3 4 500 6 7"), []string{""}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, err := parse.ReadIostat(strings.NewReader(c.input), testName)
			if c.name != "no %util column" {
				checkErrors(t, err, nil)
			}
			var scanned []string
			parse.ScanIostat(strings.NewReader(c.input), testName, func(_ *parse.Iostat, row *parse.IostatRow) {
				scanned = append(scanned, row.Implausible)
			})
			if len(s.Rows) != len(c.want) || len(scanned) != len(c.want) {
				t.Fatalf("%d rows, %d scanned; want %d", len(s.Rows), len(scanned), len(c.want))
			}
			for i, w := range c.want {
				if got := s.Rows[i].Implausible; got != w {
					t.Errorf("row %d: Implausible %q, want %q", i, got, w)
				}
				if scanned[i] != w {
					t.Errorf("scanned row %d: Implausible %q, want %q", i, scanned[i], w)
				}
			}
		})
	}
}
