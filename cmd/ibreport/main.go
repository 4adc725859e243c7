package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
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
		fmt.Fprintln(stderr, "usage: ibreport tables|inspect [flags] PATH (see go doc ./cmd/ibreport)")
		return 2
	}
	var err error
	switch args[0] {
	case "tables":
		err = runTables(args[1:], stderr)
	case "inspect":
		err = runInspect(args[1:], stdout, stderr)
	default:
		err = usageError{fmt.Errorf("unknown command %q; want tables or inspect", args[0])}
	}
	if err == nil {
		return 0
	}
	fmt.Fprintf(stderr, "ibreport: %v\n", err)
	var ue usageError
	if errors.As(err, &ue) {
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
	return fs
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

// options resolves flags and the results folder's settings file.
func (c *common) options(dir string) (metrics.Options, error) {
	set, err := parse.ReadSettings(os.DirFS(dir), ".")
	if err != nil {
		return metrics.Options{}, usageError{err}
	}
	opt := metrics.Options{Compat: c.compat, Cores: c.cores, PsUser: c.psUser, Device: c.device}
	if opt.Cores == 0 && set["cores"] != "" {
		if opt.Cores, err = strconv.Atoi(set["cores"]); err != nil || opt.Cores < 1 {
			return opt, usageError{fmt.Errorf("%s: cores = %q is not a positive integer", filepath.Join(dir, parse.SettingsFile), set["cores"])}
		}
	}
	if opt.PsUser == "" {
		opt.PsUser = set["ps-user"]
	}
	if opt.Device == "" {
		opt.Device = set["device"]
	}
	if c.cores < 0 {
		return opt, usageError{errors.New("--cores must be positive")}
	}
	return opt, nil
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
	dir := pos[0]
	mopt, err := c.options(dir)
	if err != nil {
		return err
	}
	topt := report.TablesOptions{Metrics: mopt}
	if c.some != "" {
		topt.Some = strings.Split(c.some, ",")
	}
	fsys := os.DirFS(dir)
	var files []report.File
	var warns []string
	trees, err := parse.ReadTree(fsys, ".")
	if err != nil {
		return usageError{err}
	}
	if len(trees) == 0 {
		steps, err := report.ArchivedSteps(fsys, ".")
		if err != nil {
			return usageError{err}
		}
		if len(steps) == 0 {
			return usageError{fmt.Errorf("%s: no DBMS result trees and no mrg.<step> files", dir)}
		}
		files, warns, err = report.TablesFromArchive(fsys, ".", steps, topt)
		if err != nil {
			return err
		}
	} else {
		list := report.DefaultList(trees)
		if c.dbms != "" {
			f, err := os.Open(c.dbms)
			if err != nil {
				return usageError{err}
			}
			list, err = report.ReadDBMSList(f, c.dbms)
			f.Close()
			if err != nil {
				return usageError{err}
			}
		}
		var results []*metrics.TreeResult
		for _, t := range trees {
			r, err := metrics.ComputeTree(fsys, t, mopt)
			if err != nil {
				return err
			}
			results = append(results, r)
		}
		files, warns, err = report.Tables(results, list, topt)
		if err != nil {
			return usageError{err}
		}
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
	mopt, err := c.options(filepath.Dir(treeDir))
	if err != nil {
		return err
	}
	st, ok := parse.ParseStepName(filepath.Base(stepDir))
	if !ok {
		return usageError{fmt.Errorf("%s: not a step folder name (l.i0, l.x, qr100.L1, …)", stepDir)}
	}
	out, err := metrics.Inspect(os.DirFS(treeDir), filepath.Base(treeDir), st, mopt)
	if err != nil {
		return usageError{err}
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
