package parse

import (
	"bytes"
	"strconv"
)

// Kinds of sysbench output lines for ReadSysbench's fast path.
const (
	sbOther    = iota // read the general way
	sbSkip            // a line that carries nothing ReadSysbench reads
	sbInterval        // may be a "[ Ns ] thds: …" line
)

// sbWords are the prefixes of the first field of every line ReadSysbench
// reads once the command line is known, before the final report: the
// version banner, FATAL:, "Number of threads:", "Warmup time:", interval
// lines, "Load seconds is", "Inserting N records" and the keys that start
// the report ("SQL statistics:", "queries performed:", ...).
var sbWords = [...]string{"sysbench", "FATAL:", "Number", "Warmup", "Load", "Inserting",
	"SQL", "General", "Throughput", "Threads", "Latency", "queries"}

// sysbenchLineKind tells, from the first field and the last bytes of a line
// (not binary junk, after the command line), whether ReadSysbench can skip
// it: query plans ("table 1 : explain …", TAB-indented plan lines), "for
// <statement>" lines and blank lines before the report. It says sbOther for
// every line the general reading could take a value from, and for lines
// that start or end with a byte beyond ASCII, which strings.TrimSpace may
// treat as space.
func sysbenchLineKind(b []byte, inReport bool) int {
	i, j := 0, len(b)
	for i < j && (b[i] == ' ' || b[i] == '\t') {
		i++
	}
	if i == j {
		return sbSkip
	}
	for b[j-1] == ' ' || b[j-1] == '\t' {
		j--
	}
	if b[i] >= 0x80 || b[j-1] >= 0x80 {
		return sbOther
	}
	if b[i] == '[' {
		return sbInterval
	}
	if inReport || bytes.HasSuffix(b[i:j], []byte("CPUs")) {
		return sbOther
	}
	k := i
	for k < j && b[k] != ' ' && b[k] != '\t' {
		k++
	}
	first := b[i:k]
	for _, w := range sbWords {
		if len(first) >= len(w) && string(first[:len(w)]) == w {
			return sbOther
		}
	}
	return sbSkip
}

// binaryJunkBytes is binaryJunk on bytes; a printable ASCII line costs one
// look at each group of eight bytes.
func binaryJunkBytes(b []byte) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	i := 0
	for ; i+8 <= len(b); i += 8 {
		w := uint64(b[i]) | uint64(b[i+1])<<8 | uint64(b[i+2])<<16 | uint64(b[i+3])<<24 |
			uint64(b[i+4])<<32 | uint64(b[i+5])<<40 | uint64(b[i+6])<<48 | uint64(b[i+7])<<56
		// A byte at or above 0x80, or below 0x20 (TAB included), sets
		// its high bit here.
		if (w|(w-0x20*ones)&^w)&highs != 0 {
			for _, c := range b[i : i+8] {
				if c < 0x20 && c != '\t' || c >= 0x7f {
					return slowJunk(string(b))
				}
			}
		}
		if (w+ones)&^w&highs != 0 { // a 0x7f byte
			return slowJunk(string(b))
		}
	}
	for ; i < len(b); i++ {
		if c := b[i]; c < 0x20 && c != '\t' || c >= 0x7f {
			return slowJunk(string(b))
		}
	}
	return false
}

// parseSysbenchIntervalBytes is parseSysbenchInterval on the fields of a
// line, with the same results and messages.
func parseSysbenchIntervalBytes(f *fieldList) (SysbenchInterval, string) {
	var iv SysbenchInterval
	f1 := f.at(1)
	sec, ok := numberBytes(bytes.TrimSuffix(f1, []byte("s")))
	if !ok || !bytes.HasSuffix(f1, []byte("s")) || sec < 0 {
		return iv, "interval line: elapsed time " + strconv.Quote(string(f1)) + " is not <N>s"
	}
	iv.Sec = sec
	seen := 0
	n := f.n()
	for i := 3; i < n; i++ {
		key := f.at(i)
		var next []byte
		if i+1 < n {
			next = f.at(i + 1)
		}
		var implausible error
		num := func(dst *float64) bool {
			v, good := numberBytes(next)
			if !good {
				return false
			}
			if implausible = Plausible(Rate, v); implausible != nil {
				return false
			}
			*dst = v
			i++
			return true
		}
		good := true
		switch string(key) {
		case "thds:":
			var v float64
			good = num(&v) && v == float64(int(v))
			iv.Threads = int(v)
			seen++
		case "tps:":
			good = num(&iv.TPS)
			seen++
		case "qps:":
			good = num(&iv.QPS)
		case "eps:":
			good = num(&iv.EPS)
			seen++
		case "(r/w/o:":
			rest := bytes.TrimSuffix(next, []byte(")"))
			if bytes.Count(rest, []byte("/")) != 2 {
				good = false
				break
			}
			for _, dst := range []*float64{&iv.Reads, &iv.Writes, &iv.Other} {
				part := rest
				if k := bytes.IndexByte(rest, '/'); k >= 0 {
					part, rest = rest[:k], rest[k+1:]
				}
				v, ok := numberBytes(part)
				good = good && ok && Plausible(Rate, v) == nil
				*dst = v
			}
			i++
		case "lat":
			if i+2 >= n || !bytes.HasPrefix(next, []byte("(ms,")) {
				good = false
				break
			}
			p := bytes.TrimSuffix(bytes.TrimPrefix(next, []byte("(ms,")), []byte("%):"))
			pct, okp := atoiBytes(p)
			if !okp || pct < 1 || pct > 100 {
				return iv, "interval line: lat percentile " + strconv.Quote(string(p)) + " is not a whole number from 1 to 100; the line is left out"
			}
			iv.Percentile = pct
			v, ok := numberBytes(f.at(i + 2))
			good = ok && Plausible(Latency, v) == nil
			iv.LatPct = v
			i += 2
		case "err/s:":
			good = num(&iv.ErrPerSec)
		case "reconn/s:":
			good = num(&iv.ReconnPerS)
		}
		if implausible != nil {
			return iv, "interval line: " + string(key) + " " + implausible.Error() + "; the line is left out"
		}
		if !good {
			return iv, "interval line: bad value after " + strconv.Quote(string(key))
		}
	}
	if seen < 2 {
		return iv, "interval line without thds: and tps: (or eps:)"
	}
	return iv, ""
}

// atoiBytes is strconv.Atoi on bytes for small numbers: ok is false where
// Atoi fails, and a value beyond a million is returned as a million (the
// callers only range-check it).
func atoiBytes(b []byte) (int, bool) {
	if len(b) < 20 { // the common short case, without a string
		i := 0
		neg := false
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			neg = b[i] == '-'
			i++
		}
		if i == len(b) {
			return 0, false
		}
		v := 0
		for ; i < len(b); i++ {
			if b[i] < '0' || b[i] > '9' {
				return 0, false
			}
			if v < 1e6 {
				v = v*10 + int(b[i]-'0')
			}
		}
		v = min(v, 1e6)
		if neg {
			v = -v
		}
		return v, true
	}
	v, err := strconv.Atoi(string(b))
	return v, err == nil
}
