package report_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/parse"
	"github.com/ibreport/ibreport/report"
	"github.com/ibreport/ibreport/report/render"
)

// The pipeline fuzz targets load and build a small results folder held in
// memory, in which one file is replaced by the fuzzer's input, and check
// what a user would see: never a panic, an error only as bad input, never a
// number in the model or the report that no measurement could have, and a
// changed file noticed. The folders are cut down (fewer steps, tests and
// thread counts) so that an input takes milliseconds.

// pipelineFixture is one results folder of a pipeline fuzz target.
type pipelineFixture struct {
	files fstest.MapFS
	// names are the files an input may change, sorted: those the pipeline
	// reads (emptying one, or changing its digits, changes the report or
	// makes Load fail). Changing any other file cannot show.
	names []string
	// base is the JSON report of the unchanged folder (default mode).
	base []byte
	// read holds the files whose numbers the report depends on: changing
	// every digit of one changes the report or makes Load fail. A change to
	// any other file (o.rate.*, the summaries the original scripts wrote,
	// an sb.met beside its sb.io and sb.vm) is not expected to show.
	read map[string]bool
}

// newPipelineFixture copies the files of the folder root for which keep
// (given the slash-separated path under root) is true.
func newPipelineFixture(f testing.TB, root string, keep func(string) bool) *pipelineFixture {
	src := os.DirFS(root)
	fx := &pipelineFixture{files: fstest.MapFS{}, read: map[string]bool{}}
	err := fs.WalkDir(src, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !keep(p) {
			return err
		}
		b, err := fs.ReadFile(src, p)
		fx.files[p] = &fstest.MapFile{Data: b}
		return err
	})
	if err != nil {
		f.Fatal(err)
	}
	out := runPipeline(f, fx.files, false)
	if out.err != nil {
		f.Fatalf("%s: %v", root, out.err)
	}
	fx.base = out.json
	shows := func(n string, data []byte) bool {
		o := runPipeline(f, fx.with(n, data), false)
		return o.err != nil || !bytes.Equal(o.json, fx.base)
	}
	for n, file := range fx.files {
		if shows(n, shiftDigits(file.Data)) {
			fx.read[n] = true
		}
		if fx.read[n] || shows(n, nil) {
			fx.names = append(fx.names, n)
		}
	}
	sort.Strings(fx.names)
	return fx
}

// shiftDigits returns b with every digit d replaced by d+1 (9 by 0): the
// same file with other numbers.
func shiftDigits(b []byte) []byte {
	out := bytes.Clone(b)
	for i, c := range out {
		switch {
		case c == '9':
			out[i] = '0'
		case c >= '0' && c < '9':
			out[i] = c + 1
		}
	}
	return out
}

// with returns the fixture's folder with the file name holding data.
func (fx *pipelineFixture) with(name string, data []byte) fstest.MapFS {
	fsys := make(fstest.MapFS, len(fx.files))
	for n, file := range fx.files {
		fsys[n] = file
	}
	fsys[name] = &fstest.MapFile{Data: data}
	return fsys
}

// pipelineOutput is what one pass of the pipeline made.
type pipelineOutput struct {
	res  *report.Results
	rep  *report.Report
	json []byte // the JSON report; nil after an error
	err  error  // of Load or Build
	// warns are the warnings of Load, the report's notes and the warnings
	// of Tables.
	warns []string
}

// runPipeline loads fsys, builds its report, encodes it and makes its
// tables. Failures that are not bad input are test failures.
func runPipeline(tb testing.TB, fsys fs.FS, compat bool) pipelineOutput {
	tb.Helper()
	var out pipelineOutput
	opt := report.LoadOptions{Metrics: metrics.Options{Compat: compat}}
	if out.res, out.warns, out.err = report.LoadFS(fsys, "fuzz", opt); out.err != nil {
		if !errors.Is(out.err, report.ErrBadInput) {
			tb.Errorf("Load: an error that is not bad input: %v", out.err)
		}
		return out
	}
	// The compat pass also builds the series part.
	if out.rep, out.err = report.Build(out.res, report.BuildOptions{Series: compat}); out.err != nil {
		if !errors.Is(out.err, report.ErrBadInput) {
			tb.Errorf("Build: an error that is not bad input: %v", out.err)
		}
		return out
	}
	// The renderers share the model, which JSON holds whole: JSON is the
	// fingerprint of a report, and Markdown (of the default mode) checks
	// the templates; the text format takes ten times as long.
	js, err := json.Marshal(out.rep)
	if err != nil {
		tb.Errorf("json: %v", err)
	}
	out.json = js
	if !compat {
		if err := render.Write(io.Discard, out.rep, "md"); err != nil {
			tb.Errorf("md: %v", err)
		}
	}
	out.warns = append(out.warns, metrics.WarningTexts(out.rep.Notes)...)
	_, warns, err := out.res.Tables(nil)
	if err != nil && !errors.Is(err, report.ErrBadInput) {
		tb.Errorf("Tables: an error that is not bad input: %v", err)
	}
	out.warns = append(out.warns, warns...)
	return out
}

