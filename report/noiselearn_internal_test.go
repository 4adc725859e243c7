package report

import (
	"math"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/ibreport/ibreport/parse"
)

func TestSeriesNoiseKeys(t *testing.T) {
	steps := []StepInfo{{Name: "l.i0", Column: "l.i0"}, {Name: "qr100.L1", Column: "qr100", ReadWrite: true}, {Name: "l.x", Column: "l.x"}}
	got := seriesNoiseKeys(steps, seriesInput{kind: "ib"})
	want := map[string]string{"l.i0": "l.i0.ips", "qr100": "qr100.L1.qps", "l.x": "l.x.ips"}
	if len(got) != len(want) {
		t.Errorf("ib keys %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("ib %s: %q, want %q", k, got[k], v)
		}
	}
	sb := seriesInput{kind: "sb.dop40", tests: []seriesTest{{name: "point-query.pre range=100"}, {name: "odd"}}}
	got = seriesNoiseKeys(nil, sb)
	if len(got) != 1 || got["point-query.pre range=100"] != "point-query.pre.range100.dop40.qps" {
		t.Errorf("sysbench keys %v", got)
	}
	if got := seriesNoiseKeys(steps, seriesInput{kind: "other"}); len(got) != 0 {
		t.Errorf("unknown kind: %v", got)
	}
}

// TestLearnSeriesNoise: the level after the last change point, one-release
// dips left out, NEW (members from hist on) left out, and too short a
// level learns nothing.
func TestLearnSeriesNoise(t *testing.T) {
	alt := func(n int, base, d float64) []Num {
		var out []Num
		for i := range n {
			out = append(out, Num(base*(1+d*float64(1-2*(i%2)))))
		}
		return out
	}
	// a: 4 runs at 100, then 8 alternating ±1% at 200, then NEW far off.
	a := append(alt(4, 100, 0), alt(8, 200, 0.01)...)
	a = append(a, 50)
	// b: ±2% with a one-release dip at member 5.
	b := alt(13, 100, 0.02)
	b[5] = 70
	// c: a change point leaving 4 runs before NEW.
	c := alt(13, 100, 0.01)
	labels := make([]string, 13)
	for i := range labels {
		labels[i] = string(rune('A' + i))
	}
	g := &SeriesGroup{Title: "Insert benchmark: pg", Tests: []string{"a", "b", "c", "d"}, Labels: labels, Values: [][]Num{a, b, c, alt(13, 1, 0.01)},
		Changes: []SeriesChange{{Test: "a", Index: 4}, {Test: "b", Index: 5, Single: true}, {Test: "c", Index: 8}},
		keys:    map[string]string{"a": "a.ips", "b": "b.ips", "c": "c.qps"}, Notes: []string{"kept"}}
	rep := &Report{Series: &SeriesPart{Groups: []*SeriesGroup{g}}}
	learnSeriesNoise(rep, 12)
	learnSeriesNoise(rep, 12) // again: one note, not two
	want := []struct {
		noise float64
		runs  int
		from  string
		why   string
	}{
		{math.Log(1.01/0.99) / math.Sqrt2, 8, "E", ""},
		{0, 11, "A", ""}, // the dip left out: pairs across it differ by 0 or ±2%
		{0, 4, "I", "4 runs, fewer than 5"},
	}
	if len(rep.LearnedNoise) != 3 {
		t.Fatalf("learned %+v, want 3 tests (d has no key)", rep.LearnedNoise)
	}
	for i, w := range want {
		l := rep.LearnedNoise[i]
		if i == 1 {
			// Successive differences over 11 members with one pair
			// joined across the dip: 9 of ±log(1.02/0.98), one of 0.
			d := math.Log(1.02 / 0.98)
			w.noise = math.Sqrt(9 * d * d / 20)
		}
		if math.Abs(l.Noise-w.noise) > 1e-12 || l.Runs != w.runs || l.From != w.from || l.Why != w.why {
			t.Errorf("%s: %+v, want noise %g of %d runs from %s, why %q", l.Test, l, w.noise, w.runs, w.from, w.why)
		}
	}
	if len(g.Notes) != 2 || g.Notes[0] != "kept" || !strings.Contains(g.Notes[1], "a 1.4% (8), b 2.7% (11)") || !strings.Contains(g.Notes[1], "not learned, a one-run diff judges them with the report's run noise: c (4 runs, fewer than 5)") {
		t.Errorf("notes %q", g.Notes)
	}
	learnSeriesNoise(nil, 3) // no panic
}

