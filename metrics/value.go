package metrics

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"

	"github.com/ibreport/ibreport/parse"
)

// A Unit names what a Value measures, as the report's headers and the JSON
// output spell it.
type Unit string

// The units of the model. Per-operation units name the operation: an
// inserted row for load steps, an indexed row for the create-index step, a
// query for read+write steps and sysbench.
const (
	NoUnit        Unit = ""
	InsertsPerSec Unit = "inserts/s"
	RowsPerSec    Unit = "rows/s" // indexed rows per second (l.x)
	QueriesPerSec Unit = "queries/s"
	DeletesPerSec Unit = "deletes/s"
	TxPerSec      Unit = "transactions/s"
	KRowsPerSec   Unit = "krows/s" // sysbench scan tests: thousands of rows per second
	ErrorsPerSec  Unit = "errors/s"
	ReadsPerSec   Unit = "reads/s"
	WritesPerSec  Unit = "writes/s"
	MiBPerSec     Unit = "MiB/s"
	CSPerSec      Unit = "cs/s"
	CPUPercent    Unit = "%cpu" // vmstat us+sy: percent of all CPUs
	GiB           Unit = "GiB"
	Seconds       Unit = "s"
	Millis        Unit = "ms"
	Micros        Unit = "µs"
	Percent       Unit = "%"
	RatioUnit     Unit = "ratio" // a value divided by the base DBMS's
	Count         Unit = "count"
)

// PerOp is the unit of a quantity per operation, e.g. PerOp("KiB",
// "insert") is "KiB/insert".
func PerOp(what, op string) Unit { return Unit(what + "/" + op) }

// A Value is one number of the model: the value, its unit and, when it
// cannot be known, why. V of an NA value is NaN, so that code that forgets
// to check OK draws or adds nothing.
//
// Values are made by Known and NA (and the readers, through them). The
// zero Value, that of a missing map entry or an unfilled field, is NA
// with the reason "no value": it prints NA, never a measured 0.
//
// A value read from a file that printed it (an archived mrg table) or
// computed by the compat edge keeps the text it was printed with; Format
// returns that text, so such values are shown exactly as their source had
// them.
type Value struct {
	V    float64
	Unit Unit
	Why  string // non-empty when the value is NA (empty also in the zero Value)
	text *string
	// set tells a made Value from the zero one: a flag that is false in
	// the zero Value keeps every made value as it was, with no reason to
	// fill in at each place that makes one.
	set bool
}

// noValue is the reason of the zero Value.
const noValue = "no value"

// Known returns a known value.
func Known(v float64, u Unit) Value { return Value{V: v, Unit: u, set: true} }

// NA returns an unknown value and the reason.
func NA(u Unit, why string) Value { return Value{V: math.NaN(), Unit: u, Why: why, set: true} }

// NAf is NA with a formatted reason.
func NAf(u Unit, format string, args ...any) Value {
	return NA(u, fmt.Sprintf(format, args...))
}

// OK reports whether the value is known: made by Known, not NA and not
// the zero Value.
func (v Value) OK() bool { return v.set && v.Why == "" }

// reason is why v is NA: Why, or "no value" for the zero Value.
func (v Value) reason() string {
	if !v.set && v.Why == "" {
		return noValue
	}
	return v.Why
}

// Printed returns v with the text its source printed for it.
func (v Value) Printed(text string) Value {
	v.text = &text
	return v
}

// Text returns the text v was printed with by its source, if it has one.
func (v Value) Text() (string, bool) {
	if v.text == nil {
		return "", false
	}
	return *v.text, true
}

// Format prints the value: its source's text when it has one, otherwise
// "NA" for an unknown value, "inf" for an infinite one (a ratio to 0) and
// the number with the given decimals (rounded half to even on the binary
// value, as printf does); digits < 0 prints the shortest text that reads
// back as the same number.
func (v Value) Format(digits int) string {
	if v.text != nil {
		return *v.text
	}
	return FormatFloat(v.V, digits, v.OK())
}

