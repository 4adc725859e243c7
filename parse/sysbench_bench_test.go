package parse

import (
	"bytes"
	"os"
	"testing"
)

// BenchmarkReadSysbench reads the sb.o file named by $IBREPORT_BENCH_SBO,
// e.g. one of the folders scripts/bench-scale.sh writes (query plans, an
// interval line per second, the final report):
//
//	IBREPORT_BENCH_SBO=/tmp/sb/x.pg1222…/sb.o.read-only.range10.pk1.dop40 go test ./parse -run '^$' -bench ReadSysbench
func BenchmarkReadSysbench(b *testing.B) {
	name := os.Getenv("IBREPORT_BENCH_SBO")
	if name == "" {
		b.Skip("no $IBREPORT_BENCH_SBO")
	}
	data, err := os.ReadFile(name)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ReadSysbench(bytes.NewReader(data), "sb.o"); err != nil {
			b.Fatal(err)
		}
	}
}
