package metrics

import (
	"slices"
	"sync"

	"github.com/ibreport/ibreport/parse"
)

// stepAcc accumulates the records of a step's large files as they are read
// (parse.ScanStep), so that a step is summarized in one pass without keeping
// its records: per client the rates the percentiles and ten-interval
// averages need, per iostat device the sums of its columns, the vmstat sums
// and what the ps samples tell.
type stepAcc struct {
	clients []*clientAcc
	devices []*deviceAcc // in order of first appearance
	vm      vmAcc
	ps      psAcc
	// left lists the iostat rows and vmstat samples the readers found
	// implausible, which the metrics leave out.
	left leftOut
}

// leftOut records the implausible records of a step's files.
type leftOut struct {
	iostat, vmstat []leftRecord
}

type leftRecord struct {
	line int
	why  string
}

// clientAcc is what one client log contributes.
type clientAcc struct {
	lastTSec   float64
	lastTQuery float64
	// Rates of every interval: inserts, deletes and queries per second.
	rates [3][]float64
	// The series drawn: client 1 only.
	series *seriesAcc
}

// intervals is the number of stats lines read.
func (c *clientAcc) intervals() int { return len(c.rates[0]) }

// seriesAcc keeps client 1's per-interval values until the step ends, when
// they are decimated for the charts.
type seriesAcc struct {
	sec, maxI, maxD, maxQ []float64
}

// deviceAcc sums one iostat device's rows.
type deviceAcc struct {
	name string
	seen bool // a row was read, used or not: the next is not the since-boot row
	rows int  // rows used
	// rs … wkb sum every row: the rates of the metrics.
	rs, rkb, ws, wkb float64
	// cols sums every column of every row used but the first (averages
	// since boot): the column averages of sum_iostat.sh. colRows counts them.
	cols    []float64
	colRows int
}

type vmAcc struct {
	samples int // not counting the since-boot row
	cs, cpu float64
}

type psAcc struct {
	rows              int
	firstCPU, lastCPU float64
	largestUser       string
	largestRSS        int64
	maxRSS            map[string]int64 // per user
}

func newStepAcc() *stepAcc {
	return &stepAcc{ps: psAcc{largestRSS: -1, maxRSS: map[string]int64{}}}
}

// sinks are the callbacks that feed the accumulator from parse.ScanStep.
func (a *stepAcc) sinks() parse.StepSinks {
	return parse.StepSinks{
		Interval:   a.interval,
		ClientSize: a.clientSize,
		Iostat:     a.iostatRow,
		Vmstat:     a.vmstatSample,
		Ps:         a.psRow,
	}
}

// replay feeds the accumulator from records already read (parse.ReadStep).
func (a *stepAcc) replay(sd *parse.StepData) {
	for i, c := range sd.Clients {
		a.client(i) // a log without stats lines is still a client
		for j := range c.Intervals {
			a.interval(i, &c.Intervals[j])
		}
	}
	if sd.Iostat != nil {
		for j := range sd.Iostat.Rows {
			a.iostatRow(sd.Iostat, &sd.Iostat.Rows[j])
		}
	}
	if sd.Vmstat != nil {
		for j := range sd.Vmstat.Samples {
			a.vmstatSample(&sd.Vmstat.Samples[j])
		}
	}
	if sd.Ps != nil {
		for j := range sd.Ps.Rows {
			a.psRow(&sd.Ps.Rows[j])
		}
	}
}

func (a *stepAcc) client(i int) *clientAcc {
	for len(a.clients) <= i {
		c := &clientAcc{}
		if len(a.clients) == 0 {
			c.series = &seriesAcc{}
		}
		a.clients = append(a.clients, c)
	}
	return a.clients[i]
}

// statsLineBytes is a short average stats line of a client log that runs
// long enough for its size to matter: 17 columns of a few digits, the
// totals growing (the example's logs average 71–75 bytes a line, a long
// run's more). The room reserved is zeroed, a page fault per 4 KiB: at 48
// bytes, the shortest line, a long run's logs reserved twice what they
// filled, the largest share of a build's page faults. A log of shorter
// lines grows its slices once.
const statsLineBytes = 64

// clientSize reserves room for the intervals of client i, whose log has
// size bytes: growing seven slices by doubling copies each about once and
// was a tenth of the time of a big step. A log of longer lines reserves
// more than it needs.
func (a *stepAcc) clientSize(i int, size int64) {
	c := a.client(i)
	n := int(min(size/statsLineBytes, 1<<24))
	for k := range c.rates {
		c.rates[k] = reserve(c.rates[k], n)
	}
	if s := c.series; s != nil {
		s.sec = reserve(s.sec, n)
		s.maxI = reserve(s.maxI, n)
		s.maxD = reserve(s.maxD, n)
		s.maxQ = reserve(s.maxQ, n)
	}
}

