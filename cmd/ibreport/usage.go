package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/ibreport/ibreport/internal/names"
	"github.com/ibreport/ibreport/parse"
)

// groupOrder are the headings of the flag groups, in the order help prints
// them; flagGroup puts each flag in one (common unless listed). A command
// prints only the groups it has flags in.
var groupOrder = []string{"common", "insert benchmark", "sysbench", "comparison", "output"}

var flagGroup = map[string]string{
	"clients": "insert benchmark", "some": "insert benchmark",
	"stall-rate": "insert benchmark", "stall-rt": "insert benchmark", "sla": "insert benchmark",

	"sb-tag": "sysbench", "sb-groups": "sysbench", "sb-extra": "sysbench", "sb-engine": "sysbench",
	"scan-gen": "sysbench", "perf-prefix": "sysbench", "perf-sample": "sysbench", "collate": "sysbench",

	"threshold": "comparison", "warn": "comparison", "alpha": "comparison", "tables": "comparison",
	"allow-missing": "comparison", "allow-na": "comparison", "strict": "comparison",

	"o": "output", "format": "output", "title": "output", "intro": "output", "layout": "output",
	"quiet": "output", "all": "output", "noise-settings": "output", "max-chars": "output", "full-report": "output",
}

// helpWidth is the width help text is wrapped at.
const helpWidth = 80

// flagName is a flag as the help and the errors write it: --name, and -o
// for the one-letter output flag (either form is accepted).
func flagName(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// printFlags prints the flags of fs by group: "--name placeholder", then
// what it does, wrapped, with its default when the text names none.
func printFlags(w io.Writer, fs *flag.FlagSet) {
	groups := map[string][]*flag.Flag{}
	fs.VisitAll(func(f *flag.Flag) {
		g := flagGroup[f.Name]
		if g == "" {
			g = "common"
		}
		groups[g] = append(groups[g], f)
	})
	for _, g := range groupOrder {
		if len(groups[g]) == 0 {
			continue
		}
		fmt.Fprintf(w, "\n%s%s flags:\n", strings.ToUpper(g[:1]), g[1:])
		for _, f := range groups[g] {
			placeholder, usage := flag.UnquoteUsage(f)
			line := "  " + flagName(f.Name)
			if placeholder != "" {
				line += " " + placeholder
			}
			if d := f.DefValue; !strings.Contains(usage, "default") && d != "" && d != "0" && d != "false" {
				usage += " (default " + d + ")"
			}
			fmt.Fprintln(w, line)
			for _, l := range wrap(usage, helpWidth-6) {
				fmt.Fprintln(w, "      "+l)
			}
		}
	}
}

// wrap breaks s into lines of at most width characters, between words.
func wrap(s string, width int) []string {
	var out []string
	line := ""
	for _, word := range strings.Fields(s) {
		switch {
		case line == "":
			line = word
		case len(line)+1+len(word) > width:
			out = append(out, line)
			line = word
		default:
			line += " " + word
		}
	}
	if line != "" {
		out = append(out, line)
	}
	return out
}

// printSettings names the settings file and the keys of it that stand in
// for flags of fs, for a command that reads it.
func printSettings(w io.Writer, c *command, fs *flag.FlagSet) {
	if c.settings == "" || fs == nil {
		return
	}
	var keys []string
	for _, k := range parse.SettingsKeys {
		if fs.Lookup(k) != nil {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return
	}
	text := fmt.Sprintf("%s in %s (\"key = value\" lines, # starts a comment) sets what the flags leave unset; a flag given wins. Its keys: %s.",
		parse.SettingsFile, c.settings, strings.Join(keys, ", "))
	if c.name == "build" {
		text += " run-noise.<step>.<metric> sets one test's own run-to-run noise for the ~ of its cells (ibreport series --noise-settings writes them from a history)."
	}
	if c.name == "diff" {
		text += " In BASE, run-noise.<step>.<metric> sets one test's own run-to-run noise (ibreport series --noise-settings writes them from a history)."
	}
	fmt.Fprintf(w, "\nSettings file:\n")
	for _, l := range wrap(text, helpWidth-2) {
		fmt.Fprintln(w, "  "+l)
	}
}

// flagError rewrites an error of the flag package: flags written --name,
// and for an unknown flag the nearest one fs has.
func flagError(fs *flag.FlagSet, err error) error {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: -"); ok {
		name = strings.TrimPrefix(name, "-")
		var names []string
		fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
		msg = "unknown flag " + flagName(name)
		if s := nearest(name, names); s != "" {
			msg += "; did you mean " + flagName(s) + "?"
		}
		return errors.New(msg)
	}
	// "invalid value "x" for flag -cores: parse error", "flag needs an
	// argument: -o": the flag's name as help writes it.
	fs.VisitAll(func(f *flag.Flag) {
		for _, old := range []string{"flag -" + f.Name + ":", ": -" + f.Name} {
			if strings.Contains(msg, old) && (strings.HasSuffix(msg, old) || strings.HasSuffix(old, ":")) {
				msg = strings.Replace(msg, old, strings.Replace(old, "-"+f.Name, flagName(f.Name), 1), 1)
			}
		}
	})
	return errors.New(msg)
}

// nearest returns the candidate closest to s by edit distance, when it is
// close enough to be a typing mistake (at most 2 edits, and fewer than the
// length of s); "" otherwise.
func nearest(s string, candidates []string) string {
	best, bestD := "", 3
	for _, c := range candidates {
		if d := names.EditDistance(s, c); d < bestD && d < len(s) {
			best, bestD = c, d
		}
	}
	return best
}

// commandNames are the names of the commands, in the order of the list.
func commandNames() []string {
	var out []string
	for _, c := range commands {
		out = append(out, c.name)
	}
	return out
}

// unknownCommand is the error of a word that names no command.
func unknownCommand(what, name string) error {
	msg := fmt.Sprintf("%s %q", what, name)
	if s := nearest(name, commandNames()); s != "" {
		msg += fmt.Sprintf("; did you mean %s?", s)
	} else {
		msg += "; want one of " + strings.Join(commandNames(), ", ")
	}
	return usageError{errors.New(msg + "\nrun 'ibreport help' for the list of commands")}
}

// needsHint marks the errors of the command line itself (an unknown or
// malformed flag, missing arguments), whose fix is in the command's help.
// Other usage errors (a value out of range, an output refused) say what to
// do in their own message.
type needsHint struct{ error }

func (h needsHint) Unwrap() error { return h.error }

// withHint adds the way to the command's help to an error of its command
// line, once.
func withHint(c *command, err error) error {
	var ue usageError
	if !errors.As(err, &ue) || strings.Contains(err.Error(), "\nrun 'ibreport ") {
		return err
	}
	if _, ok := ue.error.(needsHint); !ok {
		return err
	}
	return usageError{fmt.Errorf("%w\nrun 'ibreport %s -h' for its flags and examples", err, c.name)}
}
