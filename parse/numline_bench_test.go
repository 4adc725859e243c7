package parse

import "testing"

var benchLines = []struct {
	name string
	skip int
	line string
}{
	{"iostat", 1, "vda             11.00     96.00    13.00  54.17    1.36     8.73 2178.00 144652.00   116.00   5.06    0.95    66.42    9.00     36.00     0.00   0.00    0.67     4.00  811.00    0.07    2.15  23.60"},
	{"client", 0, "1.0\t1.0\t20945\t20945\t21395\t21395\t0\t0\t47687\t36308\t0\t20950\t21400\t0\t0\t0\t0"},
	{"vmstat", 0, " 7  0      0 22157776  23960 2106196    0    0  3609  5721  605 1560  9  7 83  1  0"},
}

func BenchmarkNumericLine(b *testing.B) {
	vals := make([]float64, 64)
	for _, bl := range benchLines {
		line := []byte(bl.line)
		b.Run(bl.name, func(b *testing.B) {
			b.SetBytes(int64(len(line)))
			c0 := cpuNanos()
			for b.Loop() {
				numericLine(line, bl.skip, vals)
			}
			b.ReportMetric(float64(cpuNanos()-c0)/float64(b.N), "cpu-ns/op")
		})
	}
}
