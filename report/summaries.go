package report

import (
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/ibreport/ibreport/internal/inputerr"
	"github.com/ibreport/ibreport/internal/names"
	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/parse"
	"github.com/ibreport/ibreport/results"
)

// SummaryChoice says which set of a folder's sysbench summary tables a
// report shows, and which others there are.
type SummaryChoice struct {
	// Set is the set shown: "latest" of qps.abs.latest.tsv.
	Set string `json:"set"`
	// By is "option" (SysbenchOptions.Set) or "default"
	// (results.DefaultSet).
	By string `json:"by"`
	// Sets are all the sets of the folder, in natural order.
	Sets []string `json:"sets"`
	// Builds are the set's builds, the base first.
	Builds []string `json:"builds"`
	// Tables says the values come from the summary tables themselves
	// (no result folders); Relative that they are ratios to the base
	// (only qps.rel tables), MetOnly that the QPS are o.met's o/s.
	Tables   bool `json:"tables"`
	Relative bool `json:"relative,omitempty"`
	MetOnly  bool `json:"met_only,omitempty"`
	// Files are the set's files.
	Files []string `json:"files"`
	// Missing are the set's builds that have no result folder.
	Missing []string `json:"missing,omitempty"`
	// Left are the result folders the set leaves out.
	Left []string `json:"left,omitempty"`
}

