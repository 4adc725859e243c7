package parse

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
	"unsafe"
)

// maxLine is the longest line a reader accepts. Longer lines are reported and
// skipped instead of aborting the read, because a corrupt log must not hide
// the good lines after it.
const maxLine = 1 << 20

// lineScanner yields the lines of r with their 1-based numbers, without the
// line terminator (a trailing '\r' is removed too). The bytes of a line are
// valid until the next Scan; Text copies them into a string.
//
// It reads into a buffer of its own and finds each line with one
// IndexByte: the lines of the stats files are short, and the layers of a
// bufio.Reader cost a tenth of what the line search and the read itself do.
type lineScanner struct {
	rd   io.Reader
	b    *[]byte // the read buffer, from readers
	r, w int     // (*b)[r:w] is read and not yet scanned
	eof  bool    // rd said io.EOF
	rerr error   // rd's error, returned once the lines before it are scanned
	acc  []byte  // a line longer than the buffer, assembled
	n    int
	line []byte
	text string
	str  bool // text holds line
	long bool // the current line was longer than maxLine and was cut
	done bool
	err  error
}

// newLineScanner returns a scanner over r with a buffer from a free list; a
// reader that calls release when done hands the buffer to the next one: a
// folder of a thousand files would otherwise allocate (and clear) one per
// file.
func newLineScanner(r io.Reader) *lineScanner {
	if r == nil {
		r = noInput{}
	}
	return &lineScanner{rd: r, b: getBuffer()}
}

// readBuf is the size of a scanner's buffer: a read system call per readBuf
// bytes of a file.
const readBuf = 256 << 10

// readers holds the buffers of released scanners, at most maxFreeReaders of
// them. Unlike a sync.Pool it is not emptied by every garbage collection, of
// which a big folder runs a dozen: each would have the next readers
// allocate, clear and page-fault their buffers afresh.
var readers struct {
	sync.Mutex
	free []*[]byte
}

// maxFreeReaders bounds the buffers kept: more than the files read at once
// (one per worker, a few workers per CPU at most) would only hold memory.
const maxFreeReaders = 16

func getBuffer() *[]byte {
	readers.Lock()
	if n := len(readers.free); n > 0 {
		b := readers.free[n-1]
		readers.free[n-1] = nil
		readers.free = readers.free[:n-1]
		readers.Unlock()
		return b
	}
	readers.Unlock()
	b := make([]byte, readBuf)
	return &b
}

// release hands the scanner's buffer back to the free list. Neither the
// scanner nor its lines may be used after; a second release does nothing.
func (s *lineScanner) release() {
	if s.b == nil {
		return
	}
	readers.Lock()
	if len(readers.free) < maxFreeReaders {
		readers.free = append(readers.free, s.b)
	}
	readers.Unlock()
	s.b, s.rd, s.line, s.acc = nil, nil, nil, nil
}

// maxEmptyReads is how many reads in a row may return nothing and no error
// before the reader is given up on (io.ErrNoProgress), as bufio does.
const maxEmptyReads = 100

// fill reads more into the buffer after its unscanned bytes, moving those
// to its start first. It reports whether it read anything; when not,
// s.eof or s.rerr says why.
func (s *lineScanner) fill() bool {
	b := *s.b
	if s.r > 0 {
		s.w = copy(b, b[s.r:s.w])
		s.r = 0
	}
	for range maxEmptyReads {
		n, err := s.rd.Read(b[s.w:])
		if n < 0 || n > len(b)-s.w {
			s.rerr = errNegativeRead
			return false
		}
		s.w += n
		if err != nil {
			if err == io.EOF {
				s.eof = true
			} else {
				s.rerr = err
			}
			return n > 0
		}
		if n > 0 {
			return true
		}
	}
	s.rerr = io.ErrNoProgress
	return false
}

var errNegativeRead = errors.New("reader returned an impossible count")

