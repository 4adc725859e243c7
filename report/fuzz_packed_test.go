package report_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"io/fs"
	"os"
	"sort"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/ibreport/ibreport/parse"
)

// packedPerf is a perf stat sample of np.sh for the packed fixture.
const packedPerf = `# started on Mon Nov 30 21:30:00 2026

 Performance counter stats for process id '11024':

     1,234,567,890      cycles
     2,345,678,901      instructions              #    1.90  insn per cycle
           131,300      context-switches

      10.001234567 seconds time elapsed
`

// packedFixture is the raw folder of FuzzPipeline with perf samples in
// each tree's read+write step, the first tree packed as a .tar.gz and one
// file of the second compressed as a .gz.
type packedFixture struct {
	files fstest.MapFS // unpacked
	names []string     // the files an input may replace
}

const (
	packedTree = "2m.pg15.c1"
	packedGz   = "2m.pg15.c2/l.i0/o.vm.dop2"
)

func newPackedFixture(tb testing.TB) *packedFixture {
	// The files of FuzzPipeline's folder, copied without its fixture's
	// many pipeline runs, which each fuzzing worker would repeat.
	fx := &packedFixture{files: fstest.MapFS{}}
	src := os.DirFS(example)
	err := fs.WalkDir(src, ".", func(p string, d fs.DirEntry, err error) error {
		parts := strings.Split(p, "/")
		if err != nil || d.IsDir() || !(p == "ibreport.settings" || len(parts) == 3 && (parts[1] == "l.i0" || parts[1] == "l.x" || parts[1] == "qr100.L1")) {
			return err
		}
		b, err := fs.ReadFile(src, p)
		fx.files[p] = &fstest.MapFile{Data: b}
		return err
	})
	if err != nil {
		tb.Fatal(err)
	}
	for _, tree := range []string{"2m.pg15.c1", "2m.pg15.c2"} {
		dir := tree + "/qr100.L1/"
		fx.files[dir+"o.perf.hw.dop2.1"] = &fstest.MapFile{Data: []byte(packedPerf)}
		fx.files[dir+"o.perf.hw.dop2.2"] = &fstest.MapFile{Data: []byte(packedPerf)}
		fx.files[dir+"o.perf.last.dop2"] = &fstest.MapFile{Data: []byte("2\n")}
	}
	for n := range fx.files {
		fx.names = append(fx.names, n)
	}
	sort.Strings(fx.names)
	return fx
}

// pack returns the fixture's folder as published: packedTree as a .tar.gz
// (the last copy of a member name wins), packedGz as a .gz.
func (fx *packedFixture) pack(tb testing.TB, files fstest.MapFS) fstest.MapFS {
	out := fstest.MapFS{}
	var tbuf bytes.Buffer
	zw := gzip.NewWriter(&tbuf)
	tw := tar.NewWriter(zw)
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		data := files[n].Data
		switch {
		case strings.HasPrefix(n, packedTree+"/"):
			tw.WriteHeader(&tar.Header{Name: n, Typeflag: tar.TypeReg, Mode: 0o644, Size: int64(len(data)), ModTime: time.Unix(1.7e9, 0)})
			tw.Write(data)
		case n == packedGz:
			var g bytes.Buffer
			gw := gzip.NewWriter(&g)
			gw.Write(data)
			gw.Close()
			out[n+".gz"] = &fstest.MapFile{Data: g.Bytes()}
		default:
			out[n] = files[n]
		}
	}
	tw.Close()
	zw.Close()
	out[packedTree+".tar.gz"] = &fstest.MapFile{Data: tbuf.Bytes()}
	return out
}

var packedFx *packedFixture

// FuzzPipelinePacked fuzzes the raw folder of FuzzPipeline as published:
// one tree a .tar.gz, one file a .gz, perf stat samples in the read+write
// steps. mode says what the input replaces: a file before packing (0, the
// perf files among them), the .tar.gz's bytes (1) or the .gz's (2). The
// pipeline must not panic, fail only on bad input and show no number no
// measurement could have.
func FuzzPipelinePacked(f *testing.F) {
	if packedFx == nil {
		packedFx = newPackedFixture(f)
	}
	fx := packedFx
	base := fx.pack(f, fx.files)
	f.Add(uint16(0), uint8(1), base[packedTree+".tar.gz"].Data)
	f.Add(uint16(0), uint8(2), base[packedGz+".gz"].Data)
	for i, n := range fx.names {
		if strings.Contains(n, ".perf.") {
			f.Add(uint16(i), uint8(0), fx.files[n].Data)
		}
	}
	f.Add(uint16(0), uint8(0), []byte("131 300      context-switches\n"))
	f.Fuzz(func(t *testing.T, which uint16, mode uint8, data []byte) {
		var fsys fstest.MapFS
		switch mode % 3 {
		case 0:
			name := fx.names[int(which)%len(fx.names)]
			files := fstest.MapFS{}
			for n, file := range fx.files {
				files[n] = file
			}
			files[name] = &fstest.MapFile{Data: data}
			fsys = fx.pack(t, files)
		case 1:
			fsys = fx.pack(t, fx.files)
			fsys[packedTree+".tar.gz"] = &fstest.MapFile{Data: data}
		case 2:
			fsys = fx.pack(t, fx.files)
			fsys[packedGz+".gz"] = &fstest.MapFile{Data: data}
		}
		out := runPipeline(t, parse.Packed(fsys), false)
		if out.err != nil {
			return // bad input, checked by runPipeline
		}
		for _, p := range modelProblems(out.res) {
			skipKnown(t, "mode %d, input %q: model: %s", mode%3, trim(data), p)
		}
		for _, p := range reportProblems(out.rep) {
			skipKnown(t, "mode %d, input %q: report: %s", mode%3, trim(data), p)
		}
	})
}

// TestPackedFixture: the packed fixture reads as the unpacked one, perf
// counters included.
func TestPackedFixture(t *testing.T) {
	if packedFx == nil {
		packedFx = newPackedFixture(t)
	}
	plain := runPipeline(t, packedFx.files, false)
	packed := runPipeline(t, parse.Packed(packedFx.pack(t, packedFx.files)), false)
	if plain.err != nil || packed.err != nil {
		t.Fatalf("errors: %v, %v", plain.err, packed.err)
	}
	if !bytes.Equal(plain.json, packed.json) {
		t.Error("the packed folder's report differs from the unpacked one's")
	}
	if packed.rep.Counters == nil {
		t.Error("no perf stat counters in the report")
	}
}
