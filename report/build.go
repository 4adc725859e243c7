package report

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ibreport/ibreport/internal/inputerr"
	"github.com/ibreport/ibreport/internal/names"
	"github.com/ibreport/ibreport/internal/textfmt"
	"github.com/ibreport/ibreport/metrics"
)

// BuildOptions control Build. The zero value builds the default report.
type BuildOptions struct {
	Title string // default: "<N>M docs and <C> clients" ("1 client"; the original wrote "client(s)")
	// Intro is the report's introduction in Markdown (server, DBMS versions,
	// configs). Empty means a generated description of the steps and DBMS.
	Intro string
	// Clients is the number of benchmark clients; 0 means the dop of the raw
	// trees. Archives need it for the insert-rate targets.
	Clients int
	// Layout adds per-step tables in another layout: "" none, LayoutStudy
	// the tables of the published studies.
	Layout string
	// Series takes the DBMS list as ordered series (releases, nightly
	// runs; each group a series) and adds the series part: per test or
	// step, where the level shifted.
	Series bool
	// Some chooses the insert-benchmark steps the report shows, by name
	// ("l.i0", "q100.2"), as the mrg.some pages its authors publish do;
	// the report keeps the steps' own order. Empty means the steps of an
	// archive's mrg.some (else rel.some), when it has one, else every
	// step. A name that is no step of the results is an error.
	Some []string
	// Acknowledged are the changes History knows of (ReadAcknowledged):
	// the level of each acknowledged test starts anew at its result set,
	// and a move of NEW that is acknowledged is no regression. Build and
	// BuildSeries ignore them.
	Acknowledged []Acknowledged
	// Confirm makes History count a regression of NEW only when the run
	// before it agrees: NEW alone below the interval, with the run before
	// it not below its own, is an unconfirmed regression
	// (HistoryVerdict.Unconfirmed), shown and not failing; the next run
	// confirms or clears it. Falls that NEW and the runs before it show
	// together (the windows) are confirmed by those runs. Fewer false
	// alerts, and a one-night fall waits a night. Build and BuildSeries
	// ignore it.
	Confirm bool
}

// Build computes the report of loaded results from their typed model. It
// reads nothing and renders no file: raw trees were read by Load, and the
// tables of the report come from the same merged model as the mrg/rel files
// of Tables, so both show exactly the same numbers.
func Build(res *Results, opt BuildOptions) (*Report, error) {
	if res == nil {
		return nil, errNilResults
	}
	b, err := build(res, opt)
	if err != nil {
		return nil, err
	}
	return b.rep, nil
}

// builder is what build made: the report, and the series of its DBMS,
// which BuildSeries joins across result sets.
type builder struct {
	rep    *Report
	series *seriesBuild
}

