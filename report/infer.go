package report

import (
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/parse"
)

// ScanGenChoice is how the sysbench scan row-rate generation was chosen.
type ScanGenChoice struct {
	// Gen is the generation used (metrics.ScanGenRowsPerRun …
	// ScanGenRowsPerLatency).
	Gen int
	// Source says where it came from: "option", "settings", "archived
	// rates" or "default".
	Source string
	// Matches and Runs count the scan runs whose archived rate (sb.met o/s
	// or the first value of sb.r.qps) the generation reproduces, of those
	// that have one.
	Matches, Runs int
}

// inferScanGen finds the scan generation of sysbench folders from the
// data. The definition of the scan "qps" changed twice (FORMATS.md §4.14)
// and nothing in the logs names the one used: dates are no guide (runs of
// 2025-03-05 already use the definition committed on 2025-03-13), and the
// sysbench and Lua versions did not change with it. But run.sh wrote the
// rate it computed into sb.met (o/s) and sb.r.qps beside the sb.o it came
// from, so the rule is: the generation whose formula, applied to the scan
// runs' sb.o, gives the archived rates — the one matching the most runs;
// on a tie the later generation. Without archived rates (a fresh run of
// the current driver, or sb.o files alone) it is the current one.
func inferScanGen(fsys fs.FS, dirs []*parse.SysbenchDir) ScanGenChoice {
	type scanRun struct {
		d  *parse.SysbenchDir
		t  parse.SysbenchTest
		nt int
	}
	var todo []scanRun
	for _, d := range dirs {
		for _, t := range d.Tests {
			if !t.Scan() {
				continue
			}
			for _, nt := range d.Threads[t.Sfx] {
				todo = append(todo, scanRun{d: d, t: t, nt: nt})
			}
		}
	}
	// Each run's files are read on their own, on both cores: this comes
	// before the main reading and would otherwise hold it up.
	matched := make([][metrics.ScanGenRowsPerLatency + 1]bool, len(todo))
	read := make([]bool, len(todo))
	metrics.Parallel(len(todo), func(i int) {
		r := todo[i]
		want := archivedScanRate(fsys, r.d, r.t, r.nt)
		if want == "" {
			return
		}
		o := readScanOutput(fsys, r.d.Dir, "sb.o."+r.t.Sfx+".dop"+strconv.Itoa(r.nt))
		if o == nil {
			return
		}
		read[i] = true
		for g := metrics.ScanGenRowsPerRun; g <= metrics.ScanGenRowsPerLatency; g++ {
			if v := metrics.ScanRowRate(o, g); v.OK() && strconv.FormatFloat(v.V, 'f', 0, 64) == want {
				matched[i][g] = true
			}
		}
	})
	var match [metrics.ScanGenRowsPerLatency + 1]int
	runs := 0
	for i := range todo {
		if read[i] {
			runs++
		}
		for g, ok := range matched[i] {
			if ok {
				match[g]++
			}
		}
	}
	best := metrics.ScanGenRowsPerLatency
	for g := metrics.ScanGenRowsPerLatency - 1; g >= metrics.ScanGenRowsPerRun; g-- {
		if match[g] > match[best] {
			best = g
		}
	}
	if runs == 0 || match[best] == 0 {
		return ScanGenChoice{Gen: metrics.ScanGenRowsPerLatency, Source: "default", Runs: runs}
	}
	return ScanGenChoice{Gen: best, Source: "archived rates", Matches: match[best], Runs: runs}
}

// archivedScanRate is the rate run.sh wrote for a scan run: o/s of its
// sb.met, else the first value of sb.r.qps when the folder ran one thread
// count; "" when neither is there.
func archivedScanRate(fsys fs.FS, d *parse.SysbenchDir, t parse.SysbenchTest, nt int) string {
	if met := readScanMet(fsys, d.Dir, "sb.met."+t.Sfx+".dop"+strconv.Itoa(nt)); met != nil {
		if v, ok := met.IostatValue("o/s"); ok && v != "" {
			return v
		}
	}
	if len(d.Threads[t.Sfx]) != 1 {
		return ""
	}
	b, err := fs.ReadFile(fsys, path.Join(d.Dir, "sb.r.qps."+t.Sfx))
	if err != nil {
		return ""
	}
	first, _, _ := strings.Cut(string(b), "\t")
	if _, err := strconv.ParseFloat(first, 64); err != nil {
		return ""
	}
	return first
}

