package metrics

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/ibreport/ibreport/parse"
)

// A Warning is one thing said about the results beside the numbers: a
// problem met reading or computing them, the reason a value is NA, or a
// choice made that a reader should know of (the block device, the scan
// generation). Text is the whole message as the CLI prints it and the
// report lists it; the other fields say, for programs, what it is about,
// and are empty where it is about no file, DBMS, step or metric.
type Warning struct {
	Kind WarningKind `json:"kind"`
	// File is the file it concerns, a path inside the results folder;
	// Line its 1-based line, 0 when it concerns the whole file.
	File string `json:"file,omitempty"`
	Line int    `json:"line,omitempty"`
	// DBMS is the DBMS (tree or sysbench folder name), Step the step
	// (merge name, "l.i0") or sysbench test, Metric the metric's name as
	// the tables head it ("ips", "p50").
	DBMS   string `json:"dbms,omitempty"`
	Step   string `json:"step,omitempty"`
	Metric string `json:"metric,omitempty"`
	Text   string `json:"text"`
}

// String is the message as the CLI prints it: Text.
func (w Warning) String() string { return w.Text }

// Info reports whether w is information, not a warning: the CLI prints it
// apart, not as "warning:".
func (w Warning) Info() bool { return w.Kind == Information }

// WarningKind tells information from warnings, and, among warnings, the
// reasons of NA values from the other problems.
type WarningKind uint8

const (
	// Problem is something wrong or suspicious met in the input or the
	// arithmetic: a line skipped, a file missing, a value estimated.
	Problem WarningKind = iota
	// NotAvailable explains why the value of Metric is NA.
	NotAvailable
	// Information says how something was chosen (the block device, the
	// scan-rate generation): not a problem, and not printed as a warning.
	Information
)

var kindNames = [...]string{Problem: "problem", NotAvailable: "na", Information: "info"}

// String is the kind's name in JSON: "problem", "na" or "info".
func (k WarningKind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("WarningKind(%d)", k)
}

// MarshalText writes the kind as its name, so that JSON holds words.
func (k WarningKind) MarshalText() ([]byte, error) {
	if int(k) >= len(kindNames) {
		return nil, fmt.Errorf("unknown warning kind %d", k)
	}
	return []byte(kindNames[k]), nil
}

// UnmarshalText reads a name MarshalText wrote.
func (k *WarningKind) UnmarshalText(b []byte) error {
	if k == nil {
		return errors.New("UnmarshalText on a nil *WarningKind")
	}
	for i, n := range kindNames {
		if n == string(b) {
			*k = WarningKind(i)
			return nil
		}
	}
	return fmt.Errorf("unknown warning kind %q: want problem, na or info", b)
}

// Warnf is a Problem that concerns no particular file, DBMS or step, with
// the text of fmt.Sprintf(format, args...).
func Warnf(format string, args ...any) Warning {
	return Warning{Text: fmt.Sprintf(format, args...)}
}

// ErrWarning is the Problem of a non-fatal error (a line skipped, a file
// missing): its text, and the file and line of a *parse.SyntaxError or the
// path of an *fs.PathError it wraps. A nil error gives a zero Warning.
func ErrWarning(err error) Warning {
	if err == nil {
		return Warning{}
	}
	w := Warning{Text: err.Error()}
	var se *parse.SyntaxError
	var pe *fs.PathError
	switch {
	case errors.As(err, &se) && se != nil:
		w.File, w.Line = se.File, se.Line
	case errors.As(err, &pe) && pe != nil:
		w.File = pe.Path
	}
	return w
}

// TextWarnings makes each text a Problem with that text only: for the
// warnings of code that knows no more than the message.
func TextWarnings(texts []string) []Warning {
	if len(texts) == 0 {
		return nil
	}
	out := make([]Warning, len(texts))
	for i, t := range texts {
		out[i] = Warning{Text: t}
	}
	return out
}

// WarningTexts are the texts of ws, in order.
func WarningTexts(ws []Warning) []string {
	if len(ws) == 0 {
		return nil
	}
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.Text
	}
	return out
}

// NAWarning is the NotAvailable warning that explains the value v of
// metric m of a step of DBMS tree, NA: "<tree> <step>: <metric> is NA:
// <why>".
func NAWarning(tree, step string, m Metric, v Value) Warning {
	return Warning{Kind: NotAvailable, DBMS: tree, Step: step, Metric: m.Name(),
		Text: fmt.Sprintf("%s %s: %s is NA: %s", tree, step, m.Name(), v.Why)}
}

// ExplainNA gives each NA metric of r (Metrics) a NotAvailable warning
// that names it and says why, replacing those it had: a StepResult
// renamed or changed after it was computed keeps warnings that match it.
// Summarize and ComputeStep call it; the compat edge too.
func (r *StepResult) ExplainNA() {
	if r == nil {
		return
	}
	kept := r.Warnings[:0:0]
	for _, w := range r.Warnings {
		if w.Kind != NotAvailable {
			kept = append(kept, w)
		}
	}
	for i, v := range r.Metrics {
		if !v.OK() {
			kept = append(kept, NAWarning(r.Tree, r.Step.MergeName, Metric(i), v))
		}
	}
	if len(kept) == 0 {
		kept = nil
	}
	r.Warnings = kept
}
