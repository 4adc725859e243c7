package compat

import (
	"fmt"
	"io/fs"
	"strings"

	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/parse"
)

// bigFiles is what the summary takes from a step's iostat, vmstat and ps
// files, gathered row by row as they are read (ComputeStep streams them
// through parse.ScanStep) or from the rows of a step read whole (fromRecords):
// sums per device, the vmstat sums and the ps rows the driver quoted. So
// memory does not grow with the length of a step's iostat, vmstat and ps
// files. Every sum adds the same values in the same order as the scripts'
// awk did over the whole file.
type bigFiles struct {
	devices []*ioDevice // in order of first appearance
	width   int         // values per iostat row (all rows have the header's)
	// reread reads the iostat file again with its rows: for the rare device
	// name that several devices contain (dm-1 is in dm-10), whose rows the
	// scripts added up interleaved, in file order.
	reread func() *parse.Iostat
	// warnings say what could not be done so.
	warnings []string

	vmCs, vmCPU float64 // cs and us+sy over the samples, in file order

	ps psAcc
}

// ioDevice sums one iostat device's rows.
type ioDevice struct {
	name             string
	rows             int
	rs, rkb, ws, wkb float64
	// io is rkB/s + wkB/s of each row, added up: BusiestDevice's measure.
	io float64
	// cols sums every column of every row but the first (sum_iostat.sh).
	cols []float64
}

// psAcc keeps of the ps rows what the summary uses.
type psAcc struct {
	rows              int
	firstCPU, lastCPU float64
	byVSZ, byRSS      psBest
	largestUser       string
	largestRSS        int64
	maxRSS            map[string]int64 // per user
}

// psBest is the ps line the driver kept after sorting on a key: the
// largest key, ties broken by the larger line in byte order.
type psBest struct {
	set  bool
	key  int64
	text string
}

func (b *psBest) add(key int64, text []byte) {
	if !b.set || key > b.key || key == b.key && string(text) > b.text {
		b.set, b.key, b.text = true, key, string(text)
	}
}

func newBigFiles() *bigFiles {
	return &bigFiles{ps: psAcc{largestRSS: -1, maxRSS: map[string]int64{}}}
}

// sinks feed b from parse.ScanStep; the client logs are kept whole.
func (b *bigFiles) sinks() parse.StepSinks {
	return parse.StepSinks{
		Iostat: func(s *parse.Iostat, r *parse.IostatRow) { b.iostatRow(s, r) },
		Vmstat: b.vmstatSample,
		Ps:     func(r *parse.PsRow) { b.psRow(r, r.Raw) },
	}
}

// fromRecords gathers b from the rows of a step read whole.
func fromRecords(sd *parse.StepData) *bigFiles {
	b := newBigFiles()
	if io := sd.Iostat; io != nil {
		for i := range io.Rows {
			b.iostatRow(io, &io.Rows[i])
		}
		b.reread = func() *parse.Iostat { return io }
	}
	if sd.Vmstat != nil {
		for i := range sd.Vmstat.Samples {
			b.vmstatSample(&sd.Vmstat.Samples[i])
		}
	}
	if sd.Ps != nil {
		for i := range sd.Ps.Rows {
			b.psRow(&sd.Ps.Rows[i], []byte(sd.Ps.Rows[i].Text))
		}
	}
	return b
}

// rereadFrom has b read the iostat file of sd again from fsys when it
// needs its rows.
func (b *bigFiles) rereadFrom(fsys fs.FS, sd *parse.StepData) {
	if sd.Iostat == nil {
		return
	}
	name := sd.Iostat.Name
	b.reread = func() *parse.Iostat {
		f, err := parse.OpenRegular(fsys, name)
		if err != nil {
			return nil
		}
		defer f.Close()
		s, _ := parse.ReadIostat(f, name) // its errors were reported the first time
		return s
	}
}

func (b *bigFiles) iostatRow(s *parse.Iostat, r *parse.IostatRow) {
	var d *ioDevice
	for _, x := range b.devices {
		if x.name == r.Device {
			d = x
			break
		}
	}
	if d == nil {
		d = &ioDevice{name: r.Device}
		b.devices = append(b.devices, d)
	}
	if d.rows > 0 {
		if len(d.cols) < len(r.Values) {
			d.cols = append(d.cols, make([]float64, len(r.Values)-len(d.cols))...)
		}
		for i, v := range r.Values {
			d.cols[i] += v
		}
	}
	d.rows++
	b.width = len(r.Values)
	if s.HasRates() {
		d.rs += r.Values[s.Col.RS]
		d.rkb += r.Values[s.Col.RKB]
		d.ws += r.Values[s.Col.WS]
		d.wkb += r.Values[s.Col.WKB]
		d.io += r.Values[s.Col.RKB] + r.Values[s.Col.WKB]
	}
}

func (b *bigFiles) vmstatSample(x *parse.VmstatSample) {
	b.vmCs += x.Cs
	b.vmCPU += x.Us + x.Sy
}

func (b *bigFiles) psRow(r *parse.PsRow, text []byte) {
	p := &b.ps
	if p.rows == 0 {
		p.firstCPU = r.CPUTime
	}
	p.rows++
	p.lastCPU = r.CPUTime
	p.byVSZ.add(r.VSZ, text)
	p.byRSS.add(r.RSS, text)
	if r.RSS > p.largestRSS {
		p.largestUser, p.largestRSS = r.User, r.RSS
	}
	if m, ok := p.maxRSS[r.User]; !ok || r.RSS > m {
		p.maxRSS[r.User] = r.RSS
	}
}

// busiest is parse.(*Iostat).BusiestDevice of the rows read.
func (b *bigFiles) busiest(s *parse.Iostat) string {
	if !s.HasRates() {
		return ""
	}
	var names []string
	total := map[string]float64{}
	for _, d := range b.devices {
		names = append(names, d.name)
		total[d.name] = d.io
	}
	return parse.ChooseDevice(names, total)
}

// matching are the devices whose name contains device, as the scripts'
// grep matched them.
func (b *bigFiles) matching(device string) []*ioDevice {
	var out []*ioDevice
	for _, d := range b.devices {
		if strings.Contains(d.name, device) {
			out = append(out, d)
		}
	}
	return out
}

// names are the device names in order of first appearance.
func (b *bigFiles) names() []string {
	out := make([]string, len(b.devices))
	for i, d := range b.devices {
		out[i] = d.name
	}
	return out
}

// sumIostat is metrics.SumIostat(s, device, strings.Contains) of the rows
// read.
func (b *bigFiles) sumIostat(s *parse.Iostat, device string) metrics.IostatSums {
	var out metrics.IostatSums
	if s == nil || device == "" || !s.HasRates() {
		return out
	}
	switch m := b.matching(device); len(m) {
	case 0:
		out.Warnings = append(out.Warnings, fmt.Sprintf("%s: no iostat rows for device %q", s.Name, device))
	case 1:
		d := m[0]
		out.Rows, out.RS, out.RKB, out.WS, out.WKB = d.rows, d.rs, d.rkb, d.ws, d.wkb
	default:
		if full := b.full(s); full != nil {
			return metrics.SumIostat(full, device, strings.Contains)
		}
	}
	return out
}

// full is the iostat file s with its rows, read again; nil, with a
// warning, when that fails.
func (b *bigFiles) full(s *parse.Iostat) *parse.Iostat {
	var full *parse.Iostat
	if b.reread != nil {
		full = b.reread()
	}
	if full == nil {
		b.warnings = append(b.warnings, fmt.Sprintf("%s: cannot be read again to add up the rows of the devices the name matches; they are left out", s.Name))
	}
	return full
}