// fuzz runs one input in both modes and checks the default mode's model
// and report. The input changes the file names[which]: with at < 0, data
// replaces it; otherwise data overwrites it from the start of its number
// at (modulo their count), so that most inputs hit a number of a
// well-formed file ("-" on 8750, "1e300" on 1.5).
func (fx *pipelineFixture) fuzz(t *testing.T, which uint16, at int32, data []byte) {
	name := fx.names[int(which)%len(fx.names)]
	old := fx.files[name].Data
	if at >= 0 {
		starts := numberStarts(old)
		i := len(old)
		if len(starts) > 0 {
			i = starts[int(at)%len(starts)]
		}
		data = append(old[:i:i], data...)
		if len(data) < len(old) {
			data = append(data, old[len(data):]...)
		}
	}
	fsys := fx.with(name, data)
	for _, compat := range []bool{false, true} {
		out := runPipeline(t, fsys, compat)
		if compat || out.err != nil {
			continue // an error is a fine outcome
		}
		for _, p := range modelProblems(out.res) {
			skipKnown(t, "%s replaced by %q: model: %s", name, trim(data), p)
		}
		for _, p := range reportProblems(out.rep) {
			skipKnown(t, "%s replaced by %q: report: %s", name, trim(data), p)
		}
		if !fx.read[name] || unchangedMeaning(old, data) {
			continue
		}
		// A file none of whose records is left must show: its values
		// or a warning change.
		if keptNone(old, data) && bytes.Equal(out.json, fx.base) {
			skipKnown(t, "%s replaced by %q: the report did not change", name, trim(data))
		}
		noticed := strings.Contains(strings.Join(out.warns, "\n"), name)
		if noticed {
			continue
		}
		for _, l := range readLines(out.res, name, old, data) {
			if bad := implausibleToken(l.text); bad != "" {
				skipKnown(t, "%s:%d: %s read without a warning naming the file: %q", name, l.no, bad, trim([]byte(l.text)))
				break
			}
		}
		if ls := columnProblems(old, data, sampleKind(name)); len(ls) > 0 {
			skipKnown(t, "%s:%d: a sample no measurement has (%s) read without a warning naming the file: %q", name, ls[0].no, ls[0].why, trim([]byte(ls[0].text)))
		}
	}
}

// numberStarts returns the offsets of the numbers of b: digits after a
// byte that is not a digit, a letter, '.' or '-'.
func numberStarts(b []byte) []int {
	var out []int
	for i, c := range b {
		if c < '0' || c > '9' {
			continue
		}
		if i == 0 {
			out = append(out, i)
			continue
		}
		switch p := b[i-1]; {
		case p >= '0' && p <= '9', p >= 'a' && p <= 'z', p >= 'A' && p <= 'Z', p == '.', p == '-', p == '_':
		default:
			out = append(out, i)
		}
	}
	return out
}

// numberedLine is a line of a file and its number.
type numberedLine struct {
	no   int
	text string
	why  string // what is wrong with it, if anything
}

