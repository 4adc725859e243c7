package report

import "github.com/ibreport/ibreport/parse"

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
)

type TablesOptions = tablesOptions

// SysbenchOptionsWithExtra are options whose per-query table has the
// columns of x, as LoadOptions.SysbenchExtra gives them.
func SysbenchOptionsWithExtra(tag string, x *parse.SysbenchExtra) SysbenchOptions {
	return SysbenchOptions{Tag: tag, extra: x}
}