// build is Build, returning the builder with its report: BuildSeries takes
// the series of each result set from it. It only wires the parts of the
// report: the insert benchmark (ibench, ibTables), sysbench (sbBuild), the
// findings and the series, each in its own files. The mode is read here,
// once: each part gets its compat behaviour from build.
func build(res *Results, opt BuildOptions) (*builder, error) {
	if opt.Layout != "" && opt.Layout != LayoutStudy {
		return nil, inputerr.Errorf("layout %q: want %q", opt.Layout, LayoutStudy)
	}
	if opt.Clients < 0 {
		// Taken as a count, it would set negative insert-rate targets.
		return nil, inputerr.Errorf("clients %d: want a positive number (0: the dop of the raw trees)", opt.Clients)
	}
	if len(res.Hosts) > 0 {
		return buildHosts(res, opt)
	}
	compatMode := res.Options.Compat
	rep := &Report{Schema: SchemaVersion, Compat: compatMode, Source: "raw", Bands: modeBands(compatMode), Descriptions: res.descriptions}
	if res.Summary != nil && res.Summary.Tables {
		// The author's numbers as his tables print them: nothing of the
		// raw logs is recomputed, so no mode changes them.
		rep.Source = "summary"
	}
	rep.Notes = append(rep.Notes, res.settingsWarnings...)
	// The device and scan generation chosen, named in the notes.
	rep.Notes = append(rep.Notes, res.setupNotes...)
	if n := undescribed(res); n != "" && !compatMode {
		rep.Notes = append(rep.Notes, metrics.Warning{Kind: metrics.Information, Text: n})
	}
	ib := &ibench{res: res, edge: newIbEdge(compatMode), rep: rep, some: opt.Some, noPoints: res.noPoints}
	find := &findings{rep: rep, res: res, ib: ib}
	hasIbench := res.Archived() || len(res.Trees) > 0
	if hasIbench {
		if err := ib.model(); err != nil {
			return nil, err
		}
	}
	if res.Sysbench != nil {
		rep.Notes = append(rep.Notes, sysbenchWarnings(res)...)
	}
	if hasIbench {
		if len(ib.shown) == 0 {
			return nil, inputerr.Errorf("%s: no DBMS rows in the merged tables", names.Quoted(res.Dir))
		}
		ib.clients(opt.Clients)
		ib.stepInfos()
	}
	rep.Title = opt.Title
	if rep.Title == "" {
		rep.Title = ib.defaultTitle()
	}
	setup := setupOf(res)
	rep.Setup = setup.sentence()
	if opt.Title == "" && len(ib.steps) == 0 && !compatMode {
		rep.Title = setup.sysbenchTitle()
	}
	if hasIbench {
		buildIbench(&ibTables{ibench: ib}, find, opt.Layout)
		// The story is the default mode's: the scripts told none.
		if !opt.Series && !compatMode {
			if rep.Story = find.ibenchStory(); rep.Story != nil {
				rep.Legend = append(rep.Legend, LegendItem{"release story", ibenchStoryLegend})
			}
		}
	}
	if set := res.Sysbench; set != nil && len(set.DBMS) > 0 {
		text := sbDefaultText
		if compatMode {
			text = sbCompatText
		}
		sb := &sbBuild{res: res, rep: rep, text: text, set: set, opt: res.SysbenchOptions}
		// The story is the default mode's: the scripts told none.
		story := !opt.Series && !hasIbench && !compatMode
		buildSysbench(sb, find, !hasIbench, story, setup)
	}
	b := &builder{rep: rep, series: &seriesBuild{rep: rep, steps: ib.steps, noise: ib, set: res.Sysbench, sbNoise: !compatMode}}
	if opt.Series {
		// The change points sum a series up; the bullets comparing each
		// member with the first would only repeat the heat table.
		rep.Bullets = nil
		rep.Series = b.series.series()
		rep.Plausibility = append(rep.Plausibility, seriesPlausibility(rep.Series)...)
		rep.Legend = append(rep.Legend, LegendItem{"series", seriesLegend})
	}
	rep.Intro = opt.Intro
	rep.IntroGiven = strings.TrimSpace(opt.Intro) != ""
	if !rep.IntroGiven {
		rep.Intro = defaultIntro(rep, len(ib.steps) > 0, ib.list)
	} else if n := textfmt.RawHTMLLine(rep.Intro); n > 0 {
		rep.Notes = append(rep.Notes, metrics.Warnf("The introduction holds raw HTML (its line %d): the HTML report leaves raw HTML out, as it renders no markup from its input; write it in Markdown.", n))
	}
	if n := textfmt.ImageLine(rep.Intro); rep.IntroGiven && n > 0 {
		rep.Notes = append(rep.Notes, metrics.Warnf("The introduction holds an image (its line %d): the HTML report leaves images out, showing their alt text, as the page loads nothing from outside itself.", n))
	}
	if !compatMode && rep.Source == "raw" {
		rep.ModeNote = correctedNote
	}
	return b, nil
}

// buildIbench builds the insert benchmark's tables and findings, in the
// order their notes take in the report.
func buildIbench(b *ibTables, find *findings, layout string) {
	b.summary()
	b.relative()
	b.insertRate()
	if !b.res.Archived() {
		b.sweep()
	}
	if layout == LayoutStudy {
		b.study()
	}
	b.ibPerf = b.ibenchPerf()
	find.bullets()
	find.comparability()
	find.sweepPlausibility()
	find.ibenchPlausibility()
	for i, st := range b.steps {
		b.section(st, b.rep.Steps[i])
	}
	for i, st := range b.steps {
		b.allMetrics(st, b.rep.Steps[i])
		b.responseTimes(st, b.rep.Steps[i])
	}
	b.dropRepeats()
	b.rep.Legend = legend()
	if b.rep.Counters = b.ibenchCounters(); b.rep.Counters != nil {
		b.rep.Legend = append(b.rep.Legend, LegendItem{"perf stat", ibenchPerfLegend})
	}
}

