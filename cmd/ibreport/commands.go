package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime/debug"
	"strings"
)

// A command is one verb of ibreport with its help.
type command struct {
	name     string
	args     string // the positional arguments, for the usage line
	summary  string // one line, for the command list
	about    string // what it does, a paragraph
	examples []string
	// also are more usage lines (another form of the command).
	also []string
	// settings is where the command reads the settings file, for its
	// help; "" for a command that reads none.
	settings string
	run      func(e *env, args []string) error
}

// commands are the verbs of ibreport. (They are set in init: their run
// functions refer back to the table for their usage lines.)
var commands []*command

func init() {
	commands = []*command{
		{
			name: "build", args: "[flags] RESULTS [-o FILE]",
			summary: "write the report of a results folder (HTML, Markdown, text or JSON)",
			about: "Reads RESULTS (raw DBMS trees, sysbench folders, archived mrg.<step> files, or a study's sysbench\n" +
				"summary tables qps.abs|rel.<set>.tsv|csv and o.met.<set>) and writes one report: a self-contained HTML\n" +
				"page by default, to stdout or atomically to FILE. A folder of summary tables shows one set (--set);\n" +
				"a folder whose sub-folders hold the same builds' tables, one per host (or thread count, or run),\n" +
				"gives one report comparing them: per test and build the ratio on each host, and on how many a change\n" +
				"of more than 5% reproduces. describe.<code> = words in ibreport.settings puts a code in words.",
			examples: []string{
				"ibreport build results/ -o report.html",
				"ibreport build --set my.84 study/ -o report.html",
				"ibreport build study/ -o hosts.html        # study/{dell32,hetz48,pn53}/qps.abs.<set>.tsv",
				"ibreport build --format md --dbms dbms.txt results/ > report.md",
				"ibreport build --compat --cores 48 --device nvme0n1 results/ -o report.html",
			},
			settings: "RESULTS",
			run:      runBuild,
		},
		{
			name: "tables", args: "[flags] RESULTS -o DIR",
			summary: "write the mrg/rel tables and summaries of the original scripts",
			about: "Reads RESULTS and writes into DIR the files of the original pipeline (mrg.<step>, rel.<step>, …,\n" +
				"and the sysbench summaries). DIR is replaced as a whole: it is always a complete set. DIR must be new,\n" +
				"empty or an earlier set holding only the files its .ibreport-files lists; one run at a time writes it.",
			examples: []string{
				"ibreport tables results/ -o tables/",
				"ibreport tables --compat --cores 2 --ps-user postgres --device vda results/ -o tables/",
				"ibreport tables archived-mrg-files/ -o rel/",
			},
			settings: "RESULTS",
			run:      runTables,
		},
		{
			name: "diff", args: "[flags] BASE NEW",
			summary: "compare a result set with a baseline; exit 1 on a regression (a CI gate)",
			about: "Compares NEW with BASE per step, DBMS and metric. Each side is a folder of mrg/rel tables or of\n" +
				"raw trees, or a comma-separated list of folders (replicated runs). Exit 0: no regression, 1: a\n" +
				"regression (or a warning with --strict), 2: bad input, something BASE has that NEW lacks, or nothing\n" +
				"compared (no value on both sides); the report then says why, and lists what the rest shows. 3: any\n" +
				"other failure, such as a write error (never a regression). With --history, the folders are a\n" +
				"history, oldest first, and the last is NEW: each throughput of NEW is judged against the noise of\n" +
				"the history's current level (after its last change point); a history that checked no test exits 2.",
			examples: []string{
				"ibreport diff baseline/ new-tables/",
				"ibreport diff --history nightly/2026-11-2[0-9] nightly/2026-11-30",
				"ibreport diff --format github --threshold ips=3% baseline/ new-tables/",
				"ibreport diff --format md -o diff.md baseline/ new-tables/",
				"ibreport diff base1,base2,base3,base4 new1,new2,new3,new4",
			},
			also:     []string{"--history [flags] DIR... NEW"},
			settings: "each folder of raw DBMS trees (BASE, NEW or a history's)",
			run:      runDiff,
		},
		{
			name: "series", args: "[flags] DIR... [-o FILE]",
			summary: "write the report of result sets taken as a series (nightly runs, releases): where each level shifted",
			about: "Reads each DIR as one result set, oldest first, and writes one report: per DBMS and test, the throughput\n" +
				"of every set relative to the first, the change points found and a chart (HTML, Markdown, text or JSON).\n" +
				"One DIR is a series of its DBMS, in --dbms order (each group a series). A series needs at least 4 members.",
			examples: []string{
				"ibreport series nightly/* -o series.html",
				"ibreport series --dbms releases.txt results/ -o series.html",
				"ibreport series --format md rel-8.0.40 rel-8.0.41 rel-8.4.3 rel-9.1.0 > series.md",
			},
			settings: "each DIR",
			run:      runSeries,
		},
		{
			name: "inspect", args: "[flags] STEPDIR",
			summary: "print everything read and computed for one step, as JSON",
			about: "Reads one step folder of a DBMS tree and prints the records read per file, the row, every typed\n" +
				"value with its unit or the reason it is NA, and the warnings.",
			examples: []string{
				"ibreport inspect results/2m.pg15.c1/l.i1",
				"ibreport inspect --compat --cores 2 results/2m.pg15.c1/qr100.L1",
			},
			settings: "the folder holding STEPDIR's DBMS tree",
			run:      runInspect,
		},
		{
			name: "help", args: "[COMMAND]",
			summary: "print the list of commands, or the help of one",
			about:   "Prints the list of commands or, given a COMMAND, its usage, examples and flags (as 'ibreport COMMAND -h' does).",
			examples: []string{
				"ibreport help",
				"ibreport help build",
			},
			run: runHelp,
		},
		{
			name: "version", args: "",
			summary: "print the version, the revision it was built from and the Go version",
			about:   "Prints the module version, the VCS revision and time it was built from when the build recorded them, and the Go version (as 'ibreport --version' does).",
			examples: []string{
				"ibreport version",
			},
			run: runVersion,
		},
	}
}