// Scan advances to the next line and reports whether there is one.
func (s *lineScanner) Scan() bool {
	// The common case first: a whole line in the buffer.
	if b := *s.b; !s.done {
		if i := bytes.IndexByte(b[s.r:s.w], '\n'); i >= 0 && i < maxLine {
			line := b[s.r : s.r+i]
			s.r += i + 1
			if n := len(line); n > 0 && line[n-1] == '\r' {
				line = line[:n-1]
			}
			s.n++
			s.line, s.long, s.str = line, false, false
			return true
		}
	}
	return s.scan()
}

// scan is Scan for the lines that need the buffer refilled, that are
// longer than it, or that end the input.
func (s *lineScanner) scan() bool {
	if s.done {
		return false
	}
	s.long, s.str = false, false
	s.acc = s.acc[:0]
	assembling := false // the line's start is in acc
	for {
		b := *s.b
		if i := bytes.IndexByte(b[s.r:s.w], '\n'); i >= 0 {
			frag := b[s.r : s.r+i+1]
			s.r += i + 1
			line := frag
			if assembling {
				s.add(frag)
				line = s.acc
			}
			return s.found(line)
		}
		if s.eof || s.rerr != nil {
			frag := b[s.r:s.w]
			s.r = s.w
			s.done = true
			if s.rerr != nil {
				s.err = s.rerr
				return false
			}
			if !assembling && len(frag) == 0 {
				return false
			}
			line := frag
			if assembling {
				s.add(frag)
				line = s.acc
			}
			return s.found(line)
		}
		if s.r == 0 && s.w == len(b) {
			// A full buffer without a newline: the line goes on.
			s.add(b[:s.w])
			s.w = 0
			assembling = true
		}
		s.fill()
	}
}

// add appends a fragment of a long line to acc, up to maxLine+2 bytes (room
// for "\r\n"); past that the line is long and the rest is dropped.
func (s *lineScanner) add(frag []byte) {
	if s.long {
		return
	}
	if len(s.acc)+len(frag) <= maxLine+2 {
		s.acc = append(s.acc, frag...)
	} else {
		s.long = true
	}
}

// found makes line, with its terminator, the current line.
func (s *lineScanner) found(line []byte) bool {
	s.n++
	line = trimEOL(line)
	if len(line) > maxLine {
		s.long = true
		line = line[:maxLine]
	}
	s.line = line
	return true
}

// Text returns the current line as a string.
func (s *lineScanner) Text() string {
	if !s.str {
		s.text, s.str = string(s.line), true
	}
	return s.text
}

// Err returns the first I/O error met, or nil at a clean end of input.
func (s *lineScanner) Err() error { return s.err }

func trimEOL(b []byte) []byte {
	if n := len(b); n > 0 && b[n-1] == '\n' {
		b = b[:n-1]
	}
	if n := len(b); n > 0 && b[n-1] == '\r' {
		b = b[:n-1]
	}
	return b
}

// fields splits a line on runs of blanks (spaces and tabs), as awk does.
func fields(s string) []string {
	n := 0
	in := false
	for i := 0; i < len(s); i++ {
		blank := s[i] == ' ' || s[i] == '\t'
		if !blank && !in {
			n++
		}
		in = !blank
	}
	out := make([]string, 0, n)
	start := -1
	for i := 0; i < len(s); i++ {
		if s[i] == ' ' || s[i] == '\t' {
			if start >= 0 {
				out = append(out, s[start:i])
				start = -1
			}
		} else if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		out = append(out, s[start:])
	}
	return out
}

// fieldList holds the blank-separated fields of a line as offsets into it:
// filling it stores no pointers, so it costs no garbage-collector work.
type fieldList struct {
	line []byte
	off  []int32 // start and end of each field
}

// n is the number of fields.
func (f *fieldList) n() int { return len(f.off) / 2 }

// at is field i, a slice of the line.
func (f *fieldList) at(i int) []byte { return f.line[f.off[2*i]:f.off[2*i+1]] }

// is reports whether field i is s.
func (f *fieldList) is(i int, s string) bool { return i < f.n() && string(f.at(i)) == s }

// has reports whether some field is s.
func (f *fieldList) has(s string) bool {
	for i := range f.n() {
		if string(f.at(i)) == s {
			return true
		}
	}
	return false
}