// buildSysbench builds the sysbench part and its findings: the findings'
// legend when the report has no insert benchmark to give it, and the
// release story when asked.
func buildSysbench(sb *sbBuild, find *findings, findingsLegend, story bool, setup setupFacts) {
	rep, set := sb.rep, sb.set
	sb.plan()
	find.sbPerf = sb.perf
	find.sysbenchBullets(set, sb.parts)
	find.sysbenchComparability(set)
	find.sysbenchPlausibility(set)
	sb.tables()
	if findingsLegend {
		rep.Legend = append(rep.Legend, LegendItem{"findings", bulletLegend})
	}
	rep.Legend = append(rep.Legend, sysbenchLegend()...)
	if story {
		host := ""
		if len(setup.CPUs) > 0 {
			host = ints(setup.CPUs, strconv.Itoa) + " CPUs"
		}
		if rep.Story = find.releaseStory(set, sb.parts, host); rep.Story != nil {
			legend := storyLegend
			if find.res.sbConfigGroups {
				legend += " " + configGroupsLegend(set)
			}
			rep.Legend = append(rep.Legend, LegendItem{"release story", legend})
		}
	}
}

// correctedNote opens the notes of a report in the default mode.
const correctedNote = "The numbers are computed correctly where the original scripts were wrong " +
	"(for example, repeated vmstat headers are not counted as samples), so a few differ from what the scripts printed; " +
	"ibreport build --compat reproduces the scripts' numbers exactly. docs/compat.md lists every difference."

// defaultIntro is the introduction of a report given none: its steps and
// DBMS (list) when it has an insert benchmark, its sysbench DBMS.
func defaultIntro(rep *Report, ibench bool, list []Entry) string {
	var s strings.Builder
	if ibench {
		ibenchIntro(&s, rep, list)
	}
	if sb := rep.Sysbench; sb != nil {
		if s.Len() > 0 {
			s.WriteString("\n")
		}
		fmt.Fprintf(&s, "The sysbench results compare %d DBMS", len(sb.DBMS))
		if len(sb.DBMS) > 1 {
			fmt.Fprintf(&s, " with the base %s", textfmt.MarkdownEscape(sb.Base))
		}
		s.WriteString(":\n\n")
		for _, d := range sb.DBMS {
			fmt.Fprintf(&s, "- %s\n", textfmt.MarkdownEscape(d))
		}
	}
	return s.String()
}

func ibenchIntro(s *strings.Builder, rep *Report, list []Entry) {
	if rep.Source == "archive" {
		s.WriteString("This report was built from archived merged tables, so the parts that need raw logs are left out.\n\n")
	}
	s.WriteString("The steps are:\n\n")
	for _, st := range rep.Steps {
		name, desc, _ := strings.Cut(st.Description, ": ")
		fmt.Fprintf(s, "- **%s**: %s\n", textfmt.MarkdownEscape(name), textfmt.MarkdownEscape(desc))
	}
	s.WriteString("\nThe DBMS are listed below; the first DBMS of each group is the base of the relative tables.\n\n")
	groups := [][]string{nil}
	for _, e := range list {
		switch {
		case e.Break && len(groups[len(groups)-1]) > 0:
			groups = append(groups, nil)
		case !e.Break:
			groups[len(groups)-1] = append(groups[len(groups)-1], e.Name)
		}
	}
	for gi, g := range groups {
		for i, name := range g {
			s.WriteString("- ")
			if len(groups) > 1 {
				fmt.Fprintf(s, "group %d: ", gi+1)
			}
			s.WriteString(textfmt.MarkdownEscape(name))
			if i == 0 {
				s.WriteString(" (base)")
			}
			s.WriteString("\n")
		}
	}
}

