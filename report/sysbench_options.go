package report

import (
	"fmt"

	"github.com/ibreport/ibreport/internal/compat"
	"github.com/ibreport/ibreport/internal/sbsum"
	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/parse"
)

// SysbenchOptions control the sysbench summaries (Results.Tables) and the
// sysbench part of a report.
type SysbenchOptions struct {
	// Tag names the summary files, as the <tag> argument of the original
	// scripts: o.met.<tag>.dop<nt>, sum.<tag>, qps.abs.<tag>.tsv, ...
	// "" means "sb". Load refuses a tag that is not a plain part of a
	// file name (a path separator, "..", a control character), as it
	// refuses the settings file's sb-tag.
	Tag string
	// GroupSplit is the largest default group kept whole (0: the default).
	GroupSplit int
	// Collate is the locale order in which the original summaries listed
	// sorted file names, for --compat: "en_US" (glibc's en_US.UTF-8, the
	// locale of the published archives; "" means en_US) or "C" (byte
	// order).
	Collate string
	// PerfPrefix and PerfSample are the PREFIX and V arguments of
	// join_perfstat_sb.sh for --compat: join<V>.{abs,rel}.<PREFIX>.…
	// files join sample V of each DBMS. "" means Tag (else "sb"), 0 means
	// 1 (the first sample run.sh keeps).
	PerfPrefix string
	PerfSample int
	// Set names the set of a folder's summary tables to show
	// (qps.abs.<set>.tsv, …): with result folders, the builds of the set;
	// of summary tables alone, the set's values. "" means the default
	// set (results.DefaultSet); "none", with result folders, every
	// folder whatever the sets list.
	Set string

	// groups replaces the default point / range / write grouping of the
	// summary statistics (nil: default): LoadOptions.SysbenchGroups.
	groups []parse.SysbenchGroup
	// extra holds user-supplied per-query columns for the engine table:
	// LoadOptions.SysbenchExtra.
	extra *parse.SysbenchExtra
}

// sum are the options of the summaries.
func (o SysbenchOptions) sum() sbsum.Options {
	return sbsum.Options{Tag: o.Tag, GroupSplit: o.GroupSplit, Collate: o.Collate, Groups: o.groups, Extra: o.extra}
}

// sysbenchTables writes the summaries of set; sbc, when not nil, is the
// compat computation of the set, whose edge writes the scripts' files.
func sysbenchTables(set *metrics.SysbenchSet, sbc *compat.Sysbench, opt SysbenchOptions) ([]File, []string, error) {
	files, warns, err := sbsum.Tables(set, sbc, opt.sum())
	return filesOf(files), warns, err
}

// buildSysbenchTables builds the sysbench summaries (sbsum.Tables) of a
// set computed in the default mode. The byte-compatible files of --compat
// come from the compat edge, which computes the runs as the scripts did:
// Load with metrics.Options.Compat and call Results.Tables. A set whose
// Options.Compat is set is refused here.
func buildSysbenchTables(set *metrics.SysbenchSet, opt SysbenchOptions) ([]File, []string, error) {
	if set.Options.Compat {
		return nil, nil, fmt.Errorf("compat sysbench tables are written from the compat computation (Load with Options.Compat, then Results.Tables)")
	}
	return sysbenchTables(set, nil, opt)
}
