package parse

import (
	"bytes"
	"encoding/binary"
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

// sbWordStart has the first bytes of sbWords.
var sbWordStart = func() (t [256]bool) {
	for _, w := range sbWords {
		t[w[0]] = true
	}
	return t
}()

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
	if !sbWordStart[first[0]] {
		return sbSkip // most plan lines: "->", "Index", "Filter:" start otherwise
	}
	for _, w := range sbWords {
		if len(first) >= len(w) && string(first[:len(w)]) == w {
			return sbOther
		}
	}
	return sbSkip
}

// binaryJunkBytes is binaryJunk on bytes; a printable ASCII line costs one
// look at each group of sixteen bytes.
func binaryJunkBytes(b []byte) bool {
	i := 0
	// Query plans are indented with TABs, which are text but fail the
	// word test: they are passed over first, so that the common plan line
	// never takes the byte-by-byte way.
	for i < len(b) && b[i] == '\t' {
		i++
	}
	for ; i+16 <= len(b); i += 16 {
		// Two words a test: query plans are long lines of plain text.
		if suspect16(b[i:]) == 0 {
			continue
		}
		if junkBytes(b[i : i+16]) {
			return slowJunk(string(b))
		}
	}
	if i == len(b) {
		return false
	}
	// The tail: the last sixteen (or eight) bytes as one group, which
	// looks at some bytes twice rather than at each of the rest alone.
	switch n := len(b); {
	case n >= 16 && suspect16(b[n-16:]) == 0:
		return false
	case n-i <= 8 && n >= 8 && suspect(binary.LittleEndian.Uint64(b[n-8:])) == 0:
		return false
	}
	return junkBytes(b[i:]) && slowJunk(string(b))
}

// suspect sets the high bit of each byte of w at or above 0x80, below 0x20
// (TAB included) or equal to 0x7f, and maybe of bytes above such a byte
// (a carry or borrow runs on from it), never of a word of printable ASCII:
// w+1 reaches 0x80 from 0x7f, w-0x20 wraps below 0x20.
func suspect(w uint64) uint64 {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	return (w | (w + ones) | (w - 0x20*ones)) & highs
}

// suspect16 is suspect on the first sixteen bytes of b.
func suspect16(b []byte) uint64 {
	return suspect(binary.LittleEndian.Uint64(b)) | suspect(binary.LittleEndian.Uint64(b[8:16]))
}

