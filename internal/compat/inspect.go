package compat

import (
	"io/fs"

	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/parse"
)

// Inspect reads and summarizes one step of the tree at the root of fsys as
// the driver did, with its o.res summary as the driver printed it.
func Inspect(fsys fs.FS, treeName string, st parse.Step, opt metrics.Options) (*metrics.Inspection, error) {
	sd, opt, err := metrics.ReadStepAlone(fsys, st, opt)
	if err != nil {
		return nil, err
	}
	s := summarize(sd, opt)
	in := metrics.NewInspection(sd, s.result(sd, treeName, opt))
	in.Res = s.ResLines()
	return in, nil
}