// TestNoiseSettings: the keys replace those of an earlier file, every
// other line is kept, a second run gives the same file, and the settings
// reader takes it.
func TestNoiseSettings(t *testing.T) {
	pooled := PooledNoise([]LearnedNoise{
		{Key: "l.i0.ips", Noise: 0.01, Runs: 10},
		{Key: "l.i0.ips", Noise: 0.03, Runs: 10},
		{Key: "qr100.L1.qps", Noise: 0.002, Runs: 7},
		{Key: "l.x.ips", Runs: 3, Why: "3 runs, fewer than 5"},
	})
	if len(pooled) != 2 || pooled[0].Key != "l.i0.ips" || math.Abs(pooled[0].Noise-math.Sqrt(0.0005)) > 1e-12 || pooled[0].Runs != 20 {
		t.Fatalf("pooled %+v", pooled)
	}
	old := []byte("cores = 48\r\n# mine\nrun-noise = 0.05\nrun-noise.l.x.ips = 0.2\ndevice = nvme0n1")
	first := NoiseSettings(old, pooled, nil, "3 result sets")
	again := NoiseSettings(first, pooled, nil, "3 result sets")
	if string(first) != string(again) {
		t.Errorf("not idempotent:\n%s\n---\n%s", first, again)
	}
	set, err := parse.ReadSettings(fstest.MapFS{parse.SettingsFile: {Data: first}}, ".")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"cores": "48", "device": "nvme0n1", "run-noise": "0.0122", "run-noise.l.i0.ips": "0.0224", "run-noise.qr100.L1.qps": "0.002"}
	if len(set) != len(want) {
		t.Errorf("settings %v, want %v", set, want)
	}
	for k, v := range want {
		if set[k] != v {
			t.Errorf("%s = %q, want %q\n%s", k, set[k], v, first)
		}
	}
	if !strings.Contains(string(first), "# mine\n") {
		t.Errorf("comment lost:\n%s", first)
	}
	if got := NoiseSettings(old, nil, nil, "x"); strings.Contains(string(got), "run-noise") {
		t.Errorf("nothing learned still writes keys:\n%s", got)
	} // The shape: heavy tails write run-noise-df, a learned normal removes
	// it, one not learned keeps what the file had.
	withDF := []byte("run-noise-df = 4\ncores = 2\n")
	for _, c := range []struct {
		shape *NoiseShape
		want  string // the key's value, "" absent
	}{
		{&NoiseShape{DF: 3, Runs: 600}, "3"},
		{&NoiseShape{DF: 0, Runs: 600}, ""},
		{&NoiseShape{Runs: 40, Why: "40 runs"}, "4"},
		{nil, "4"},
	} {
		got := NoiseSettings(withDF, pooled, c.shape, "x")
		set, err := parse.ReadSettings(fstest.MapFS{parse.SettingsFile: {Data: got}}, ".")
		if err != nil {
			t.Fatal(err)
		}
		if set[parse.RunNoiseDFKey] != c.want || set["cores"] != "2" || strings.Count(string(got), parse.RunNoiseDFKey) > 1 {
			t.Errorf("shape %+v: run-noise-df %q, want %q:\n%s", c.shape, set[parse.RunNoiseDFKey], c.want, got)
		}
	}
}

// FuzzNoiseSettings: whatever the old settings file holds, the new one
// is the same when written again, and its run-noise keys are those
// learned, read back as written.
func FuzzNoiseSettings(f *testing.F) {
	f.Add([]byte("cores = 48\nrun-noise = 0.05\n"))
	f.Add([]byte("run-noise.l.i0.ips = 2\r\n# x\n=\n"))
	f.Add([]byte("\ufeffdevice = sda"))
	f.Add([]byte("\ufeffrun-noise.l.i0.ips = 0.3\n run-noise-x = 1\n"))
	pooled := []LearnedNoise{{Key: "l.i0.ips", Noise: 0.0123}, {Key: "point-query.range100.dop1.qps", Noise: 0.5}}
	f.Fuzz(func(t *testing.T, old []byte) {
		first := NoiseSettings(old, pooled, nil, "2 result sets")
		if again := NoiseSettings(first, pooled, nil, "2 result sets"); string(again) != string(first) {
			t.Fatalf("not idempotent:\n%q\n%q", first, again)
		}
		set, _ := parse.ReadSettings(fstest.MapFS{parse.SettingsFile: {Data: first}}, ".")
		keys := 0
		for line := range strings.Lines(string(first)) {
			if k, _, ok := strings.Cut(line, "="); ok && (strings.TrimSpace(k) == "run-noise" || strings.HasPrefix(strings.TrimSpace(k), "run-noise.")) {
				keys++
			}
		}
		if keys != len(pooled)+1 {
			t.Fatalf("%d run-noise keys, want %d:\n%s", keys, len(pooled)+1, first)
		}
		for _, p := range pooled {
			if got := set["run-noise."+p.Key]; got != noiseValue(p.Noise) {
				t.Fatalf("run-noise.%s = %q, want %q\n%s", p.Key, got, noiseValue(p.Noise), first)
			}
		}
	})
}

// TestIBNoiseKey: build's ~ looks a step's own run-to-run noise up under
// the key series --noise-settings writes for it.
func TestIBNoiseKey(t *testing.T) {
	var steps []StepInfo
	var parsed []parse.Step
	for _, name := range []string{"l.i0", "l.x", "l.i1", "qr100.L1", "qp500.L4", "q.L2.ips100"} {
		st, ok := parse.ParseStepName(name)
		if !ok {
			t.Fatalf("step %q", name)
		}
		parsed = append(parsed, st)
		steps = append(steps, StepInfo{Name: st.MergeName, Column: st.MergeName, ReadWrite: st.Kind.ReadWrite()})
	}
	keys := seriesNoiseKeys(steps, seriesInput{kind: "ib"})
	for _, st := range parsed {
		if got := ibNoiseKey(st); got != keys[st.MergeName] || got == "" {
			t.Errorf("%s: build looks up %q, series writes %q", st.Name, got, keys[st.MergeName])
		}
	}
	if got := ibNoiseKey(parsed[3]); got != "qr100.L1.qps" {
		t.Errorf("qr100.L1: %q", got)
	}
}