// readLines returns the lines of new, the replaced file name, that hold
// records the model reads every number of (a line old does not have): the
// lines of a client log or of an archived table with three numbers or more,
// and the sysbench interval lines the model kept.
func readLines(res *report.Results, name string, old, new []byte) []numberedLine {
	had := map[string]bool{}
	for _, l := range strings.Split(string(old), "\n") {
		had[l] = true
	}
	lines := strings.Split(string(new), "\n")
	var out []numberedLine
	base := path.Base(name)
	if strings.HasPrefix(base, "o.ib.") || strings.HasPrefix(base, "mrg.") {
		for i, l := range lines {
			// Interval lines and table rows start with a number; a line
			// of words (a command line, a note of the client) is not one.
			f := strings.Fields(l)
			if len(f) == 0 {
				continue
			}
			if _, err := strconv.ParseFloat(f[0], 64); err != nil {
				continue
			}
			if !had[l] && len(strings.Fields(numbers(l))) >= 3 {
				out = append(out, numberedLine{i + 1, l, ""})
			}
		}
	}
	if res.Sysbench != nil {
		for _, d := range res.Sysbench.DBMS {
			for _, r := range d.Results {
				if r.Source != name && !strings.HasSuffix(r.Source, "/"+name) {
					continue
				}
				for _, in := range r.Intervals {
					if in.Line >= 1 && in.Line <= len(lines) && !had[lines[in.Line-1]] {
						out = append(out, numberedLine{in.Line, lines[in.Line-1], ""})
					}
				}
			}
		}
	}
	return out
}

// sampleKind says by its name whether a file is a vmstat ("vm") or iostat
// ("io") file (o.vm.dop2, sb.io.point-query.range100.pk1.dop1,
// sb.prepare.vm.…), "" for another.
func sampleKind(name string) string {
	base := strings.TrimPrefix(path.Base(name), "sb.prepare.")
	for _, k := range []string{"vm", "io"} {
		for _, p := range []string{"o.", "sb.", ""} {
			if strings.HasPrefix(base, p+k+".") {
				return k
			}
		}
	}
	return ""
}

// columnProblems returns the data lines of a vmstat or iostat file (new
// lines, not in old) with a number that no sample has in a column the model
// averages: for vmstat cs, us and sy (us + sy at most 101, see
// plausibleAs), for iostat every column of the device's rows (the averages
// of all of them are shown); percentages at most 100.
func columnProblems(old, new []byte, kind string) []numberedLine {
	if kind == "" {
		return nil
	}
	had := map[string]bool{}
	device := ""
	for _, l := range strings.Split(string(old), "\n") {
		had[l] = true
		if f := strings.Fields(l); device == "" && len(f) > 1 && f[0] != "Device" && strings.HasPrefix(string(old), "Linux") && numbers(l) != "" && !strings.HasSuffix(f[0], ":") {
			if _, err := strconv.ParseFloat(f[0], 64); err != nil {
				device = f[0]
			}
		}
	}
	var header []string
	var out []numberedLine
	vmSeen := false // a vmstat sample has been met
	for i, l := range strings.Split(string(new), "\n") {
		f := strings.Fields(l)
		isVmstat := len(f) > 0 && len(f) == len(header) && numbers(l) != "" &&
			slices.Contains(header, "us") && slices.Contains(header, "sy") && slices.Contains(header, "cs")
		// The first vmstat sample is the averages since boot, which the
		// default mode never uses.
		sinceBoot := isVmstat && !vmSeen
		vmSeen = vmSeen || isVmstat
		switch {
		case len(f) >= 5 && numbers(l) == "":
			header = f
			continue
		case had[l] || len(f) == 0 || len(f) != len(header):
		case kind == "io" && header[0] == "Device" && f[0] == device:
			for j, w := range f[1:] {
				if x, err := strconv.ParseFloat(w, 64); err == nil {
					if err := plausibleAs(x, "", strings.HasPrefix(header[j+1], "%")); err != nil {
						out = append(out, numberedLine{i + 1, l, "iostat " + header[j+1] + ": " + err.Error()})
						break
					}
				}
			}
		case sinceBoot:
		case kind == "vm" && slices.Contains(header, "us") && slices.Contains(header, "sy") && slices.Contains(header, "cs"):
			col := func(name string) float64 {
				x, err := strconv.ParseFloat(f[slices.Index(header, name)], 64)
				if err != nil {
					return 0 // not a sample: the reader must say so
				}
				return x
			}
			for _, c := range []struct {
				what string
				err  error
			}{
				{"cs", plausibleAs(col("cs"), "", false)},
				{"us", plausibleAs(col("us"), "", true)},
				{"sy", plausibleAs(col("sy"), "", true)},
				{"us+sy", plausibleAs(col("us")+col("sy"), string(metrics.CPUPercent), false)},
			} {
				if c.err != nil {
					out = append(out, numberedLine{i + 1, l, "vmstat " + c.what + ": " + c.err.Error()})
					break
				}
			}
		}
	}
	return out
}