func legend() []LegendItem {
	return []LegendItem{
		{"findings", bulletLegend},
		{"±95%", "noise: the half-width of the 95% interval of the mean per-interval rate of all clients together (inserts/s for load steps, queries/s for read+write steps; sysbench: QPS), as a percent of the mean: " +
			"the variance of an AR(1) process with the lag-1 autocorrelation φ corrected for its small-sample bias and raised by two standard errors, Student's t with the effective sample size less one degrees of freedom; " +
			"low confidence, with the reason, when the effective sample size is below 10, when intervals lie beyond 6 robust standard deviations of the median (stalls) or when batches of n/8 intervals vary 2.5× more than φ explains or, from 200 intervals on, overlapping batches of n/16 or n/4 vary 1.5× or 2.5× more (long memory or a drift)"},
		{"~", "within noise: the difference from 1 is smaller than the 95% noise of the two runs plus run-to-run noise: their ±95% and 1.96·√2 times the run-to-run relative standard deviation (--run-noise, settings key run-noise, default 1% per run; a test's own where the settings hold run-noise.<step>.<metric>), added in quadrature; never from a low-confidence interval"},
		{"stalls", "runs of client 1's intervals (the first and last, partial, left out) whose rate is below --stall-rate (default 0.5) of the reference, the upper quartile of the step's rates, with a count too low for chance (Poisson), or whose largest response time is over --stall-rt (default 10) times its median; stalled s is their total length, the worst the one with the lowest rate; charts mark where each began with a dashed line"},
		{"decline", "a steady fall of client 1's rate over the step (a straight line to 75% of its start or less that fits better than one step between two levels), shown with the line's rates at both ends; not a stall, and stalls are then measured against the line"},
		{"SLA", "read+write steps: client 1's mean insert rate over its full intervals as a share of the per-client target, the share of intervals at --sla (default 0.95) of it, the longest run below that in seconds; pass when the mean reaches --sla of the target and no 10 consecutive intervals stay below it"},
		metricLegend(metrics.IPS),
		metricLegend(metrics.QPS),
		{"rps, wps", "storage read and write requests per second (iostat r/s, w/s)"},
		{"rmbps, wmbps", "storage MiB read and written per second"},
		{"rpq, rkbpq", "storage reads and KiB read per operation"},
		{"wpi, wkbpi", "storage writes and KiB written per inserted row"},
		{"csps, cspq", "context switches per second and per operation (vmstat cs)"},
		metricLegend(metrics.CPUPS),
		metricLegend(metrics.CPUPQ),
		metricLegend(metrics.DBGB1),
		metricLegend(metrics.DBGB2),
		metricLegend(metrics.RSS),
		metricLegend(metrics.MaxOp),
		{"p50, p99", "50th and 99th percentile of client 1's per-interval rates from the descending list: p99 is the rate 99% of the intervals reached (inserts for load steps, queries for read+write steps); the first and last intervals, partial, are left out (--compat: kept, as the scripts did)"},
		{"operation", "an inserted row for load steps (l.x: an indexed row), a query for read+write steps; wpi and wkbpi are always per inserted row"},
		{"256us … gt", "histogram buckets: the percentage of responses of at most 256 µs, more than 256 µs up to 1 ms, …, more than 16 s"},
		{"max", "in histograms, the largest response time in seconds"},
	}
}

// metricLegend is a metric's legend item, its meaning in the properties
// table.
func metricLegend(m metrics.Metric) LegendItem { return LegendItem{m.Name(), m.Meaning()} }

func sysbenchLegend() []LegendItem {
	return []LegendItem{
		{"QPS", "sysbench queries per second (scan tests: thousands of rows per second)"},
		{"cpu/o", "vmstat us + sy (percent of all CPUs, averaged over the run) divided by operations per second: not CPU seconds; × CPU count × 10⁴ gives CPU µs per operation (µs/o); compares runs on the same host only (sysbench)"},
		{"µs/o", "CPU microseconds per operation, when the CPU count is known (sysbench)"},
		{"cs/o", "context switches per operation (sysbench)"},
		{"r/o, rKB/o, wKB/o", "storage reads, KB read and KB written per operation (sysbench)"},
		{"o/s", "operations per second, the rate the per-operation values divide by (sysbench)"},
		{"Average … Stddev", "statistics over a test group of the QPS relative to the base DBMS; Stddev is the sample standard deviation"},
	}
}