// floatBufs holds the per-interval slices of finished steps for the steps
// still to read (release). A big step reserves megabytes for them, and
// memory new to the process costs a page fault per 4 KiB and its zeroing:
// a twentieth of the CPU time of a big folder.
var floatBufs sync.Pool

// reserve is s with room for n values, from floatBufs when s is empty.
func reserve(s []float64, n int) []float64 {
	if len(s) == 0 {
		if p, ok := floatBufs.Get().(*[]float64); ok && cap(*p) >= n {
			return (*p)[:0]
		}
	}
	return slices.Grow(s, n)
}

// release hands the per-interval slices to floatBufs once the step is
// summarized: nothing of the result refers to them (the series drawn are
// decimated copies).
func (a *stepAcc) release() {
	put := func(s []float64) {
		if cap(s) > 0 {
			s = s[:0]
			floatBufs.Put(&s)
		}
	}
	for _, c := range a.clients {
		for k := range c.rates {
			put(c.rates[k])
			c.rates[k] = nil
		}
		if s := c.series; s != nil {
			put(s.sec)
			put(s.maxI)
			put(s.maxD)
			put(s.maxQ)
			c.series = &seriesAcc{}
		}
	}
}

func (a *stepAcc) interval(i int, iv *parse.Interval) {
	c := a.client(i)
	c.lastTSec = iv.Values[parse.TSec]
	c.lastTQuery = iv.Values[parse.TQuery]
	c.rates[0] = append(c.rates[0], iv.Values[parse.IIps])
	c.rates[1] = append(c.rates[1], iv.Values[parse.IDps])
	c.rates[2] = append(c.rates[2], iv.Values[parse.IQps])
	if s := c.series; s != nil {
		s.sec = append(s.sec, iv.Values[parse.TSec])
		s.maxI = append(s.maxI, iv.Values[parse.MaxI])
		s.maxD = append(s.maxD, iv.Values[parse.MaxD])
		s.maxQ = append(s.maxQ, iv.Values[parse.MaxQ])
	}
}

func (a *stepAcc) device(name string) *deviceAcc {
	for _, d := range a.devices {
		if d.name == name {
			return d
		}
	}
	d := &deviceAcc{name: name}
	a.devices = append(a.devices, d)
	return d
}

func (a *stepAcc) iostatRow(s *parse.Iostat, row *parse.IostatRow) {
	d := a.device(row.Device)
	first := !d.seen
	d.seen = true
	if row.Implausible != "" {
		a.left.iostat = append(a.left.iostat, leftRecord{row.Line, "device " + row.Device + " " + row.Implausible})
		return
	}
	if !first {
		if len(d.cols) < len(row.Values) {
			d.cols = append(d.cols, make([]float64, len(row.Values)-len(d.cols))...)
		}
		cols := d.cols[:len(row.Values)] // one bounds check, not one a column
		for i, v := range row.Values {
			cols[i] += v
		}
		d.colRows++
	}
	d.rows++
	if s.HasRates() {
		d.rs += row.Values[s.Col.RS]
		d.rkb += row.Values[s.Col.RKB]
		d.ws += row.Values[s.Col.WS]
		d.wkb += row.Values[s.Col.WKB]
	}
}

// busiest is the device with the most I/O (KiB read and written over all
// rows); ties go to the device seen first.
func (a *stepAcc) busiest() string {
	var names []string
	total := map[string]float64{}
	for _, d := range a.devices {
		names = append(names, d.name)
		total[d.name] = d.rkb + d.wkb
	}
	return parse.ChooseDevice(names, total)
}

func (a *stepAcc) vmstatSample(s *parse.VmstatSample) {
	if s.Implausible != "" && !s.SinceBoot {
		a.left.vmstat = append(a.left.vmstat, leftRecord{s.Line, s.Implausible})
		return
	}
	a.vm.add(s)
}

// add counts a sample but the since-boot row, and adds its cs and us+sy.
func (v *vmAcc) add(s *parse.VmstatSample) {
	if s.SinceBoot {
		return
	}
	v.samples++
	v.cs += s.Cs
	v.cpu += s.Us + s.Sy
}

func (a *stepAcc) psRow(row *parse.PsRow) {
	p := &a.ps
	if p.rows == 0 {
		p.firstCPU = row.CPUTime
	}
	p.rows++
	p.lastCPU = row.CPUTime
	if row.RSS > p.largestRSS {
		p.largestUser, p.largestRSS = row.User, row.RSS
	}
	if m, ok := p.maxRSS[row.User]; !ok || row.RSS > m {
		p.maxRSS[row.User] = row.RSS
	}
}

// rss is the largest RSS (KiB) of a process of user, -1 when there is none.
// ps prints users longer than 8 characters cut to 7 and "+".
func (p *psAcc) rss(user string) int64 {
	best := int64(-1)
	if m, ok := p.maxRSS[user]; ok {
		best = m
	}
	if len(user) > 7 {
		if m, ok := p.maxRSS[user[:7]+"+"]; ok && m > best {
			best = m
		}
	}
	return best
}
