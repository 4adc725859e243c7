package report

import "github.com/ibreport/ibreport/internal/relname"

// The build names read as releases (internal/relname): the version order
// of sysbench folders, the release story and the version names.
type (
	dbmsVersion = relname.Version
	release     = relname.Release
	releaseSet  = relname.Set
)

var (
	parseDBMSVersion = relname.ParseVersion
	parseRelease     = relname.Parse
	releasesOf       = relname.Of
)
