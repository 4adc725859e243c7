package report

import (
	"github.com/ibreport/ibreport/internal/inputerr"
	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/parse"
)

// The functions below are internal to the package; its external tests
// reach them under their former names.
var (
	ComputeTree       = computeTree
	ArchivedSteps     = archivedSteps
	ReadArchive       = readArchive
	TablesFromArchive = tablesFromArchive
	Tables            = buildTables
	SysbenchTables    = buildSysbenchTables
	DefaultList       = defaultList
	ReadDBMSList      = readDBMSList
	ShortNames        = shortNames
)

type TablesOptions = tablesOptions

// SpreadMin is the count of ratios from which a finding prints their
// interquartile range.
const SpreadMin = spreadMin

// SysbenchOptionsWithExtra are options whose per-query table has the
// columns of x, as LoadOptions.SysbenchExtra gives them.
func SysbenchOptionsWithExtra(tag string, x *parse.SysbenchExtra) SysbenchOptions {
	return SysbenchOptions{Tag: tag, extra: x}
}

// MergedTables returns the mrg.<step> and rel.<step> files of the raw
// trees, as `ibreport tables` writes them, step by step in report order,
// and the warnings met merging the trees: the text the typed tables of
// Results.Merged are checked against. An archived folder has those files
// already; it gets none.
func (r *Results) MergedTables() ([]File, []string, error) {
	if r == nil {
		return nil, nil, nil
	}
	if len(r.Trees) == 0 {
		return nil, nil, nil
	}
	_, merged, typed, err := mergeResults(r.Trees, r.List, r.Options)
	if err != nil {
		return nil, nil, inputerr.Wrap(err)
	}
	warns := metrics.WarningTexts(typed)
	var files []File
	for _, mt := range merged {
		name := mt.step.MergeName
		files = append(files,
			File{Name: "mrg." + name, Data: joinLines(mt.lines())},
			File{Name: "rel." + name, Data: joinLines(mt.relLines(r.Options.Compat, &warns))})
	}
	return files, warns, nil
}