// FormatFloat prints a number as Value.Format does; ok false prints NA.
func FormatFloat(x float64, digits int, ok bool) string {
	switch {
	case !ok || math.IsNaN(x):
		return "NA"
	case math.IsInf(x, 1):
		return "inf"
	case math.IsInf(x, -1):
		return "-inf"
	}
	return strconv.FormatFloat(x, 'f', digits, 64)
}

// Round returns x as Format prints it with the given decimals (rounded half
// to even on the binary value), so that rules on printed values (colour
// bands) see what the reader sees.
func Round(x float64, digits int) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return x
	}
	r, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'f', digits, 64), 64)
	return r
}

// valueJSON is how a Value is written as JSON: null for a value that is
// not a finite number.
type valueJSON struct {
	Value *float64 `json:"value"`
	Unit  Unit     `json:"unit,omitempty"`
	Why   string   `json:"na,omitempty"`
	Text  *string  `json:"text,omitempty"`
}

// MarshalJSON writes {"value": x, "unit": u}, with "na" (the reason) for
// an unknown value, whose value is null, and "text" for a value that keeps
// its source's text. An infinite value is null with text "inf".
func (v Value) MarshalJSON() ([]byte, error) {
	j := valueJSON{Unit: v.Unit, Why: v.reason(), Text: v.text}
	switch {
	case v.OK() && math.IsInf(v.V, 0) && v.text == nil:
		s := FormatFloat(v.V, 0, true)
		j.Text = &s
	case v.OK() && !math.IsNaN(v.V) && !math.IsInf(v.V, 0):
		x := v.V
		j.Value = &x
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads what MarshalJSON writes.
func (v *Value) UnmarshalJSON(b []byte) error {
	var j valueJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*v = Value{V: math.NaN(), Unit: j.Unit, Why: j.Why, text: j.Text, set: true}
	switch {
	case j.Value != nil:
		v.V = *j.Value
	case j.Text != nil && *j.Text == "inf" && j.Why == "":
		v.V, v.text = math.Inf(1), nil
	}
	return nil
}

// Ratio is o relative to b: o/b, 1 for 0/0, +Inf for x/0, and NA when
// either is NA (the relative-value rule of the original summaries). It
// divides the values as they are, unrounded.
func Ratio(o, b Value) Value {
	switch {
	case !o.OK():
		return NA(RatioUnit, o.reason())
	case !b.OK():
		return NA(RatioUnit, "base: "+b.reason())
	case o.V == 0 && b.V == 0:
		return Known(1, RatioUnit)
	case b.V == 0:
		return Known(math.Inf(1), RatioUnit)
	}
	return Known(o.V/b.V, RatioUnit)
}

// RelativeTo is o relative to the base b of a relative table or finding,
// in the column col: Ratio, except that a base that is no usable divisor
// gives NA with the reason ("base ips is 0") instead of a number nobody
// could read: 0 under a value that is not, a negative, infinite or absurd
// base, or a quotient beyond parse.Ceiling. 0/0 stays 1, the documented rule
// of the relative tables.
func RelativeTo(o, b Value, col string) Value {
	r := Ratio(o, b)
	switch {
	case !r.OK():
		return r
	case b.V == 0 && o.V != 0:
		return NAf(RatioUnit, "base %s is 0", col)
	}
	if err := parse.Plausible(parse.Ratio, b.V); err != nil {
		return NAf(RatioUnit, "base %s: %v", col, err)
	}
	if err := parse.Plausible(parse.Ratio, o.V); err != nil {
		return NAf(RatioUnit, "%s: %v", col, err)
	}
	if err := parse.Plausible(parse.Ratio, r.V); err != nil {
		return NAf(RatioUnit, "%s relative to its base: %v", col, err)
	}
	return r
}

// RatioText prints Ratio(o, b) as the relative tables do: "1" for 0/0,
// "inf" for x/0, "NA", or two decimals.
func RatioText(o, b Value) string {
	if o.OK() && b.OK() && o.V == 0 && b.V == 0 {
		return "1"
	}
	return Ratio(o, b).Format(2)
}

// Plural writes a number of things, the noun in the plural unless there is
// one: Plural(1, "thread") is "1 thread", Plural(40, "thread") "40 threads".
func Plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