func readScanMet(fsys fs.FS, dir, name string) *parse.SysbenchMet {
	f, err := parse.OpenRegular(fsys, path.Join(dir, name))
	if err != nil {
		return nil
	}
	defer f.Close()
	m, err := parse.ReadSysbenchMet(f, name)
	if err != nil {
		return nil
	}
	return m
}

func readScanOutput(fsys fs.FS, dir, name string) *parse.SysbenchOutput {
	f, err := parse.OpenRegular(fsys, path.Join(dir, name))
	if err != nil {
		return nil
	}
	defer f.Close()
	o, err := parse.ReadSysbench(f, name)
	if err != nil && o == nil {
		return nil
	}
	return o
}

// note is the line of the report's notes (and of the tables' warnings)
// that names the choice.
func (c ScanGenChoice) note() string {
	switch c.Source {
	case "archived rates":
		return fmt.Sprintf("sysbench scan rate: generation %d, which reproduces the archived rate of %d of %d scan runs (--scan-gen overrides)", c.Gen, c.Matches, c.Runs)
	case "default":
		return fmt.Sprintf("sysbench scan rate: generation %d, the current one: no archived scan rate tells another (--scan-gen overrides)", c.Gen)
	}
	return ""
}

// unknownSysbenchNames refuses the names of a DBMS list that match no
// sysbench folder when there is nothing else they could name (no insert-
// benchmark tree): a misspelt name would otherwise drop a DBMS from every
// table silently.
func unknownSysbenchNames(rest []Entry) error {
	var bad []string
	for _, e := range rest {
		if !e.Break {
			bad = append(bad, e.Name)
		}
	}
	if len(bad) == 0 {
		return nil
	}
	return fmt.Errorf("--dbms: %s: no sysbench folder of that name", strings.Join(bad, ", "))
}

// DeviceUse is a block device whose iostat rows the hardware columns use,
// and how many sysbench runs or insert-benchmark steps use it.
type DeviceUse struct {
	Name string
	Uses int
}

// devicesUsed counts the devices of every run and step, the most used
// first (ties by name).
func devicesUsed(r *Results) []DeviceUse {
	count := map[string]int{}
	for _, t := range r.Trees {
		for _, st := range t.Steps {
			if st != nil && st.Device != "" {
				count[st.Device]++
			}
		}
	}
	if r.Sysbench != nil {
		for _, d := range r.Sysbench.DBMS {
			for _, res := range d.Results {
				if res.HW.Device != "" {
					count[res.HW.Device]++
				}
			}
			if d.Load != nil && d.Load.HW.Device != "" {
				count[d.Load.HW.Device]++
			}
		}
	}
	var out []DeviceUse
	for n, c := range count {
		out = append(out, DeviceUse{n, c})
	}
	slices.SortFunc(out, func(a, b DeviceUse) int {
		if a.Uses != b.Uses {
			return b.Uses - a.Uses
		}
		return strings.Compare(a.Name, b.Name)
	})
	return out
}

// deviceNotes name the device chosen, given (from is where: "--device" or
// the settings file) or found in the data, as information, and warn when
// runs chose different ones (a device whose I/O is not the database's in
// some of them).
func deviceNotes(devs []DeviceUse, given, from string) []metrics.Warning {
	info := func(format string, args ...any) []metrics.Warning {
		return []metrics.Warning{{Kind: metrics.Information, Text: fmt.Sprintf(format, args...)}}
	}
	switch {
	case len(devs) == 0:
		return nil
	case given != "":
		return info("block device: %s (%s)", given, from)
	case len(devs) == 1:
		how := "the device with the most I/O"
		if parse.IsVolumeDevice(devs[0].Name) {
			how = "the md/dm volume with the most I/O, which covers its members"
		}
		return info("block device: %s, %s in every run (--device overrides)", devs[0].Name, how)
	}
	var parts []string
	for _, d := range devs {
		parts = append(parts, fmt.Sprintf("%s in %d", d.Name, d.Uses))
	}
	return []metrics.Warning{metrics.Warnf("block device: ambiguous, the runs chose %s; the hardware columns may mix devices: give --device", strings.Join(parts, ", "))}
}