// runHelp is the help command.
func runHelp(e *env, args []string) error {
	fs := newFlagSet("help", e.stderr)
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	switch len(pos) {
	case 0:
		usage(e.stdout)
		return nil
	case 1:
		c := lookup(pos[0])
		if c == nil {
			return unknownCommand("no command", pos[0])
		}
		c.help(e.stdout, nil)
		return nil
	}
	return badUsage("help", "want at most one COMMAND")
}

// runVersion is the version command.
func runVersion(e *env, args []string) error {
	fs := newFlagSet("version", e.stderr)
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return badUsage("version", "want no arguments")
	}
	fmt.Fprintln(e.stdout, version())
	return nil
}

// badUsage is the error of a command given the wrong arguments: what is
// wrong, then its usage line.
func badUsage(name, why string) error {
	c := lookup(name)
	return usageError{needsHint{fmt.Errorf("%s\nusage: %s", why, strings.TrimSpace("ibreport "+c.name+" "+c.args))}}
}

func lookup(name string) *command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	return nil
}

// dispatch runs the command args name, or prints help or the version.
func dispatch(e *env, args []string) error {
	if len(args) == 0 {
		usage(e.stderr)
		return usageError{errors.New("no command given; usage: ibreport COMMAND [flags] ARGS")}
	}
	switch args[0] {
	case "-h", "-help", "--help":
		args = []string{"help"}
	case "-version", "--version":
		args = []string{"version"}
	}
	c := lookup(args[0])
	if c == nil {
		if strings.HasPrefix(args[0], "-") {
			return usageError{fmt.Errorf("flag %s before a command; usage: ibreport COMMAND [flags] ARGS\nrun 'ibreport help' for the list of commands", args[0])}
		}
		return unknownCommand("unknown command", args[0])
	}
	err := c.run(e, args[1:])
	if h, ok := err.(helpRequest); ok {
		c.help(e.stdout, h.fs)
		return nil
	}
	return withHint(c, err)
}

// usage prints the list of commands.
func usage(w io.Writer) {
	fmt.Fprintf(w, "ibreport turns insert-benchmark and sysbench results into reports and tables, and gates CI on them.\n\n")
	fmt.Fprintf(w, "Usage:\n")
	for _, c := range commands {
		fmt.Fprintf(w, "  %s\n", strings.TrimSpace(fmt.Sprintf("ibreport %-8s %s", c.name, c.args)))
		for _, a := range c.also {
			fmt.Fprintf(w, "  ibreport %-8s %s\n", c.name, a)
		}
	}
	fmt.Fprintf(w, "\nCommands:\n")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-8s %s\n", c.name, c.summary)
	}
	fmt.Fprintf(w, "\nExit status: 0 done; 1 a regression (diff); 2 bad input or usage: a damaged, unreadable or\n")
	fmt.Fprintf(w, "inconsistent file (plain, .gz or .tar.gz alike) or a wrong flag; 3 any other failure, such as\n")
	fmt.Fprintf(w, "a write error or a full disk, which never reads as a regression; 130 interrupted.\n")
	fmt.Fprintf(w, "\nRun 'ibreport help COMMAND' (or 'ibreport COMMAND -h') for its flags and examples;\n")
	fmt.Fprintf(w, "'ibreport --version' (or 'ibreport version') prints the version.\n")
}

// help prints a command's usage, examples and flags. fs is the command's
// flag set; nil makes one by running the command with -h.
func (c *command) help(w io.Writer, fs *flag.FlagSet) {
	if fs == nil {
		if h, ok := c.run(&env{stderr: io.Discard, stdout: io.Discard}, []string{"-h"}).(helpRequest); ok {
			fs = h.fs
		}
	}
	fmt.Fprintf(w, "Usage: %s\n", strings.TrimSpace("ibreport "+c.name+" "+c.args))
	for _, a := range c.also {
		fmt.Fprintf(w, "       ibreport %s %s\n", c.name, a)
	}
	fmt.Fprintf(w, "\n%s\n\nExamples:\n", c.about)
	for _, x := range c.examples {
		fmt.Fprintf(w, "  %s\n", x)
	}
	if fs != nil {
		printFlags(w, fs)
		printSettings(w, c, fs)
	}
}

// helpRequest is returned by a command given -h or --help.
type helpRequest struct{ fs *flag.FlagSet }

func (helpRequest) Error() string { return "help requested" }

// newFlagSet makes the flag set of a command. The flag package prints
// nothing: its errors are returned, and run prints them once, with the way
// to the help; -h makes parseInterspersed return a helpRequest, and
// dispatch prints the help on stdout.
func newFlagSet(name string, _ io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("ibreport "+name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// version is the module version and the revision it was built from.
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "ibreport (version unknown; revision unknown: built without VCS stamping)"
	}
	v := info.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var rev, when, dirty string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			when = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = ", modified"
			}
		}
	}
	out := "ibreport " + v
	if rev == "" {
		out += " (revision unknown: built without VCS stamping)"
	} else {
		if len(rev) > 12 {
			rev = rev[:12]
		}
		out += " (" + rev + dirty
		if when != "" {
			out += ", " + when
		}
		out += ")"
	}
	return out + " " + info.GoVersion
}