// fields splits a line into its words as the tools print them: blanks,
// commas, colons, equal signs, slashes and brackets separate them.
func fields(l string) []string {
	return strings.FieldsFunc(l, func(r rune) bool {
		return strings.ContainsRune(" \t\r,:=/()[]", r)
	})
}

// numbers returns the numbers of a line, each in its shortest text (+.5
// is 0.5), joined by blanks.
func numbers(l string) string {
	var out []string
	for _, w := range fields(l) {
		if x, err := strconv.ParseFloat(strings.TrimRight(w, "%"), 64); err == nil {
			out = append(out, strconv.FormatFloat(x, 'g', -1, 64))
		}
	}
	return strings.Join(out, " ")
}

// implausibleToken returns the first word of the line that is a number no
// measurement has: negative, not finite or beyond parse.Ceiling ("" when
// there is none).
func implausibleToken(l string) string {
	for _, w := range fields(l) {
		x, err := strconv.ParseFloat(strings.TrimRight(w, "%"), 64)
		if err == nil && parse.Plausible(parse.Count, x) != nil {
			return strconv.Quote(w)
		}
	}
	return ""
}

// keptNone reports whether new keeps none of the numbers of old: no
// number of old is a number of new, anywhere. (A finer rule, line by line,
// cannot know which columns and lines a reader uses: the date of a banner,
// a since-boot sample and the unused columns of a sample may change without
// a change in the report.)
func keptNone(old, new []byte) bool {
	has := map[string]bool{}
	for _, l := range strings.Split(string(new), "\n") {
		for _, n := range strings.Fields(numbers(l)) {
			has[n] = true
		}
	}
	for _, l := range strings.Split(string(old), "\n") {
		for _, n := range strings.Fields(numbers(l)) {
			if has[n] {
				return false
			}
		}
	}
	return true
}

// unchangedMeaning reports whether new differs from old only in ways no
// reader should notice: blanks, line ends and blank lines.
func unchangedMeaning(old, new []byte) bool {
	norm := func(b []byte) string {
		var out []string
		for _, l := range strings.Split(strings.ReplaceAll(string(b), "\r\n", "\n"), "\n") {
			if f := strings.Fields(l); len(f) > 0 {
				out = append(out, strings.Join(f, " "))
			}
		}
		return strings.Join(out, "\n")
	}
	return norm(old) == norm(new)
}

func trim(b []byte) []byte {
	if len(b) > 60 {
		return b[:60]
	}
	return b
}

// percentUnits are the units of shares of CPU time or of a total.
var percentUnits = map[string]bool{string(metrics.CPUPercent): true, string(metrics.Percent): true}

// plausibleAs checks x as a number of the unit: finite, not negative, not
// beyond parse.Ceiling and, for a percentage, at most 100. vmstat prints us
// and sy rounded to integers, so that their sum (%cpu) may be 101 where
// both were rounded up (57.5 and 43.5 are printed 58 and 44).
func plausibleAs(x float64, unit string, percent bool) error {
	if err := parse.Plausible(parse.Count, x); err != nil {
		return err
	}
	limit := 100.0
	if unit == string(metrics.CPUPercent) {
		limit = 101
	}
	if (percent || percentUnits[unit]) && x > limit {
		return fmt.Errorf("%v is more than %v, not a percentage", x, limit)
	}
	return nil
}

// valueProblem says why v could not be a value of the model: NA without a
// reason or with a number, or a number that breaks the rule of its unit.
// A ratio may be +Inf (x/0, printed "inf").
func valueProblem(v metrics.Value, percent bool) string {
	switch {
	case !v.OK() && !math.IsNaN(v.V):
		return fmt.Sprintf("NA (%s) holds %v", v.Why, v.V)
	case !v.OK():
		return ""
	case math.IsNaN(v.V):
		return "NaN without a reason"
	case v.Unit == metrics.RatioUnit && math.IsInf(v.V, 1):
		return ""
	}
	if err := plausibleAs(v.V, string(v.Unit), percent); err != nil {
		return fmt.Sprintf("%v %s: %v", v.V, v.Unit, err)
	}
	return ""
}

var (
	valueType    = reflect.TypeFor[metrics.Value]()
	intervalType = reflect.TypeFor[parse.SysbenchInterval]()
	tableType    = reflect.TypeFor[report.Table]()
	chartType    = reflect.TypeFor[report.Chart]()
)

