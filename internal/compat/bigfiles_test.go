package compat

import (
	"io/fs"
	"math"
	"os"
	"path"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/ibreport/ibreport/internal/awk"
	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/parse"
)

// sameAsReadWhole fails t unless ComputeStep, which streams the iostat,
// vmstat and ps files, gives the result of the step read whole.
func sameAsReadWhole(t *testing.T, fsys fs.FS, dir string, st parse.Step, opt metrics.Options) *metrics.StepResult {
	t.Helper()
	got, err := ComputeStep(fsys, dir, st, "tree", opt)
	if err != nil {
		t.Fatal(err)
	}
	sd, err := parse.ReadStep(fsys, dir, st)
	if err != nil {
		t.Fatal(err)
	}
	want := Summarize(sd, "tree", opt)
	if !same(reflect.ValueOf(got), reflect.ValueOf(want)) {
		t.Errorf("%s, device %q, ps user %q: streamed\n%+v\nread whole\n%+v", dir, opt.Device, opt.PsUser, got, want)
	}
	// Both went through bigFiles: check its parts against the rows.
	big := newBigFiles()
	sd2, err := parse.ScanStep(fsys, dir, st, big.sinks())
	if err != nil {
		t.Fatal(err)
	}
	big.rereadFrom(fsys, sd2)
	s := summarizeWith(sd2, big, opt)
	if ref := refBig(sd, opt); !reflect.DeepEqual(ref, bigParts(s)) {
		t.Errorf("%s, device %q, ps user %q: streamed\n%+v\nfrom the rows\n%+v", dir, opt.Device, opt.PsUser, bigParts(s), ref)
	}
	return got
}

// bigParts is what the summary takes from the iostat, vmstat and ps files.
func bigParts(s *Summary) []any {
	return []any{s.Device, s.ByInsert, s.ByQuery, s.IostatAvg, s.PsLine, s.PsUser, s.MaxRSSKiB, s.DBMSCPU, s.Warnings}
}

// refBig computes bigParts from the rows of sd, as the scripts did: every
// row and sample in file order.
func refBig(sd *parse.StepData, opt metrics.Options) []any {
	s := &Summary{Step: sd.Step, MaxRSSKiB: -1, Max: map[parse.HistKind][]string{}}
	for _, p := range sd.Problems {
		s.warn("%v", p)
	}
	s.RealDop = len(sd.Clients)
	s.rates(sd, opt)
	// norm
	s.Device = opt.Device
	if s.Device == "" && sd.Iostat != nil {
		s.Device = sd.Iostat.BusiestDevice()
	}
	var rows []*parse.IostatRow
	if sd.Iostat != nil && s.Device != "" {
		for i := range sd.Iostat.Rows {
			if r := &sd.Iostat.Rows[i]; strings.Contains(r.Device, s.Device) {
				rows = append(rows, r)
			}
		}
	}
	if sd.Iostat != nil && s.Device != "" && len(rows) == 0 {
		s.warn("%s: no iostat rows for device %q", sd.Iostat.Name, s.Device)
	}
	if sd.Iostat != nil {
		s.Warnings = append(s.Warnings, alsoMatching(sd.Iostat, s.Device)...)
	}
	io := metrics.SumIostat(sd.Iostat, s.Device, strings.Contains)
	vm := vmstatSums(sd.Vmstat)
	s.Warnings = append(s.Warnings, vm.warnings...)
	s.ByInsert = normRows(io, vm, s.InsertRate)
	s.ByQuery = normRows(io, vm, s.QueryRate)
	// iostatAvg
	if sd.Iostat != nil && sd.Iostat.Header != nil {
		if len(rows) < 2 {
			s.IostatAvg = []string{}
		} else {
			nf := len(rows[len(rows)-1].Values)
			sums := make([]float64, nf)
			for _, r := range rows[1:] {
				for i := 0; i < nf && i < len(r.Values); i++ {
					sums[i] += r.Values[i]
				}
			}
			for _, sm := range sums {
				s.IostatAvg = append(s.IostatAvg, magnitude(sm/float64(len(rows)-1)))
			}
		}
	}
	// ps
	if sd.Ps != nil && len(sd.Ps.Rows) > 0 {
		byVSZ := dbmsOf(sd) == "postgres"
		key := func(r parse.PsRow) int64 {
			if byVSZ {
				return r.VSZ
			}
			return r.RSS
		}
		best := sd.Ps.Rows[0]
		for _, r := range sd.Ps.Rows[1:] {
			if key(r) > key(best) || key(r) == key(best) && r.Text > best.Text {
				best = r
			}
		}
		s.PsLine = best.Text
		s.PsUser = opt.PsUser
		if s.PsUser == "" {
			s.PsUser = sd.Ps.LargestUser()
		}
		for _, r := range sd.Ps.Rows {
			if r.User == s.PsUser || len(s.PsUser) > 7 && r.User == s.PsUser[:7]+"+" {
				s.MaxRSSKiB = max(s.MaxRSSKiB, r.RSS)
			}
		}
		if s.MaxRSSKiB < 0 {
			s.warn("%s: no process of user %q", sd.Ps.Name, s.PsUser)
		}
	}
	s.DBMSCPU = awk.F(0, 1)
	if sd.Ps != nil && len(sd.Ps.Rows) > 0 {
		s.DBMSCPU = awk.F(sd.Ps.Rows[len(sd.Ps.Rows)-1].CPUTime-sd.Ps.Rows[0].CPUTime, 1)
	}
	s.cores(sd, opt) // the summary's last warning
	return bigParts(s)
}

