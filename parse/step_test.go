package parse_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ibreport/ibreport/parse"
)

// currentSteps is the current generation's step list in report order.
var currentSteps = []string{"l.i0", "l.x", "l.i1", "l.i2", "qr100.L1", "qp100.L2", "qr500.L3", "qp500.L4", "qr1000.L5", "qp1000.L6"}

type stepNameCase struct {
	name string
	want parse.Step
	ok   bool
}

var stepNameCases = []stepNameCase{
	{"l.i0", parse.Step{Name: "l.i0", Kind: parse.Load, Seq: 0, MergeName: "l.i0"}, true},
	{"l.x", parse.Step{Name: "l.x", Kind: parse.CreateIndex, MergeName: "l.x"}, true},
	{"l.i1", parse.Step{Name: "l.i1", Kind: parse.Load, Seq: 1, MergeName: "l.i1"}, true},
	{"l.i2", parse.Step{Name: "l.i2", Kind: parse.Load, Seq: 2, MergeName: "l.i2"}, true},
	{"l.i1000", parse.Step{Name: "l.i1000", Kind: parse.Load, Seq: 1000, MergeName: "l.i1000"}, true},
	{"qr100.L1", parse.Step{Name: "qr100.L1", Kind: parse.ReadWriteRange, Rate: 100, Seq: 1, MergeName: "qr100.L1"}, true},
	{"qp100.L2", parse.Step{Name: "qp100.L2", Kind: parse.ReadWritePoint, Rate: 100, Seq: 2, MergeName: "qp100.L2"}, true},
	{"qp1000.L6", parse.Step{Name: "qp1000.L6", Kind: parse.ReadWritePoint, Rate: 1000, Seq: 6, MergeName: "qp1000.L6"}, true},
	// The directory name alone does not give the mrg name; ReadTree assigns it.
	{"q.L1.ips100", parse.Step{Name: "q.L1.ips100", Kind: parse.ReadWriteRange, Rate: 100, Seq: 1, MergeName: "q.L1.ips100"}, true},
	{"q.L12.ips1000", parse.Step{Name: "q.L12.ips1000", Kind: parse.ReadWriteRange, Rate: 1000, Seq: 12, MergeName: "q.L12.ips1000"}, true},
	{"q100.1", parse.Step{Name: "q100.1", Kind: parse.ReadWriteRange, Rate: 100, Seq: 1, MergeName: "q100.1"}, true},
	{"q1000.2", parse.Step{Name: "q1000.2", Kind: parse.ReadWriteRange, Rate: 1000, Seq: 2, MergeName: "q1000.2"}, true},
	{"", parse.Step{}, false},
	{"end", parse.Step{}, false},
	{"l.i", parse.Step{}, false},
	{"l.i1001", parse.Step{}, false},
	{"l.i-1", parse.Step{}, false},
	{"l.ix", parse.Step{}, false},
	{"L.X", parse.Step{}, false},
	{"l.x.1", parse.Step{}, false},
	{" l.i0", parse.Step{}, false},
	{"l.i0 ", parse.Step{}, false},
	{"qr100", parse.Step{}, false},
	{"qr100.L", parse.Step{}, false},
	{"qx100.L1", parse.Step{}, false},
	{"qr99999999999999999999.L1", parse.Step{}, false},
	{"q.L1", parse.Step{}, false},
	{"q.L1.ips", parse.Step{}, false},
	{"q.L99999999999999999999.ips100", parse.Step{}, false},
	{"q100", parse.Step{}, false},
	{"q100.", parse.Step{}, false},
	{"q100.99999999999999999999", parse.Step{}, false},
	{"o.res.dop2", parse.Step{}, false},
}

