package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"slices"
	"strings"
	"sync"
	"syscall"

	"github.com/ibreport/ibreport/internal/fsout"
	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/report"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// usageError marks errors that exit with status 2.
type usageError struct{ error }

// regression marks the verdict of diff (and diff --history) that exits 1. No
// other error exits 1, so that a CI gate never takes a failure to read or
// write for a regression.
type regression struct{ error }

// The exit statuses (ibreport help lists them).
const (
	exitRegression = 1
	exitBadInput   = 2
	exitFailure    = 3 // the machine, not the input: a write error, a full disk
)

// exitInterrupted is the status of a run stopped by SIGINT or SIGTERM.
const exitInterrupted = 130

func run(args []string, stdout, stderr io.Writer) int {
	// Nothing printed acts as a CI runner's command (logSafe).
	safeOut, safeErr := logSafeOf(stdout, false), logSafeOf(stderr, true)
	defer safeErr.Flush()
	defer safeOut.Flush()
	stdout, stderr = safeOut, safeErr
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	gate := &writeGate{}
	finished := make(chan struct{})
	defer close(finished)
	go func() {
		select {
		case <-finished:
		case <-sigs:
			// A run that is not writing has nothing to clean up and exits.
			cancel()
			if gate.stop() {
				gate.release()
				fmt.Fprintln(stderr, "ibreport: interrupted")
				safeOut.Flush()
				safeErr.Flush()
				os.Exit(exitInterrupted)
			}
		}
	}()
	env := &env{ctx: ctx, stdout: stdout, stderr: stderr, gate: gate}
	err := dispatch(env, args)
	switch {
	case err == nil:
		return 0
	case errors.Is(err, context.Canceled):
		fmt.Fprintln(stderr, "ibreport: interrupted; nothing was written")
		return exitInterrupted
	}
	fmt.Fprintf(stderr, "ibreport: %s\n", errorText(err))
	var ue usageError
	var reg regression
	switch {
	case errors.As(err, &ue) || errors.Is(err, report.ErrBadInput) || errors.Is(err, fsout.ErrRefused):
		return exitBadInput
	case errors.As(err, &reg):
		return exitRegression
	}
	return exitFailure
}

// env is what a command runs with.
type env struct {
	ctx            context.Context // done on SIGINT or SIGTERM
	stdout, stderr io.Writer
	gate           *writeGate
}

// writeGate tells the signal handler whether output is being written. Its
// lock makes the handler's decision and the start of a write exclusive: a
// run is never stopped between creating its temporary files and removing
// them, and no write starts once the handler has decided to exit.
type writeGate struct {
	mu      sync.Mutex
	writing bool
	stopped bool
	// held are the releases of what the run holds (an output folder's
	// lock, registered by openDir), for an exit on a signal, which skips
	// the deferred ones.
	held []func()
}

// openDir opens and locks an output folder (fsout.OpenDir) and registers
// its release, both under the gate's lock: a signal that comes while the
// folder is being opened waits for it, and then finds the release
// registered, so an exit on it leaves no lock file behind.
func (e *env) openDir(dir string, inputs ...string) (*fsout.Dir, error) {
	if e.gate == nil {
		return fsout.OpenDir(dir, inputs...)
	}
	e.gate.mu.Lock()
	defer e.gate.mu.Unlock()
	d, err := fsout.OpenDir(dir, inputs...)
	if err == nil {
		e.gate.held = append(e.gate.held, d.Close)
	}
	return d, err
}

// release runs the releases hold registered, before an exit on a signal.
func (g *writeGate) release() {
	g.mu.Lock()
	held := g.held
	g.mu.Unlock()
	for _, f := range held {
		f()
	}
}

// stop reports whether the run may exit at once (it is not writing); then
// no write starts any more. A run that is writing sees the cancellation,
// removes its temporary files and returns.
func (g *writeGate) stop() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.stopped = !g.writing
	return g.stopped
}