// split splits a line into its blank-separated fields and, in the same
// pass, reports whether it is binary junk (binaryJunk): the common
// printable-ASCII line costs one look at each byte.
func (f *fieldList) split(b []byte) (junk bool) { return f.splitUpTo(0, b) }

// splitUpTo is split for lines of which only the first max fields are read
// (all of them when max is 0): the max-th field is the rest of the line,
// blanks and all, which is only checked for junk (a ps line's COMMAND). A
// line of fewer fields is split as split does, so f.n() is exact below max
// and max otherwise.
func (f *fieldList) splitUpTo(max int, b []byte) (junk bool) {
	f.line, f.off = b, f.off[:0]
	odd := false
	i := 0
	// A loop of its own for the blanks and one for each field's bytes:
	// their exits are predictable, where one loop switching on every byte
	// is not.
	for {
		for i < len(b) && (b[i] == ' ' || b[i] == '\t') {
			i++
		}
		if i >= len(b) {
			break
		}
		if max > 0 && len(f.off) == 2*(max-1) {
			// The last field read: the rest of the line.
			f.off = append(f.off, int32(i), int32(len(b)))
			if !odd && !plainText(b[i:]) {
				odd = true
			}
			break
		}
		start := i
		for i < len(b) {
			c := b[i]
			if c == ' ' || c == '\t' {
				break
			}
			if c < 0x20 || c >= 0x7f {
				odd = true
			}
			i++
		}
		f.off = append(f.off, int32(start), int32(i))
	}
	return odd && slowJunk(string(b))
}

// plainText reports whether b holds only printable ASCII and TABs, eight
// bytes at a time: a ps line's COMMAND is a third of its bytes.
func plainText(b []byte) bool {
	const lo, hi = 0x0101010101010101, 0x8080808080808080
	i := 0
	for ; i+8 <= len(b); i += 8 {
		w := binary.LittleEndian.Uint64(b[i:])
		// A byte below 0x20 or at or above 0x7f sets its high bit in one
		// of the terms; TAB (below 0x20) is then looked at byte by byte.
		if (w|(w-0x20*lo)|(w+0x01*lo))&hi != 0 {
			return plainBytes(b[i:])
		}
	}
	return plainBytes(b[i:])
}

func plainBytes(b []byte) bool {
	for _, c := range b {
		if c < 0x20 && c != '\t' || c >= 0x7f {
			return false
		}
	}
	return true
}

// binaryJunk reports whether a line holds bytes that never occur in the text
// the benchmark tools print.
func binaryJunk(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 && c != '\t' || c >= 0x7f {
			return slowJunk(s)
		}
	}
	return false
}

// slowJunk is binaryJunk for lines that are not plain printable ASCII:
// invalid UTF-8 or a control character other than TAB.
func slowJunk(s string) bool {
	if !utf8.ValidString(s) {
		return true
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 && c != '\t' {
			return true
		}
	}
	return false
}

// number parses a token as a finite float. It rejects NaN and infinities,
// which no benchmark tool prints as a measurement.
func number(tok string) (float64, bool) {
	if v, ok, sure := fastNumber(tok); sure {
		return v, ok
	}
	return slowNumber(tok)
}

// numberBytes is number on bytes.
func numberBytes(tok []byte) (float64, bool) {
	if v, ok, sure := fastNumber(tok); sure {
		return v, ok
	}
	return slowNumber(string(tok))
}

func slowNumber(tok string) (float64, bool) {
	if strings.ContainsAny(tok, "xXnNiI_") {
		return 0, false // hex floats, NaN, Inf and digit separators are not measurements
	}
	v, err := strconv.ParseFloat(tok, 64)
	if err != nil {
		return 0, false
	}
	if v != v || v > 1.7976931348623157e308 || v < -1.7976931348623157e308 {
		return 0, false
	}
	return v, true
}

