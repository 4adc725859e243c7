package metrics

import (
	"io/fs"

	"github.com/ibreport/ibreport/parse"
)

// Inspection is what `ibreport inspect` prints for one step.
type Inspection struct {
	Tree     string            `json:"tree"`
	Step     string            `json:"step"`
	Kind     string            `json:"kind"`
	Rate     int               `json:"target_rate_per_client,omitempty"`
	Clients  int               `json:"clients"`
	Files    map[string]int    `json:"records_read"`
	Summary  []string          `json:"o_res"`
	Row      map[string]string `json:"row"`
	RowOrder []string          `json:"row_columns"`
	Notes    map[string]string `json:"na_reasons,omitempty"`
	Warnings []string          `json:"warnings"`
}

// Inspect reads and summarizes one step of the tree at the root of fsys. For
// the create-index step the sibling l.i0 is read too, for its row count.
func Inspect(fsys fs.FS, treeName string, st parse.Step, opt Options) (*Inspection, error) {
	if st.Kind == parse.CreateIndex {
		if l0, err := parse.ReadStep(fsys, "l.i0", parse.Step{Name: "l.i0", MergeName: "l.i0"}); err == nil {
			for _, c := range l0.Clients {
				opt.ExtraRows += c.IntOption("max_rows", 0)
			}
		}
	}
	sd, err := parse.ReadStep(fsys, st.Name, st)
	if err != nil {
		return nil, err
	}
	s := Summarize(sd, opt)
	r := s.Row(treeName, opt)
	in := &Inspection{Tree: treeName, Step: st.Name, Kind: sd.Step.Kind.String(), Rate: st.Rate,
		Clients: len(sd.Clients), Files: map[string]int{}, Summary: s.ResLines(),
		Row: map[string]string{}, RowOrder: RowColumns, Notes: r.Notes, Warnings: s.Warnings}
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
	for i, col := range RowColumns {
		in.Row[col] = r.Cells[i]
	}
	if in.Warnings == nil {
		in.Warnings = []string{}
	}
	return in, nil
}