// walkModel calls visit on v and everything reachable from it through
// exported fields, pointers, slices, arrays and maps, each once, with its
// path.
func walkModel(v reflect.Value, path string, seen map[uintptr]bool, visit func(reflect.Value, string)) {
	if !v.IsValid() || !v.CanInterface() {
		return
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return
		}
		if v.Kind() == reflect.Pointer {
			if seen[v.Pointer()] {
				return
			}
			seen[v.Pointer()] = true
		}
		walkModel(v.Elem(), path, seen, visit)
		return
	}
	visit(v, path)
	switch v.Kind() {
	case reflect.Struct:
		if v.Type() == valueType {
			return
		}
		for i := range v.NumField() {
			if f := v.Type().Field(i); f.IsExported() {
				walkModel(v.Field(i), path+"."+f.Name, seen, visit)
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			walkModel(v.Index(i), path+"["+strconv.Itoa(i)+"]", seen, visit)
		}
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			walkModel(it.Value(), fmt.Sprintf("%s[%v]", path, it.Key()), seen, visit)
		}
	}
}

// modelProblems checks every Value of the loaded results (every step
// result, sysbench result and load step) and the sysbench interval lines.
func modelProblems(res *report.Results) []string {
	var out []string
	visit := func(v reflect.Value, path string) {
		switch v.Type() {
		case valueType:
			if p := valueProblem(v.Interface().(metrics.Value), false); p != "" {
				out = append(out, path+": "+p)
			}
		case reflect.TypeFor[metrics.IostatAverages]():
			avg := v.Interface().(metrics.IostatAverages)
			for i, x := range avg.Values {
				percent := i < len(avg.Header) && strings.HasPrefix(avg.Header[i], "%")
				if p := valueProblem(x, percent); p != "" && percent {
					out = append(out, fmt.Sprintf("%s.Values[%d] (%s): %s", path, i, avg.Header[i], p))
				}
			}
		case intervalType:
			in := v.Interface().(parse.SysbenchInterval)
			for _, x := range []float64{in.Sec, in.TPS, in.QPS, in.EPS, in.Reads, in.Writes, in.Other, in.LatPct, in.ErrPerSec, in.ReconnPerS} {
				if err := parse.Plausible(parse.Count, x); err != nil {
					out = append(out, fmt.Sprintf("%s (line %d): %v", path, in.Line, err))
					break
				}
			}
		}
	}
	walkModel(reflect.ValueOf(res.Trees), "Trees", map[uintptr]bool{}, visit)
	walkModel(reflect.ValueOf(res.Sysbench), "Sysbench", map[uintptr]bool{}, visit)
	return out
}

// reportProblems checks every table cell with a number and every chart
// point of the report.
func reportProblems(rep *report.Report) []string {
	var out []string
	visit := func(v reflect.Value, path string) {
		switch v.Type() {
		case tableType:
			tab := v.Addr().Interface().(*report.Table)
			for _, row := range tab.Rows {
				for i, c := range row.Cells {
					percent := percentUnits[c.Unit] || i < len(tab.Header) && strings.HasPrefix(tab.Header[i], "%")
					if p := cellProblem(c, percent); p != "" {
						out = append(out, fmt.Sprintf("table %s, %s: %s", tab.ID, tab.Header[min(i, len(tab.Header)-1)], p))
					}
				}
			}
		case chartType:
			ch := v.Addr().Interface().(*report.Chart)
			for _, s := range ch.Series {
				nums := append([]report.Num(nil), s.Values...)
				for _, p := range s.Points {
					nums = append(nums, p.X, p.Y, p.Err)
				}
				for _, x := range nums {
					f := float64(x)
					if math.IsNaN(f) {
						continue // missing
					}
					if err := plausibleAs(f, s.Unit, false); err != nil {
						out = append(out, fmt.Sprintf("chart %s, series %s: %v", ch.ID, s.Name, err))
						break
					}
				}
			}
		}
	}
	walkModel(reflect.ValueOf(rep), "", map[uintptr]bool{}, visit)
	return out
}