func TestParseStepName(t *testing.T) {
	for _, tc := range stepNameCases {
		got, ok := parse.ParseStepName(tc.name)
		if ok != tc.ok || got != tc.want {
			t.Errorf("ParseStepName(%q) = %+v, %v; want %+v, %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
}

func TestStepKind(t *testing.T) {
	for _, tc := range []struct {
		k    parse.StepKind
		s    string
		rw   bool
		name string
	}{
		{parse.Load, "load", false, "Load"},
		{parse.CreateIndex, "create index", false, "CreateIndex"},
		{parse.LoadWithDeletes, "load with deletes", false, "LoadWithDeletes"},
		{parse.ReadWriteRange, "read+write range", true, "ReadWriteRange"},
		{parse.ReadWritePoint, "read+write point", true, "ReadWritePoint"},
		{parse.StepKind(42), "kind42", false, "StepKind(42)"},
	} {
		if tc.k.String() != tc.s || tc.k.ReadWrite() != tc.rw {
			t.Errorf("%s: String %q ReadWrite %v, want %q %v", tc.name, tc.k.String(), tc.k.ReadWrite(), tc.s, tc.rw)
		}
	}
}

func parseSteps(t *testing.T, names []string) []parse.Step {
	t.Helper()
	steps := make([]parse.Step, len(names))
	for i, n := range names {
		s, ok := parse.ParseStepName(n)
		if !ok {
			t.Fatalf("ParseStepName(%q) failed", n)
		}
		steps[i] = s
	}
	return steps
}

func stepNames(steps []parse.Step) []string {
	out := make([]string, len(steps))
	for i, s := range steps {
		out[i] = s.Name
	}
	return out
}

func TestSortSteps(t *testing.T) {
	for _, want := range [][]string{
		currentSteps,
		{"l.i0", "l.x", "l.i1", "q.L1.ips100", "q.L2.ips500", "q.L3.ips1000"},
		{"l.i0", "l.x", "l.i1", "q.L1.ips100", "q.L2.ips100", "q.L3.ips200", "q.L4.ips200", "q.L9.ips800", "q.L10.ips800", "q.L11.ips1000", "q.L12.ips1000"},
		{"l.i0", "l.x", "l.i1", "q100.1", "q500.1", "q1000.1"},
		{"l.i0", "l.i00", "l.x", "l.i01", "l.i1"}, // equal keys fall back to the name
	} {
		rng := rand.New(rand.NewPCG(1, uint64(len(want))))
		for range 20 {
			names := slices.Clone(want)
			rng.Shuffle(len(names), func(i, j int) { names[i], names[j] = names[j], names[i] })
			steps := parseSteps(t, names)
			parse.SortSteps(steps)
			if got := stepNames(steps); !slices.Equal(got, want) {
				t.Errorf("SortSteps(%v) = %v, want %v", names, got, want)
				break
			}
		}
	}
}

func TestStepLessIsIrreflexive(t *testing.T) {
	for _, s := range parseSteps(t, append(slices.Clone(currentSteps), "q.L1.ips100", "q100.2")) {
		if s.Less(s) {
			t.Errorf("%s.Less(itself) = true", s.Name)
		}
	}
}

// In the Jun 2020 – Nov 2021 generation the read+write steps ran at rates
// 100 100 200 200 … and their mrg names are q100.1 q100.2 q200.1 q200.2 …
// (FORMATS.md §2.3): report order is by rate, then by the run number.
// Regression test: Step order() sorted q<R>.<n> by n first, which
// interleaved the rates: q100.1 q200.1 q100.2 q200.2.
func TestSortStepsMergeNamesByRateThenRun(t *testing.T) {
	want := []string{"l.i0", "l.x", "l.i1", "q100.1", "q100.2", "q200.1", "q200.2", "q1000.1", "q1000.2"}
	steps := parseSteps(t, []string{"q1000.2", "q200.2", "q100.2", "l.i1", "q1000.1", "q200.1", "q100.1", "l.x", "l.i0"})
	parse.SortSteps(steps)
	if got := stepNames(steps); !slices.Equal(got, want) {
		t.Errorf("SortSteps = %v\nwant        %v", got, want)
	}
}

func TestRowPrefix(t *testing.T) {
	for name, want := range map[string]string{
		"20m.pg131.cx5":         "20m",
		"2m.pg15.c1":            "2m",
		"800m.pg19b1_o2nofp.cx": "800m",
		"pg131.cx5":             "",
		"m.pg":                  "",
		"20m":                   "",
		"20mb.pg":               "",
		"":                      "",
	} {
		if got := parse.RowPrefix(name); got != want {
			t.Errorf("RowPrefix(%q) = %q, want %q", name, got, want)
		}
	}
}