// Sentence says which set is shown, in a line for the page and stderr.
func (c *SummaryChoice) Sentence() string {
	if c == nil {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Set %s of the summary tables (%s)", c.Set, metrics.Plural(len(c.Builds), "build"))
	switch {
	case c.Tables && c.Relative:
		b.WriteString(", from its qps.rel tables only: every QPS is a ratio to the base, there is no absolute QPS")
	case c.Tables && c.MetOnly:
		b.WriteString(", from its o.met file only: the QPS are its o/s")
	case c.Tables:
		b.WriteString(", read from " + strings.Join(c.Files, ", "))
	}
	if c.By == "default" {
		b.WriteString("; chosen by the default rule (a set named latest or *.latest, else all or *.all, else the largest)")
	}
	if others := slices.DeleteFunc(slices.Clone(c.Sets), func(s string) bool { return s == c.Set }); len(others) > 0 {
		fmt.Fprintf(&b, "; the folder's other sets: %s (--set NAME shows one)", strings.Join(others, ", "))
	}
	if len(c.Left) > 0 {
		fmt.Fprintf(&b, "; result folders not in the set: %s (--set none shows every folder)", strings.Join(c.Left, ", "))
	}
	if len(c.Missing) > 0 {
		fmt.Fprintf(&b, "; builds of the set without a result folder: %s", strings.Join(c.Missing, ", "))
	}
	return b.String() + "."
}

// phrase is the set in the setup line: "set latest of the summary
// tables (2 other sets: --set)"; "" for nil.
func (c *SummaryChoice) phrase() string {
	if c == nil {
		return ""
	}
	p := "set " + c.Set
	switch {
	case c.Tables && c.Relative:
		p += " of the summary tables, relative QPS only"
	case c.Tables && c.MetOnly:
		p += " of the summary tables, o.met only"
	case c.Tables:
		p += " of the summary tables"
	default:
		p += " of the folders' summary tables"
	}
	if n := len(c.Sets) - 1; n > 0 {
		p += " (" + metrics.Plural(n, "other set") + ": --set)"
	}
	return p
}

// loadSummaries loads a folder that holds neither result folders nor
// mrg tables: its sysbench summary tables, the set the options name or
// the default one.
func (r *Results) loadSummaries(fsys fs.FS, dir string, opt LoadOptions) error {
	sum, err := results.ReadSummaries(fsys, ".", dir)
	if err != nil {
		return err
	}
	name := r.SysbenchOptions.Set
	if len(sum.Sets) == 0 && name != "none" {
		if ok, err := r.loadHosts(fsys, dir, sum, opt); err != nil || ok {
			return err
		}
	}
	switch {
	case len(sum.Sets) == 0 && len(sum.Skipped) == 0:
		msg := nothingFound(dir, sum)
		if len(r.hostsLeft) > 0 {
			msg += "; they are not compared as hosts of the same builds: " + strings.Join(r.hostsLeft, "; ")
		}
		return inputerr.Errorf("%s", msg)
	case name == "none":
		return inputerr.Errorf("%s: --set none shows every result folder, and the folder has none; its sets are %s", names.Quoted(dir), strings.Join(sum.SetNames(), ", "))
	}
	set, err := sum.Choose(name)
	if err != nil {
		return err
	}
	by := "default"
	if name != "" {
		by = "option"
	}
	r.Summary = &SummaryChoice{Set: set.Name, By: by, Sets: sum.SetNames(), Builds: set.Builds, Tables: true, Relative: set.Relative, MetOnly: set.MetOnly, Files: set.Files}
	if err := readSysbenchUser(&r.SysbenchOptions, opt); err != nil {
		return err
	}
	if r.SysbenchOptions.groups == nil && set.Groups != nil {
		// The author's grouping of the tests, from his edited tables.
		r.SysbenchOptions.groups = set.Groups
	}
	r.Sysbench = set.Sysbench(r.Options)
	// Nothing else of the folder is read: no perf samples, flame graphs
	// or run files belong to summary tables.
	r.FS = nil
	r.ScanGen = ScanGenChoice{Gen: r.Options.ScanGen, Source: "summary tables"}
	r.settingsWarnings = append(r.settingsWarnings, set.Warnings...)
	if set.Threads == 0 {
		r.settingsWarnings = append(r.settingsWarnings, metrics.Warning{Text: fmt.Sprintf("%s: no file of set %s names its thread count (no o.met file with sb.met.<test>.dop<N> blocks): the report says an unknown thread count", dir, set.Name)})
	}
	r.setupNotes = append(r.setupNotes, metrics.Warning{Kind: metrics.Information, Text: r.Summary.Sentence()})
	return nil
}

// nothingFound says what a folder without any results was looked at
// for, and which of its sub-folders hold summary tables.
func nothingFound(dir string, sum *results.Summaries) string {
	return fmt.Sprintf("%s: no DBMS result trees, no sysbench results and no mrg.<step> files (looked for <N>m.<dbms>.<cnf>/ trees, x.<dbms>.<cnf>.pk<N>/ folders with sb.o.* or sb.met.*, mrg.<step>, and the summary tables qps.abs.<set>.tsv, qps.rel.<set>.tsv, o.met.<set>)%s", names.Quoted(dir), subHint(sum))
}

// chooseSetFolders keeps, of the result folders, those of the set the
// options name, in the set's order: the author's choice of builds and
// base. Without --set (the sets are then named in a note), without
// summary tables, or with --set none, it keeps them all.
func (r *Results) chooseSetFolders(fsys fs.FS, dir string, dirs []*parse.SysbenchDir) ([]*parse.SysbenchDir, error) {
	name := r.SysbenchOptions.Set
	if name == "none" {
		return dirs, nil
	}
	has, err := results.HasSummaries(fsys, ".")
	if err != nil || !has {
		if name != "" {
			return nil, inputerr.Errorf("%s: --set %s: the folder has no summary tables (qps.abs.<set>.tsv, …)", names.Quoted(dir), name)
		}
		return dirs, nil
	}
	sum, err := results.ReadSummaries(fsys, ".", dir)
	if err != nil {
		return nil, err
	}
	byName := map[string]*parse.SysbenchDir{}
	for _, d := range dirs {
		byName[d.Name] = d
	}
	// Only sets of these folders' builds can choose among them.
	var usable []*results.Set
	for _, s := range sum.Sets {
		if slices.ContainsFunc(s.Builds, func(b string) bool { return byName[b] != nil }) {
			usable = append(usable, s)
		}
	}
	if name == "" {
		// Without --set every folder is shown, and the sets are named: a
		// user's own folder may hold summaries of an earlier run.
		if len(usable) > 0 {
			r.setupNotes = append(r.setupNotes, metrics.Warning{Kind: metrics.Information, Text: fmt.Sprintf("Every result folder is shown; the folder's summary tables also choose builds: %s (--set NAME shows only a set's builds, in its order, against its base).", setList(usable))})
		}
		return dirs, nil
	}
	set, err := sum.Set(name)
	if err != nil {
		return nil, err
	}
	c := &SummaryChoice{Set: set.Name, By: "option", Files: set.Files}
	for _, s := range usable {
		c.Sets = append(c.Sets, s.Name)
	}
	var out []*parse.SysbenchDir
	for _, b := range set.Builds {
		if d := byName[b]; d != nil && !slices.Contains(out, d) {
			out = append(out, d)
			c.Builds = append(c.Builds, b)
		} else if d == nil {
			c.Missing = append(c.Missing, b)
		}
	}
	if len(out) == 0 {
		return nil, inputerr.Errorf("%s: set %s names no result folder of the folder (%s)", names.Quoted(dir), set.Name, strings.Join(set.Builds, ", "))
	}
	for _, d := range dirs {
		if !slices.Contains(out, d) {
			c.Left = append(c.Left, d.Name)
		}
	}
	r.Summary = c
	r.setupNotes = append(r.setupNotes, metrics.Warning{Kind: metrics.Information, Text: c.Sentence()})
	return out, nil
}

// setList names sets with their build counts: "all (8 builds), my.84 (2
// builds)".
func setList(sets []*results.Set) string {
	parts := make([]string, len(sets))
	for i, s := range sets {
		parts[i] = fmt.Sprintf("set %s (%s)", s.Name, metrics.Plural(len(s.Builds), "build"))
	}
	return strings.Join(parts, ", ")
}

// subHint points to the sub-folders that hold summary tables, which
// build reads one at a time: "" when there is none.
func subHint(sum *results.Summaries) string {
	if sum == nil || len(sum.SubDirs) == 0 {
		return ""
	}
	return fmt.Sprintf("; its sub-folders %s hold summary tables: build each (ibreport build %s)", strings.Join(sum.SubDirs, ", "), path.Join(sum.Dir, sum.SubDirs[0]))
}

// undescribed names, once, the configs and size classes of the sysbench
// names that read as releases which no describe.<code> key puts in words
// ("" when every one is described, or the names are no releases): the
// report never guesses what x10d or z12b holds.
func undescribed(res *Results) string {
	if res == nil || res.Sysbench == nil {
		return ""
	}
	rs := releasesOf(res.Sysbench.Names())
	if rs == nil {
		return ""
	}
	var configs, classes []string
	for _, r := range rs.Rels {
		if c := r.Config; c != "" && res.descriptions[c] == "" && !slices.Contains(configs, c) {
			configs = append(configs, c)
		}
		if h := r.Host; h != "" && res.descriptions[h] == "" && !slices.Contains(classes, h) {
			classes = append(classes, h)
		}
	}
	var parts []string
	if len(configs) > 0 {
		parts = append(parts, "config "+strings.Join(configs, ", "))
	}
	if len(classes) > 0 {
		parts = append(parts, "my.cnf size class "+strings.Join(classes, ", "))
	}
	if len(parts) == 0 {
		return ""
	}
	return "Not described: " + strings.Join(parts, "; ") + " (a line describe.<code> = text in ibreport.settings puts a code in words, in the key of short names)."
}
