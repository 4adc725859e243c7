package metrics

import (
	"io/fs"

	"github.com/ibreport/ibreport/parse"
)

// Inspection is what `ibreport inspect` prints for one step: what was read
// and every number computed from it.
type Inspection struct {
	Tree    string         `json:"tree"`
	Step    string         `json:"step"`
	Kind    string         `json:"kind"`
	Rate    int            `json:"target_rate_per_client,omitempty"`
	Clients int            `json:"clients"`
	Files   map[string]int `json:"records_read"`
	// Row is the metrics row as printed (o.sum.t), RowOrder its columns.
	Row      map[string]string `json:"row"`
	RowOrder []string          `json:"row_columns"`
	// Result holds the typed values, with units and the reason of every NA.
	Result *StepResult `json:"result"`
	// Res is the o.res summary as the driver printed it (compat mode only).
	Res []string `json:"o_res,omitempty"`
	// Warnings are the step's (StepResult.Warnings), after those of the
	// settings file.
	Warnings []Warning `json:"warnings"`
}

// ReadStepAlone reads one step of the tree at the root of fsys. For the
// create-index step it also reads the row count of the sibling l.i0 into
// opt.ExtraRows, as ComputeTree does.
func ReadStepAlone(fsys fs.FS, st parse.Step, opt Options) (*parse.StepData, Options, error) {
	if st.Kind == parse.CreateIndex {
		if n, err := loadRows(fsys, "l.i0"); err == nil {
			opt.ExtraRows = n
		}
	}
	sd, err := parse.ReadStep(fsys, st.Name, st)
	return sd, opt, err
}

// Inspect reads and summarizes one step of the tree at the root of fsys.
func Inspect(fsys fs.FS, treeName string, st parse.Step, opt Options) (*Inspection, error) {
	sd, opt, err := ReadStepAlone(fsys, st, opt)
	if err != nil {
		return nil, err
	}
	return NewInspection(sd, Summarize(sd, treeName, opt)), nil
}

// NewInspection describes a summarized step and the files it came from.
func NewInspection(sd *parse.StepData, r *StepResult) *Inspection {
	if sd == nil {
		sd = &parse.StepData{}
	}
	if r == nil {
		r = &StepResult{}
	}
	in := &Inspection{Tree: r.Tree, Step: sd.Step.Name, Kind: sd.Step.Kind.String(), Rate: sd.Step.Rate,
		Clients: len(sd.Clients), Files: map[string]int{}, Row: map[string]string{}, RowOrder: RowColumns,
		Result: r, Warnings: r.Warnings}
	for _, c := range sd.Clients {
		in.Files[c.Name] = len(c.Intervals)
	}
	if sd.Vmstat != nil {
		in.Files[sd.Vmstat.Name] = len(sd.Vmstat.Samples)
	}
	if sd.Iostat != nil {
		in.Files[sd.Iostat.Name] = len(sd.Iostat.Rows)
	}
	if sd.Ps != nil {
		in.Files[sd.Ps.Name] = len(sd.Ps.Rows)
	}
	for i, v := range r.Metrics {
		in.Row[Metric(i).Name()] = v.Format(Metric(i).Digits())
	}
	in.Row["tag"] = r.Tree
	if in.Warnings == nil {
		in.Warnings = []Warning{}
	}
	return in
}
