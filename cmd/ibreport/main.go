package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/parse"
	"github.com/ibreport/ibreport/report"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// usageError marks errors that exit with status 2.
type usageError struct{ error }

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, "usage: ibreport build|tables|diff|inspect [flags] PATH... (see go doc ./cmd/ibreport)")
		return 2
	}
	var err error
	switch args[0] {
	case "tables":
		err = runTables(args[1:], stderr)
	case "build":
		err = runBuild(args[1:], stdout, stderr)
	case "inspect":
		err = runInspect(args[1:], stdout, stderr)
	case "diff":
		err = runDiff(args[1:], stdout, stderr)
	default:
		err = usageError{fmt.Errorf("unknown command %q; want build, tables, diff or inspect", args[0])}
	}
	if err == nil {
		return 0
	}
	fmt.Fprintf(stderr, "ibreport: %v\n", err)
	var ue usageError
	if errors.As(err, &ue) || errors.Is(err, report.ErrBadInput) {
		return 2
	}
	return 1
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
	sbGroups string
	sbExtra  string
	scanGen  int
	sbEngine string
	collate  string
	quiet    bool
	// fset is the parsed flag set, to tell flags given from defaults.
	fset *flag.FlagSet
	// progress counts what Load reads, for the progress line; nil for none.
	progress *report.Progress
}

func flags(name string, c *common, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("ibreport "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.BoolVar(&c.compat, "compat", false, "reproduce the original scripts byte for byte")
	fs.IntVar(&c.cores, "cores", 0, "CPUs of the database host (for cpupq)")
	fs.StringVar(&c.psUser, "ps-user", "", "OS user of the DBMS processes (default: owner of the largest process)")
	fs.StringVar(&c.device, "device", "", "block device of the database (default: the device with the most I/O)")
	fs.StringVar(&c.dbms, "dbms", "", "file listing the DBMS in report order; - or BREAK starts a group")
	fs.StringVar(&c.some, "some", "", "comma-separated steps for mrg.some and rel.some (default: all)")
	fs.StringVar(&c.out, "o", "", "output folder")
	fs.StringVar(&c.sbTag, "sb-tag", "sb", "sysbench: `tag` in the summary file names (o.met.<tag>.dop<N>, qps.abs.<tag>.tsv, ...)")
	fs.StringVar(&c.sbGroups, "sb-groups", "", "sysbench: `file` of test groups (<name>: <test> ...) replacing point/range/write")
	fs.StringVar(&c.sbExtra, "sb-extra", "", "sysbench: CSV `file` of extra per-query columns (dbms,test[,threads],...)")
	fs.IntVar(&c.scanGen, "scan-gen", 0, "sysbench: scan row-rate `generation` 1, 2 or 3 (default 3, the current one)")
	fs.StringVar(&c.sbEngine, "sb-engine", "", "sysbench: `engine` label of the sb.r lines and summaries (default: the command lines' --mysql-storage-engine, innodb for MySQL, else the driver)")
	fs.StringVar(&c.collate, "collate", "", "compat: `locale` order of the sorted file lists of the original summaries, en_US or C (default en_US)")
	fs.BoolVar(&c.quiet, "quiet", false, "no progress line on a terminal")
	c.fset = fs
	return fs
}

// given reports whether the flag was on the command line (settings keys
// apply to the others).
func (c *common) given(name string) bool {
	found := false
	if c.fset != nil {
		c.fset.Visit(func(f *flag.Flag) { found = found || f.Name == name })
	}
	return found
}

// parseInterspersed parses flags that may stand before or after the
// positional arguments, as in `ibreport tables RESULTS -o OUT`.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, usageError{err}
		}
		if fs.NArg() == 0 {
			return pos, nil
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

func (c *common) load(dir string) (*report.Results, error) {
	tag := c.sbTag
	if !c.given("sb-tag") {
		tag = "" // the settings file's, else the default
	}
	return report.Load(dir, report.LoadOptions{
		Metrics:        metrics.Options{Compat: c.compat, Cores: c.cores, PsUser: c.psUser, Device: c.device, ScanGen: c.scanGen, Engine: c.sbEngine},
		DBMSList:       c.dbms,
		Sysbench:       report.SysbenchOptions{Tag: tag, Collate: c.collate},
		SysbenchGroups: c.sbGroups,
		SysbenchExtra:  c.sbExtra,
		Progress:       c.progress,
	})
}

func runTables(args []string, stderr io.Writer) error {
	var c common
	fs := flags("tables", &c, stderr)
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 || c.out == "" {
		return usageError{errors.New("usage: ibreport tables [flags] RESULTS -o DIR")}
	}
	p := startProgress(stderr, pos[0], c.quiet)
	c.progress = p.counter
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
	for _, w := range warns {
		fmt.Fprintln(stderr, "warning:", w)
	}
	return report.WriteFiles(c.out, files)
}

func runInspect(args []string, stdout, stderr io.Writer) error {
	var c common
	fs := flags("inspect", &c, stderr)
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageError{errors.New("usage: ibreport inspect [flags] STEPDIR")}
	}
	stepDir := filepath.Clean(pos[0])
	treeDir := filepath.Dir(stepDir)
	mopt, err := report.Settings(os.DirFS(filepath.Dir(treeDir)), ".",
		metrics.Options{Compat: c.compat, Cores: c.cores, PsUser: c.psUser, Device: c.device})
	if err != nil {
		return err
	}
	st, ok := parse.ParseStepName(filepath.Base(stepDir))
	if !ok {
		return usageError{fmt.Errorf("%s: not a step folder name (l.i0, l.x, qr100.L1, …)", stepDir)}
	}
	out, err := report.Inspect(os.DirFS(treeDir), filepath.Base(treeDir), st, mopt)
	if err != nil {
		return usageError{err}
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