// pow10 are the powers of ten a float64 holds exactly.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// fastNumber parses the common forms of the tools' numbers, [+-]digits and
// [+-]digits.digits with at most 15 digits, exactly as strconv.ParseFloat
// does: the digits make an exact integer and dividing it by an exact power
// of ten rounds once, correctly. sure is false for anything else, which
// the caller hands to strconv.
func fastNumber[T string | []byte](tok T) (v float64, ok, sure bool) {
	i, n := 0, len(tok)
	neg := false
	if i < n && (tok[i] == '+' || tok[i] == '-') {
		neg = tok[i] == '-'
		i++
	}
	var mant uint64
	digits, frac := 0, 0
	for ; i < n && tok[i] >= '0' && tok[i] <= '9'; i++ {
		mant = mant*10 + uint64(tok[i]-'0')
		digits++
	}
	if i < n && tok[i] == '.' {
		i++
		for ; i < n && tok[i] >= '0' && tok[i] <= '9'; i++ {
			mant = mant*10 + uint64(tok[i]-'0')
			digits++
			frac++
		}
	}
	if i != n || digits == 0 || digits > 15 {
		return 0, false, false
	}
	v = float64(mant)
	if frac > 0 {
		v /= pow10[frac]
	}
	if neg {
		v = -v
	}
	return v, true, true
}

// numericLine reads the common line of a stats file in one pass: fields
// blank-separated, the first skip of them anything printable (a device
// name), the others plain numbers of the forms fastNumber reads, at most
// len(vals) of them. It stores the numbers in vals and returns the number
// of fields and, in line[f0:f1], field 0; neg reports whether a number had
// a minus sign (without one, every number read is at least 0 and, of at
// most 15 digits, below Ceiling: the callers' plausibility rules then only
// need the columns with a lower ceiling). ok is false for any other line
// (binary junk, a token that is not a plain number, too many fields): the
// caller then reads it the general way, which reports what is wrong.
//
// Field 0's bounds are two results, not an array, so they come back in
// registers: Go returns an array of two in memory.
func numericLine(line []byte, skip int, vals []float64) (n, f0, f1 int, neg, ok bool) {
	i := 0
	for n < skip {
		if i = skipBlank(line, i); i >= len(line) {
			return n, f0, f1, neg, true
		}
		start := i
		for i < len(line) && line[i] != ' ' && line[i] != '\t' {
			if c := line[i]; c < 0x20 || c >= 0x7f {
				return n, f0, f1, neg, false
			}
			i++
		}
		if n == 0 {
			f0, f1 = start, i
		}
		n++
	}
	start := i // of the numbers
	k, bad := numbersSentinel(withSentinel(line[i:]), vals)
	if n == 0 && k > 0 {
		f0 = skipBlank(line, start)
		f1 = f0 + tokenLen(line[f0:])
	}
	// A minus sign can only be in a number here: the skipped fields are
	// before start.
	neg = bytes.IndexByte(line[start:], '-') >= 0
	return n + k, f0, f1, neg, !bad
}

// withSentinel returns line followed in its buffer by a byte that stops
// numbersSentinel's loops: line itself when the scanner's buffer has one
// there (the newline, as a rule), else a copy with a newline after it.
func withSentinel(line []byte) []byte {
	if len(line) < cap(line) && stops(line[:len(line)+1][len(line)]) {
		return line
	}
	c := make([]byte, len(line), len(line)+1)
	copy(c, line)
	return append(c, '\n')[:len(line)]
}

// stops reports whether c ends every loop of numbersSentinel: not a blank,
// a digit, a dot or a sign.
func stops(c byte) bool {
	return c != ' ' && c != '\t' && c-'0' > 9 && c != '.' && c != '-' && c != '+'
}