// cellProblem says why a cell's number could not be shown: a signed
// change ("+3.5%") may be negative, nothing else.
func cellProblem(c report.Cell, percent bool) string {
	if c.Value == nil {
		return ""
	}
	x := *c.Value
	if (strings.HasPrefix(c.Text, "+") || strings.HasPrefix(c.Text, "-")) && c.Unit == "percent" {
		x, percent = math.Abs(x), false
	}
	if err := plausibleAs(x, c.Unit, percent); err != nil {
		return fmt.Sprintf("%q holds %v: %v", c.Text, *c.Value, err)
	}
	if len(c.Text) > 40 {
		return fmt.Sprintf("a cell of %d characters: %.40q…", len(c.Text), c.Text)
	}
	return ""
}

// The fixtures, built once per process.
var (
	rawFixture, sysbenchFixture, archiveFixture *pipelineFixture
)

// rawPipeline is the fixture of FuzzPipeline.
func rawPipeline(tb testing.TB) *pipelineFixture {
	if rawFixture == nil {
		rawFixture = newPipelineFixture(tb, example, func(p string) bool {
			parts := strings.Split(p, "/")
			return p == "ibreport.settings" || len(parts) == 3 && (parts[1] == "l.i0" || parts[1] == "l.x" || parts[1] == "qr100.L1")
		})
	}
	return rawFixture
}

// FuzzPipeline fuzzes a raw insert-benchmark folder: two trees of three
// steps each (a load, the index, a read+write step) and the settings file.
func FuzzPipeline(f *testing.F) {
	fx := rawPipeline(f)
	addSeeds(f, fx)
	f.Fuzz(fx.fuzz)
}

// sbPipeline is the fixture of FuzzPipelineSysbench.
func sbPipeline(tb testing.TB) *pipelineFixture {
	if sysbenchFixture == nil {
		sysbenchFixture = newPipelineFixture(tb, "../testdata/sysbench/raw", func(p string) bool {
			return strings.Contains(p, ".point-query.") || strings.Contains(p, ".read-write.")
		})
	}
	return sysbenchFixture
}

// FuzzPipelineSysbench fuzzes a folder of two sysbench DBMS: the prepare
// step and two tests (point-query, read-write) at both thread counts.
func FuzzPipelineSysbench(f *testing.F) {
	fx := sbPipeline(f)
	addSeeds(f, fx)
	f.Fuzz(fx.fuzz)
}

// arcPipeline is the fixture of FuzzPipelineArchive.
func arcPipeline(tb testing.TB) *pipelineFixture {
	if archiveFixture == nil {
		archiveFixture = newPipelineFixture(tb, "../testdata/ibench/reference/res", func(p string) bool {
			return p == "mrg.l.i0" || p == "mrg.l.x" || p == "mrg.qr100.L1"
		})
	}
	return archiveFixture
}

// FuzzPipelineArchive fuzzes an archived folder: the mrg.<step> tables of
// three steps.
func FuzzPipelineArchive(f *testing.F) {
	fx := arcPipeline(f)
	addSeeds(f, fx)
	f.Fuzz(fx.fuzz)
}

// addSeeds adds an empty file, a binary one and, for each file the model
// reads numbers of, the file unchanged and, at a quarter, half and three
// quarters of its numbers, a number overwritten by itself and one whose
// first digit is overwritten by a plus sign: inputs that pass, from which
// the fuzzer's mutations start ('+' is a small step from '-').
func addSeeds(f *testing.F, fx *pipelineFixture) {
	f.Add(uint16(0), int32(-1), []byte{})
	f.Add(uint16(1), int32(-1), []byte("\x00\x01binary"))
	for i, n := range fx.names {
		if !fx.read[n] {
			continue
		}
		data := fx.files[n].Data
		f.Add(uint16(i), int32(-1), data)
		starts := numberStarts(data)
		for _, k := range []int{len(starts) / 4, len(starts) / 2, len(starts) * 3 / 4} {
			if k < len(starts) {
				f.Add(uint16(i), int32(k), data[starts[k]:starts[k]+1])
				f.Add(uint16(i), int32(k), []byte("+"))
			}
		}
	}
}

// skipKnown reports a failure of a pipeline check unless it matches the
// regular expression in $IBREPORT_FUZZ_SKIP: a failure already known and
// being fixed stops a fuzzing run within seconds, and so would hide the
// others (IBREPORT_FUZZ_SKIP='vmstat us\+sy' skips one kind).
func skipKnown(t *testing.T, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	if re := os.Getenv("IBREPORT_FUZZ_SKIP"); re != "" && regexp.MustCompile(re).MatchString(msg) {
		return
	}
	t.Error(msg)
}
