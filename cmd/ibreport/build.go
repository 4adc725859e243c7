package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/ibreport/ibreport/report"
)

type buildFlags struct {
	common
	format  string
	clients int
	title   string
	intro   string
}

func runBuild(args []string, stdout, stderr io.Writer) error {
	var c buildFlags
	fs := flags("build", &c.common, stderr)
	fs.StringVar(&c.format, "format", "html", "output format: "+strings.Join(report.Formats, ", "))
	fs.IntVar(&c.clients, "clients", 0, "number of benchmark clients (default: the dop of the raw trees; archives need it)")
	fs.StringVar(&c.title, "title", "", "report title (default: \"<N>M docs and <C> clients\")")
	fs.StringVar(&c.intro, "intro", "", "Markdown file with the test description (default: generated)")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageError{errors.New("usage: ibreport build [flags] RESULTS [-o FILE]")}
	}
	if c.clients < 0 {
		return usageError{errors.New("--clients must be positive")}
	}
	opt := report.BuildOptions{Title: c.title, Clients: c.clients}
	if c.intro != "" {
		b, err := os.ReadFile(c.intro)
		if err != nil {
			return usageError{err}
		}
		opt.Intro = string(b)
	}
	p := startProgress(stderr, pos[0], c.quiet)
	c.progress = p.counter
	res, err := c.load(pos[0])
	var rep *report.Report
	if err == nil {
		rep, err = report.Build(res, opt)
	}
	var buf bytes.Buffer
	if err == nil {
		err = report.Write(&buf, rep, c.format)
	}
	p.stop()
	if err != nil {
		return err
	}
	for _, n := range rep.Notes {
		fmt.Fprintln(stderr, "warning:", n)
	}
	if c.out == "" {
		_, err = stdout.Write(buf.Bytes())
		return err
	}
	return report.WriteFile(c.out, buf.Bytes())
}