// write runs f, which writes the output, with the signal handler told so.
func (e *env) write(f func() error) error {
	g := e.gate
	g.mu.Lock()
	if g.stopped {
		g.mu.Unlock()
		return context.Canceled
	}
	g.writing = true
	g.mu.Unlock()
	defer func() {
		g.mu.Lock()
		g.writing = false
		g.mu.Unlock()
	}()
	return f()
}

type common struct {
	compat bool
	cores  int
	psUser string
	device string
	dbms   string
	some   string
	out    string
	// sysbench
	sbTag    string
	sbSet    string
	sbGroups string
	sbExtra  string
	scanGen  int
	sbEngine string
	collate  string
	// perfPrefix and perfSample are join_perfstat_sb.sh's PREFIX and V.
	perfPrefix string
	perfSample int
	quiet      bool
	// stall detection and SLA thresholds
	stall metrics.StallOptions
	// runNoise is --run-noise, 0 when not given.
	runNoise float64
	// progress counts what Load reads, for the progress line; nil for none.
	progress *report.Progress
	// noPoints: what the command writes draws no charts (tables, a
	// Markdown or text report), so Load keeps no per-interval points.
	noPoints bool
}

// flags makes the flag set of a command that reads a results folder, with
// the flags every such command takes.
func flags(name string, c *common, stderr io.Writer) *flag.FlagSet {
	fs := newFlagSet(name, stderr)
	fs.BoolVar(&c.compat, "compat", false, "reproduce the original scripts byte for byte")
	hostFlags(fs, c)
	fs.StringVar(&c.dbms, "dbms", "", "`file` listing the DBMS in report order; - or BREAK starts a group")
	fs.StringVar(&c.sbTag, "sb-tag", "", "sysbench: `tag` in the summary file names (o.met.<tag>.dop<N>, qps.abs.<tag>.tsv, ...; default: the settings file's, else sb)")
	fs.StringVar(&c.sbSet, "set", "", "sysbench summary tables: the `set` to show (latest of qps.abs.latest.tsv; default: latest or *.latest, else all or *.all, else the largest set; none: every result folder)")
	fs.StringVar(&c.sbGroups, "sb-groups", "", "sysbench: `file` of test groups (<name>: <test> ...) replacing point/range/write")
	fs.StringVar(&c.sbExtra, "sb-extra", "", "sysbench: CSV `file` of extra per-query columns (dbms,test[,threads],...)")
	fs.StringVar(&c.perfPrefix, "perf-prefix", "", "sysbench --compat: `PREFIX` of the join<V>.{abs,rel}.<PREFIX>.sb.perf.hw.* files (default: the sysbench tag)")
	fs.IntVar(&c.perfSample, "perf-sample", 1, "sysbench --compat: perf stat sample `V` the join<V>.* files join")
	fs.IntVar(&c.scanGen, "scan-gen", 0, "sysbench: scan row-rate `generation` 1, 2 or 3 (default: the one that reproduces the archived sb.met/sb.r.qps rates, else 3)")
	fs.StringVar(&c.sbEngine, "sb-engine", "", "sysbench: `engine` label of the sb.r lines and summaries (default: the command lines' --mysql-storage-engine, innodb for MySQL, else the driver)")
	fs.StringVar(&c.collate, "collate", "", "compat: `locale` order of the sorted file lists of the original summaries, en_US or C (default en_US)")
	fs.BoolVar(&c.quiet, "quiet", false, "no progress line on a terminal")
	fs.Float64Var(&c.runNoise, "run-noise", 0, "run-to-run relative standard deviation (a `fraction`) of one run's mean throughput, added to the two runs' intervals before a difference is marked ~ (default: the settings file's run-noise, else 0.01; a test's own key run-noise.<step>.<metric> in it wins for its cells)")
	return fs
}