// junkBytes reports whether b holds a byte that is not printable ASCII or
// TAB, byte by byte.
func junkBytes(b []byte) bool {
	for _, c := range b {
		if c < 0x20 && c != '\t' || c >= 0x7f {
			return true
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

// sbIntervalFast reads the interval line of sysbench 1.0 and 1.1 for the
// OLTP tests, the bulk of a run's output after its query plans,
//
//	[ 1s ] thds: 40 tps: 1003.25 qps: 20065.00 (r/w/o: 14045.50/4013.00/2006.50) lat (ms,95%): 3.75 err/s: 0.00 reconn/s: 0.00
//
// in one pass over its bytes, with the values and checks of
// parseSysbenchIntervalBytes. ok is false for any other layout (other
// spacing, eps: lines, older versions) and for a value that
// parseSysbenchIntervalBytes would report: those lines go the general way,
// which says what is wrong.
func sbIntervalFast(b []byte) (iv SysbenchInterval, ok bool) {
	// The position is a local passed along, not a field of a cursor
	// struct: kept in memory, its stores and the loads right after them
	// stalled this loop, by up to three times, depending on where the
	// binary's code and stack happened to lie.
	i, ok := sbLit(b, 0, "[ ")
	if !ok {
		return iv, false
	}
	sec, i, ok := sbNumber(b, i, 's')
	if !ok || sec < 0 {
		return iv, false
	}
	if i, ok = sbLit(b, i, "s ] thds: "); !ok {
		return iv, false
	}
	iv.Sec = sec
	thds, i, ok := sbRate(b, i, ' ')
	if !ok || thds != float64(int(thds)) {
		return iv, false
	}
	iv.Threads = int(thds)
	if i, ok = sbLit(b, i, " tps: "); !ok {
		return iv, false
	}
	if iv.TPS, i, ok = sbRate(b, i, ' '); !ok {
		return iv, false
	}
	if i, ok = sbLit(b, i, " qps: "); !ok {
		return iv, false
	}
	if iv.QPS, i, ok = sbRate(b, i, ' '); !ok {
		return iv, false
	}
	if i, ok = sbLit(b, i, " (r/w/o: "); !ok {
		return iv, false
	}
	if iv.Reads, i, ok = sbRate(b, i, '/'); !ok {
		return iv, false
	}
	if i, ok = sbLit(b, i, "/"); !ok {
		return iv, false
	}
	if iv.Writes, i, ok = sbRate(b, i, '/'); !ok {
		return iv, false
	}
	if i, ok = sbLit(b, i, "/"); !ok {
		return iv, false
	}
	if iv.Other, i, ok = sbRate(b, i, ')'); !ok {
		return iv, false
	}
	if i, ok = sbLit(b, i, ") lat (ms,"); !ok {
		return iv, false
	}
	j := bytes.IndexByte(b[i:], '%')
	if j < 0 {
		return iv, false
	}
	pct, okp := atoiBytes(b[i : i+j])
	if !okp || pct < 1 || pct > 100 {
		return iv, false
	}
	iv.Percentile = pct
	if i, ok = sbLit(b, i+j, "%): "); !ok {
		return iv, false
	}
	lat, i, ok := sbNumber(b, i, ' ')
	if !ok || Plausible(Latency, lat) != nil {
		return iv, false
	}
	iv.LatPct = lat
	if i, ok = sbLit(b, i, " err/s: "); !ok {
		return iv, false
	}
	if iv.ErrPerSec, i, ok = sbRate(b, i, ' '); !ok {
		return iv, false
	}
	if i, ok = sbLit(b, i, " reconn/s: "); !ok {
		return iv, false
	}
	if iv.ReconnPerS, i, ok = sbRate(b, i, 0); !ok {
		return iv, false
	}
	return iv, i == len(b)
}

// sbLit returns the position after s when b continues with s at i.
func sbLit(b []byte, i int, s string) (int, bool) {
	if len(b)-i < len(s) || string(b[i:i+len(s)]) != s {
		return i, false
	}
	return i + len(s), true
}

// sbNumber reads the bytes from i up to stop (0: the end of the line) as a
// number, as numberBytes reads a field, and returns it with the position
// of the stop; an empty field is not a number.
func sbNumber(b []byte, i int, stop byte) (float64, int, bool) {
	// The common token, [+-]digits[.digits] with at most 15 digits, is
	// read as it is found: one look at each byte. Anything else ("1e3",
	// 16 digits, a lone sign) goes to numberBytes.
	start := i
	neg := false
	if i < len(b) && (b[i] == '-' || b[i] == '+') {
		neg = b[i] == '-'
		i++
	}
	var mant uint64
	d0 := i
	for i < len(b) && b[i]-'0' <= 9 {
		mant = mant*10 + uint64(b[i]-'0')
		i++
	}
	digits, frac := i-d0, 0
	if i < len(b) && b[i] == '.' {
		i++
		f0 := i
		for i < len(b) && b[i]-'0' <= 9 {
			mant = mant*10 + uint64(b[i]-'0')
			i++
		}
		frac = i - f0
		digits += frac
	}
	if digits == 0 || digits > 15 || i < len(b) && b[i] != stop && b[i] != ' ' ||
		(i == len(b)) != (stop == 0) || i < len(b) && b[i] != stop {
		return sbNumberSlow(b, start, stop)
	}
	v := float64(mant)
	if frac > 0 {
		v /= pow10[frac]
	}
	if neg {
		v = -v
	}
	return v, i, true
}

// sbNumberSlow is sbNumber for every token, the way the fields are read.
func sbNumberSlow(b []byte, i int, stop byte) (float64, int, bool) {
	// A plain loop: the tokens are a few bytes long, too short for
	// bytes.IndexByte to pay for its call.
	j := i
	for j < len(b) && b[j] != stop && b[j] != ' ' {
		j++
	}
	if j == i || (j == len(b)) != (stop == 0) || (j < len(b) && b[j] != stop) {
		return 0, i, false
	}
	v, ok := numberBytes(b[i:j])
	return v, j, ok
}

// sbRate is sbNumber for a value that must pass Plausible(Rate).
func sbRate(b []byte, i int, stop byte) (float64, int, bool) {
	v, j, ok := sbNumber(b, i, stop)
	// Plausible(Rate, v) == nil, without its call: NaN fails both tests.
	return v, j, ok && v >= 0 && v <= Ceiling
}