// TestComputeStepStreamsAsReadWhole checks every step of the example, with
// the device and the ps user given and chosen.
func TestComputeStepStreamsAsReadWhole(t *testing.T) {
	fsys := os.DirFS(example)
	trees, err := parse.ReadTree(fsys, ".")
	if err != nil {
		t.Fatal(err)
	}
	for _, opt := range []metrics.Options{compatOpts, {Compat: true}, {Compat: true, Device: "vd", PsUser: "nobody"}} {
		for _, tr := range trees {
			for _, st := range tr.Steps {
				sameAsReadWhole(t, fsys, path.Join(tr.Dir, st.Name), st, opt)
			}
		}
	}
}

// TestComputeStepDevicesMatched checks a device whose name another
// device's contains (vda in vda1): the scripts added up both devices' rows
// in file order, which the streamed summary reads again.
func TestComputeStepDevicesMatched(t *testing.T) {
	src := os.DirFS(example)
	dir := "2m.pg15.c1/l.i1"
	st, _ := parse.ParseStepName("l.i1")
	mfs := fstest.MapFS{}
	ents, err := fs.ReadDir(src, dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		b, err := fs.ReadFile(src, path.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if e.Name() == "o.io.dop2" {
			// A second device after each vda row, with other values.
			var out []string
			for _, l := range strings.Split(string(b), "\n") {
				out = append(out, l)
				if rest, ok := strings.CutPrefix(l, "vda "); ok {
					out = append(out, "vda1"+strings.ReplaceAll(rest, "0 ", "1 "))
				}
			}
			b = []byte(strings.Join(out, "\n"))
		}
		mfs[path.Join(dir, e.Name())] = &fstest.MapFile{Data: b}
	}
	for _, device := range []string{"vda", "", "vda1"} {
		r := sameAsReadWhole(t, mfs, dir, st, metrics.Options{Compat: true, Device: device})
		var texts []string
		for _, w := range r.Warnings {
			texts = append(texts, w.Text)
		}
		if device == "vda" && !strings.Contains(strings.Join(texts, "\n"), "vda1 also matches") {
			t.Errorf("device vda: no warning that vda1 is averaged in: %q", r.Warnings)
		}
	}
}

// same is reflect.DeepEqual but for floats, which are the same when their
// bits are: the results hold NaN for the texts awk read as -nan.
func same(a, b reflect.Value) bool {
	if a.Kind() != b.Kind() || a.Type() != b.Type() {
		return false
	}
	switch a.Kind() {
	case reflect.Float32, reflect.Float64:
		return math.Float64bits(a.Float()) == math.Float64bits(b.Float())
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		return same(a.Elem(), b.Elem())
	case reflect.Struct:
		for i := range a.NumField() {
			if !same(a.Field(i), b.Field(i)) {
				return false
			}
		}
		return true
	case reflect.Slice, reflect.Array:
		if a.Kind() == reflect.Slice && a.IsNil() != b.IsNil() || a.Len() != b.Len() {
			return false
		}
		for i := range a.Len() {
			if !same(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Map:
		if a.IsNil() != b.IsNil() || a.Len() != b.Len() {
			return false
		}
		for _, k := range a.MapKeys() {
			if v := b.MapIndex(k); !v.IsValid() || !same(a.MapIndex(k), v) {
				return false
			}
		}
		return true
	case reflect.String:
		return a.String() == b.String()
	case reflect.Bool:
		return a.Bool() == b.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return a.Int() == b.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return a.Uint() == b.Uint()
	case reflect.Func, reflect.Chan:
		return a.IsNil() && b.IsNil()
	}
	return false
}