// numbersSentinel reads the plain numbers of a line followed in its
// buffer by a byte that stops its loops (withSentinel) into vals and
// returns how many it read; bad is set when a field is not a plain number
// or there are more than len(vals).
//
// This is the hottest loop of the insert benchmark. Its loops over the
// bytes need no test of the position against the length, since the byte
// after the line stops them, and read through a pointer, without bounds
// checks; the byte at len(line) is read, never one past it. The digits are
// read here, not in a call per number (a call per number cost the client
// logs a sixth of their time: their numbers are short), and the loop keeps
// few values live, so the mantissa stays in a register; numericLine finds
// the sign and the first field's bounds after it.
func numbersSentinel(line []byte, vals []float64) (k int, bad bool) {
	n := uintptr(len(line))
	p := unsafe.Pointer(unsafe.SliceData(line))
	at := func(i uintptr) byte { return *(*byte)(unsafe.Add(p, i)) }
	var i uintptr
	for {
		for c := at(i); c == ' ' || c == '\t'; c = at(i) {
			i++
		}
		if i >= n {
			return k, false
		}
		if k >= len(vals) {
			return k, true
		}
		sign := at(i) == '-'
		if sign || at(i) == '+' {
			i++
		}
		var mant int64
		d0 := i
		for d := at(i) - '0'; d <= 9; d = at(i) - '0' {
			mant = mant*10 + int64(d)
			i++
		}
		digits := i - d0
		var frac uintptr
		if at(i) == '.' {
			i++
			f0 := i
			for d := at(i) - '0'; d <= 9; d = at(i) - '0' {
				mant = mant*10 + int64(d)
				i++
			}
			frac = i - f0
			digits += frac
		}
		if digits == 0 || digits > 15 || i < n && at(i) != ' ' && at(i) != '\t' {
			return k, true
		}
		v := float64(mant)
		if frac > 0 {
			v /= pow10[frac&15] // frac <= digits <= 15
		}
		if sign {
			v = -v
		}
		vals[k] = v
		k++
	}
}

// numbersSome is numbersSentinel for numericLineSome: the number of field
// k is stored only where conv[k] is set, and there are at most len(conv)
// fields. It is a copy of numbersSentinel's loop rather than one loop with
// a nil conv for "all": the extra live slice cost the client logs a tenth
// of their time.
func numbersSome(line []byte, vals []float64, conv []bool) (k int, bad bool) {
	n := uintptr(len(line))
	p := unsafe.Pointer(unsafe.SliceData(line))
	at := func(i uintptr) byte { return *(*byte)(unsafe.Add(p, i)) }
	var i uintptr
	for {
		for c := at(i); c == ' ' || c == '\t'; c = at(i) {
			i++
		}
		if i >= n {
			return k, false
		}
		if k >= len(vals) || k >= len(conv) {
			return k, true
		}
		sign := at(i) == '-'
		if sign || at(i) == '+' {
			i++
		}
		var mant int64
		d0 := i
		for d := at(i) - '0'; d <= 9; d = at(i) - '0' {
			mant = mant*10 + int64(d)
			i++
		}
		digits := i - d0
		var frac uintptr
		if at(i) == '.' {
			i++
			f0 := i
			for d := at(i) - '0'; d <= 9; d = at(i) - '0' {
				mant = mant*10 + int64(d)
				i++
			}
			frac = i - f0
			digits += frac
		}
		if digits == 0 || digits > 15 || i < n && at(i) != ' ' && at(i) != '\t' {
			return k, true
		}
		if conv[k] {
			v := float64(mant)
			if frac > 0 {
				v /= pow10[frac&15] // frac <= digits <= 15
			}
			if sign {
				v = -v
			}
			vals[k] = v
		}
		k++
	}
}

// skipBlank is the index of the first byte at or after i that is not a
// blank, or len(line).
func skipBlank(line []byte, i int) int {
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	return i
}

// tokenLen is the length of the field at the start of b.
func tokenLen(b []byte) int {
	for i, c := range b {
		if c == ' ' || c == '\t' {
			return i
		}
	}
	return len(b)
}

// numericLineSome is numericLine without skipped fields for lines of which
// only some numbers are used: the number of field k is converted into
// vals[k] when conv[k] is set, and otherwise only checked to be a plain
// number, vals[k] left as it was. It accepts the lines
// numericLine accepts, with the same n and neg: a caller that needs every
// number where neg is set (for the plausibility rules) reads the line
// again with numericLine.
func numericLineSome(line []byte, vals []float64, conv []bool) (n int, neg, ok bool) {
	n, bad := numbersSome(withSentinel(line), vals, conv)
	return n, bytes.IndexByte(line, '-') >= 0, !bad
}

// firstToken is the first blank-separated field of a line, or nil.
func firstToken(line []byte) []byte {
	i := 0
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	j := i
	for j < len(line) && line[j] != ' ' && line[j] != '\t' {
		j++
	}
	return line[i:j]
}
