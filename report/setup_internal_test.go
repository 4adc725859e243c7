package report

import (
	"reflect"
	"strconv"
	"testing"
)

func TestTallyMain(t *testing.T) {
	secs := func(v int, main bool) string {
		if main {
			return itoa(v) + " s per test"
		}
		return itoa(v) + " s"
	}
	for _, c := range []struct {
		name string
		add  [][2]any // value, test
		want string
	}{
		{"none", nil, ""},
		{"one value", [][2]any{{600, "a"}, {600, "b"}}, "600 s per test"},
		{"not given", [][2]any{{0, "a"}, {600, "b"}}, "600 s per test"},
		{"most common first", [][2]any{{900, "w1"}, {600, "a"}, {600, "b"}, {600, "c"}, {900, "w2"}, {60, "s1"}, {60, "s2"}},
			"600 s per test (60 s: 2, 900 s: 2 tests)"},
		{"one test named", [][2]any{{600, "a"}, {600, "b"}, {1, "update-one"}}, "600 s per test (update-one: 1 s)"},
		{"tie: the smaller", [][2]any{{900, "a"}, {600, "b"}}, "600 s per test (a: 900 s)"},
		{"a test counts once", [][2]any{{900, "a"}, {900, "a"}, {900, "a"}, {600, "b"}, {600, "c"}}, "600 s per test (a: 900 s)"},
	} {
		var tl tally
		for _, a := range c.add {
			tl.add(a[0].(int), a[1].(string))
		}
		tl.sort()
		if got := tl.main(secs); got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

func TestConfigParts(t *testing.T) {
	for _, c := range []struct {
		names []string
		want  []string
	}{
		{[]string{"x.my5651_rel_o2nofp.z12a_c8r32.pk1", "x.my8043_rel_o2nofp.z12a_c8r32.pk1"}, nil},
		{[]string{"x.pg1222_o2nofp.x10a_c32r128.pk1", "x.pg177_o2nofp.x10a_c32r128.pk1", "x.pg180_o2nofp.x10b_c32r128.pk1", "x.pg181_o2nofp.x10b_c32r128.pk1", "x.pg176_o2nofp.x10a_c32r128.pk1"},
			[]string{"x10a", "x10b: 18.0, 18.1"}}, // the versions as the page shows them
		{[]string{"db.v1.k1", "db.v2.k1", "db.v3.k2"}, []string{"k1", "k2: v3"}},              // no release names: the parts as written
		{[]string{"x.pg180_o2nofp.x10b_c32r128.pk1", "x.pg180_o2nofp.x10c_c32r128.pk1"}, nil}, // one differing part: no version to tell
		{[]string{"pg15", "pg16.a"}, nil},
		{[]string{"pg15"}, nil},
	} {
		if got := configParts(c.names); !reflect.DeepEqual(got, c.want) {
			t.Errorf("configParts(%q) = %q, want %q", c.names, got, c.want)
		}
	}
}

func TestSetupSentence(t *testing.T) {
	mk := func(pairs ...int) tally {
		var tl tally
		for i := 0; i < len(pairs); i += 2 {
			for k := 0; k < pairs[i+1]; k++ {
				tl.add(pairs[i], "t"+itoa(i)+"."+itoa(k))
			}
		}
		tl.sort()
		return tl
	}
	for _, c := range []struct {
		name string
		f    setupFacts
		want string
	}{
		{"nothing", setupFacts{}, ""},
		{"host alone is no setup", setupFacts{CPUs: []int{8}}, ""},
		{"sysbench", setupFacts{CPUs: []int{8}, Versions: []string{"1.1.0"}, Device: "md0", Devices: 1, DBMS: 9, Tests: 38,
			Threads: []int{1}, Tables: mk(1, 38), TableSize: mk(50_000_000, 37, 1, 1), Seconds: mk(600, 28, 900, 8, 60, 2)},
			"8 CPUs, sysbench 1.1.0, device md0; 9 DBMS, 38 tests at 1 thread, 600 s per test (900 s: 8, 60 s: 2 tests), 1 table of 50M rows (t2.0: 1 row)"},
		{"mixed devices, configs", setupFacts{Device: "md0", Devices: 2, Configs: []string{"x10a", "x10b: pg180"}, DBMS: 2, Tests: 1, Threads: []int{8, 40},
			Tables: mk(8, 1), TableSize: mk(10_000_000, 1)},
			"device md0 (of 2: see Notes), config x10a (x10b: pg180); 2 DBMS, 1 test at 8, 40 threads, 8 tables of 10M rows"},
		{"insert benchmark", setupFacts{CPUs: []int{2}, Device: "vda", Devices: 1, IDBMS: 2, Clients: []int{1}, Rows: 2_500_000,
			Steps: []stepSecs{{"l.i0", 21}, {"l.x", 6}}, RWSecs: mk(31, 2, 32, 1)},
			"2 CPUs, device vda; 2 DBMS, 1 client, 2.5M rows loaded; l.i0 21 s, l.x 6 s, 3 query steps 31–32 s"},
	} {
		if got := c.f.sentence(); got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
}

func itoa(v int) string { return strconv.Itoa(v) }