// hostFlags are the flags that describe the database host.
func hostFlags(fs *flag.FlagSet, c *common) {
	fs.IntVar(&c.cores, "cores", 0, "`CPUs` of the database host (for cpupq)")
	fs.StringVar(&c.psUser, "ps-user", "", "OS `user` of the DBMS processes (default: owner of the largest process)")
	fs.StringVar(&c.device, "device", "", "block `device` of the database (default: the md/dm volume with the most I/O when it covers its members, else the busiest device)")
	fs.Float64Var(&c.stall.RateFraction, "stall-rate", metrics.DefaultStallOptions.RateFraction, "an interval below this `fraction` of the step's reference rate (the upper quartile) is a stall")
	fs.Float64Var(&c.stall.RTMultiple, "stall-rt", metrics.DefaultStallOptions.RTMultiple, "an interval whose response time exceeds this `multiple` of its median is a stall")
	fs.Float64Var(&c.stall.SLAFraction, "sla", metrics.DefaultStallOptions.SLAFraction, "read+write steps: the SLA passes when the mean insert rate reaches this `fraction` of the target and no 10 consecutive intervals stay below it")
}

// parseInterspersed parses flags that may stand before or after the
// positional arguments, as in `ibreport tables RESULTS -o OUT`.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, helpRequest{fs}
			}
			return nil, usageError{needsHint{flagError(fs, err)}}
		}
		if fs.NArg() == 0 {
			return pos, nil
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

// inputs are the files a run reads besides those of its results folders
// (dirs) and ibreport.settings in them: what an output must not replace.
func (c *common) inputs(dirs ...string) []string {
	in := slices.Clone(dirs)
	for _, f := range []string{c.dbms, c.sbGroups, c.sbExtra} {
		if f != "" {
			in = append(in, f)
		}
	}
	return in
}

// isSet reports whether the flag name was given on the command line.
func isSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// checkFlags refuses the values of the common flags (those fs defines)
// that mean nothing, before anything is read. The flag package parses
// "NaN" and "Inf" as floats, and NaN fails every comparison: each range is
// written so that NaN is outside it. A 0 given explicitly is refused where
// 0 is the flag's "not given" (--cores, --scan-gen), so that it is never
// silently replaced by the default.
func checkFlags(fs *flag.FlagSet, c *common) error {
	has := func(name string) bool { return fs.Lookup(name) != nil }
	st := c.stall
	switch {
	case isSet(fs, "cores") && c.cores < 1:
		return usageError{fmt.Errorf("--cores %d: want a positive number of CPUs", c.cores)}
	case isSet(fs, "scan-gen") && (c.scanGen < 1 || c.scanGen > 3):
		return usageError{fmt.Errorf("--scan-gen: scan generation %d: want 1, 2 or 3", c.scanGen)}
	case has("stall-rate") && !(st.RateFraction > 0 && st.RateFraction < 1):
		return usageError{fmt.Errorf("--stall-rate %g: want a fraction between 0 and 1", st.RateFraction)}
	case has("stall-rt") && !(st.RTMultiple > 1 && !math.IsInf(st.RTMultiple, 1)):
		return usageError{fmt.Errorf("--stall-rt %g: want a finite multiple above 1", st.RTMultiple)}
	case has("sla") && !(st.SLAFraction > 0 && st.SLAFraction <= 1):
		return usageError{fmt.Errorf("--sla %g: want a fraction above 0, at most 1", st.SLAFraction)}
	case isSet(fs, "run-noise") && !(c.runNoise > 0 && c.runNoise < 1):
		return usageError{fmt.Errorf("--run-noise %g: want a fraction above 0, below 1 (0.01 for 1%%)", c.runNoise)}
	}
	if has("sb-tag") {
		if err := fsout.CheckTag(c.sbTag); err != nil {
			return usageError{fmt.Errorf("--sb-tag: %w", err)}
		}
	}
	if has("perf-prefix") {
		if err := fsout.CheckTag(c.perfPrefix); err != nil {
			return usageError{fmt.Errorf("--perf-prefix: %w", err)}
		}
	}
	if c.perfSample < 0 {
		return usageError{fmt.Errorf("--perf-sample %d: want a sample number, 0 or more", c.perfSample)}
	}
	return nil
}

func (c *common) load(dir string) (*report.Results, error) {
	// Load's warnings are not printed here: the report's notes and the
	// tables' warnings, which are, repeat them.
	res, _, err := report.Load(dir, report.LoadOptions{
		Metrics:        metrics.Options{Compat: c.compat, Cores: c.cores, PsUser: c.psUser, Device: c.device, ScanGen: c.scanGen, Engine: c.sbEngine, Stall: c.stall, RunNoise: c.runNoise},
		DBMSList:       c.dbms,
		Sysbench:       report.SysbenchOptions{Tag: c.sbTag, Set: c.sbSet, Collate: c.collate, PerfPrefix: c.perfPrefix, PerfSample: c.perfSample},
		SysbenchGroups: c.sbGroups,
		SysbenchExtra:  c.sbExtra,
		Progress:       c.progress,
		// Only the chart points depend on it.
		NoIntervalPoints: c.noPoints,
	})
	return res, err
}

func runTables(e *env, args []string) error {
	var c common
	fs := flags("tables", &c, e.stderr)
	fs.StringVar(&c.out, "o", "", "output `folder`: written as a whole, replacing an earlier set (required)")
	fs.StringVar(&c.some, "some", "", "comma-separated `steps` for mrg.some and rel.some (default: all)")
	layout := fs.String("layout", "", "also write study.<step>, the per-step tables in `layout` "+report.LayoutStudy+", as the published studies printed them")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if err := checkFlags(fs, &c); err != nil {
		return err
	}
	if len(pos) != 1 || c.out == "" {
		return badUsage("tables", "want one RESULTS folder and -o DIR")
	}
	if *layout != "" && *layout != report.LayoutStudy {
		return usageError{fmt.Errorf("--layout %q: want %s", *layout, report.LayoutStudy)}
	}
	// The output folder is checked and locked before anything is computed:
	// a refusal comes at once, and no other run writes it meanwhile.
	out, err := e.openDir(c.out, c.inputs(pos[0])...)
	if err != nil {
		return fmt.Errorf("-o: %w", err)
	}
	defer out.Close()
	p := startProgress(e.stderr, pos[0], c.quiet)
	c.progress = p.counter
	c.noPoints = true // the tables draw no charts
	res, err := c.load(pos[0])
	p.stop()
	if err != nil {
		return err
	}
	var some []string
	if c.some != "" {
		some = strings.Split(c.some, ",")
	}
	files, warns, err := res.Tables(some)
	if err != nil {
		return err
	}
	if *layout != "" {
		study, err := res.StudyFiles()
		if err != nil {
			return err
		}
		files = append(files, study...)
	}
	for _, w := range warns {
		printNote(e, "warning:", w)
	}
	// The information (the device and scan generation chosen) is not
	// among the warnings of Tables.
	for _, n := range res.Notes() {
		if n.Info() {
			printWarning(e, n)
		}
	}
	set := make([]fsout.File, len(files))
	for i, f := range files {
		set[i] = fsout.File(f)
	}
	return e.write(func() error { return out.Write(e.ctx, set) })
}

func runInspect(e *env, args []string) error {
	var c common
	fs := newFlagSet("inspect", e.stderr)
	fs.BoolVar(&c.compat, "compat", false, "compute as the original scripts did, and print the o.res summary they printed")
	hostFlags(fs, &c)
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if err := checkFlags(fs, &c); err != nil {
		return err
	}
	if len(pos) != 1 {
		return badUsage("inspect", "want one STEPDIR")
	}
	out, err := report.Inspect(pos[0], metrics.Options{Compat: c.compat, Cores: c.cores, PsUser: c.psUser, Device: c.device, Stall: c.stall})
	if err != nil {
		return err
	}
	enc := json.NewEncoder(e.stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
