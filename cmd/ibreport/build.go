package main

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/ibreport/ibreport/internal/fsout"
	"github.com/ibreport/ibreport/parse"
	"github.com/ibreport/ibreport/report"
	"github.com/ibreport/ibreport/report/render"
)

type buildFlags struct {
	common
	format  string
	clients int
	title   string
	intro   string
	layout  string
	series  bool
}

func runBuild(e *env, args []string) error {
	var c buildFlags
	fs := flags("build", &c.common, e.stderr)
	fs.StringVar(&c.out, "o", "", "output `file`, written atomically (default: stdout)")
	fs.StringVar(&c.format, "format", "html", "output `format`: "+strings.Join(render.Formats, ", "))
	fs.IntVar(&c.clients, "clients", 0, "number of benchmark `clients`, for the insert-rate targets (default: the dop of the raw trees; archives need it)")
	fs.StringVar(&c.title, "title", "", "report `title` (default: \"<N>M docs and <C> clients\")")
	fs.StringVar(&c.intro, "intro", "", "Markdown `file` with the test description (default: generated)")
	fs.StringVar(&c.layout, "layout", "", "add per-step tables in another `layout`: "+report.LayoutStudy+" (the published studies' ips.av, ips.75 … Mcpu/i, size, rss, cpu)")
	fs.StringVar(&c.some, "some", "", "comma-separated insert-benchmark `steps` the report shows, as its authors' mrg.some pages (default: the archived mrg.some, else all)")
	fs.BoolVar(&c.series, "series", false, "take the DBMS, in --dbms order, as ordered series (releases, nightly runs; each group a series) and add where each test's level shifted")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return badUsage("build", "want one RESULTS folder")
	}
	if err := checkFlags(fs, &c.common); err != nil {
		return err
	}
	// 0 is "not given" (the dop of the trees): given, it is refused.
	if isSet(fs, "clients") && c.clients < 1 {
		return usageError{fmt.Errorf("--clients %d: want a positive number of clients", c.clients)}
	}
	if c.layout != "" && c.layout != report.LayoutStudy {
		return usageError{fmt.Errorf("--layout %q: want %s", c.layout, report.LayoutStudy)}
	}
	if c.out != "" {
		inputs := c.inputs(pos[0])
		if c.intro != "" {
			inputs = append(inputs, c.intro)
		}
		if err := fsout.CheckOutputFile(c.out, inputs...); err != nil {
			return usageError{fmt.Errorf("-o: %w", err)}
		}
		if err := fsout.CheckOutputFolder(c.out); err != nil {
			return fmt.Errorf("-o: %w", err)
		}
	}
	opt := report.BuildOptions{Title: c.title, Clients: c.clients, Layout: c.layout, Series: c.series}
	if c.some != "" {
		opt.Some = strings.Split(c.some, ",")
	}
	if c.intro != "" {
		b, err := parse.ReadUserFile(c.intro, introFile)
		if err != nil {
			return usageError{err}
		}
		opt.Intro = string(b)
	}
	p := startProgress(e.stderr, pos[0], c.quiet)
	c.progress = p.counter
	c.noPoints = !render.DrawsCharts(c.format)
	res, err := c.load(pos[0])
	var rep *report.Report
	if err == nil {
		rep, err = report.Build(res, opt)
	}
	var buf bytes.Buffer
	if err == nil {
		err = render.Write(&buf, rep, c.format)
	}
	p.stop()
	if err != nil {
		return err
	}
	return c.emit(e, rep, buf.Bytes())
}

// introFile is the --intro file: a few paragraphs, so a larger one is a
// file named by mistake.
var introFile = parse.UserFile{Flag: "--intro", What: "an introduction", Limit: 1 << 20}

// emit prints a report's notes, warnings as "warning:" and information as
// "note:", and writes its rendered page to stdout or, atomically, to -o.
func (c *buildFlags) emit(e *env, rep *report.Report, page []byte) error {
	for _, n := range rep.Notes {
		printWarning(e, n)
	}
	// The perf stat notes are the counters part's own; they are warnings
	// of the run all the same.
	for _, p := range []*report.PerfPart{rep.Counters, sysbenchCounters(rep)} {
		if p != nil {
			for _, n := range p.Notes {
				printNote(e, "warning:", n)
			}
		}
	}
	if c.out == "" {
		_, err := e.stdout.Write(page)
		return err
	}
	return e.write(func() error { return fsout.WriteFileContext(e.ctx, c.out, page) })
}

func sysbenchCounters(rep *report.Report) *report.PerfPart {
	if rep.Sysbench == nil {
		return nil
	}
	return rep.Sysbench.Counters
}
