package metrics

import (
	"io/fs"
	"path"
	"strconv"

	"github.com/ibreport/ibreport/parse"
)

// Row computes the 21-column metrics row of the step. In compat mode it is
// etl.sh applied to the o.res text of the summary, byte for byte; otherwise
// the same quantities are taken from the summary directly, and every value
// that cannot be known is NA with a note.
func (s *Summary) Row(tag string, opt Options) Row {
	rw := s.Step.Kind.ReadWrite()
	if opt.Compat {
		cores := s.Cores
		user := opt.PsUser
		if user == "" {
			user = s.PsUser
		}
		r := RowFromRes(s.ResLines(), true, rw, tag, user, cores)
		if cores == 0 {
			r.Cells[ColCpupq] = ""
		}
		r.Step = s.Step
		return r
	}
	r := Row{Step: s.Step, Notes: map[string]string{}}
	na := func(col int, why string) {
		r.Cells[col] = "NA"
		r.Notes[RowColumns[col]] = why
	}
	set := func(col int, v, why string) {
		if v == "" || v == "inf" || v == "-inf" || v == "-nan" || v == "nan" {
			na(col, why)
			return
		}
		r.Cells[col] = v
	}
	by := s.ByInsert
	rate, rateName := s.InsertRate, "insert rate"
	if rw {
		by, rate, rateName = s.ByQuery, s.QueryRate, "query rate"
	}
	set(ColIps, round0(s.InsertRate), "no insert rate (missing o.res or client logs)")
	r.Cells[ColQps] = "0"
	if rw {
		set(ColQps, round0(s.QueryRate), "no query rate")
	}
	ioWhy := "no iostat samples for the device"
	if awkNum(rate) == 0 {
		ioWhy = "the " + rateName + " is 0"
	}
	set(ColRps, by.Iostat[1], "no iostat samples for the device")
	set(ColRmbps, by.Iostat[2], "no iostat samples for the device")
	set(ColWps, by.Iostat[3], "no iostat samples for the device")
	set(ColWmbps, by.Iostat[4], "no iostat samples for the device")
	set(ColRpq, by.Iostat[5], ioWhy)
	set(ColRkbpq, by.Iostat[6], ioWhy)
	insWhy := "no iostat samples for the device"
	if awkNum(s.InsertRate) == 0 {
		insWhy = "the insert rate is 0"
	}
	set(ColWpi, s.ByInsert.Iostat[7], insWhy)
	set(ColWkbpi, s.ByInsert.Iostat[8], insWhy)
	vmWhy := "no vmstat samples"
	set(ColCsps, by.Vmstat[1], vmWhy)
	set(ColCpups, by.Vmstat[2], vmWhy)
	if awkNum(rate) == 0 && by.Vmstat[0] != "" {
		vmWhy = "the " + rateName + " is 0"
	}
	set(ColCspq, by.Vmstat[3], vmWhy)
	switch {
	case s.Cores == 0:
		na(ColCpupq, "CPU count unknown (use --cores)")
	default:
		set(ColCpupq, cpupq(r.Cells[ColCpups], strconv.FormatInt(s.TotSecs, 10), strconv.Itoa(s.Cores), rate),
			"needs cpups, the step duration and a non-zero "+rateName)
	}
	set(ColDbgb1, round1(s.DBGB), "no o.dbsz file")
	set(ColDbgb2, round1(s.DBDirGB), "no o.dbdirsz file")
	if s.MaxRSSKiB >= 0 {
		r.Cells[ColRss] = ff(float64(s.MaxRSSKiB)/(1024*1024), 1)
	} else {
		na(ColRss, "no ps sample of the DBMS user")
	}
	kind := parse.Insert
	if rw {
		kind = parse.Query
	}
	if m := s.Max[kind]; len(m) > 0 {
		r.Cells[ColMaxop] = m[0]
	} else {
		na(ColMaxop, "no "+kind.String()+" response-time histogram in the client logs")
	}
	if len(s.Percentiles) > 0 && len(s.Percentiles[0]) == 5 {
		pick := func(p Percentile) string {
			if rw {
				return p.Query
			}
			return p.Insert
		}
		why := "client 1 has fewer than 10 intervals"
		set(ColP50, naIsEmpty(pick(s.Percentiles[0][0])), why)
		set(ColP99, naIsEmpty(pick(s.Percentiles[0][4])), why)
	} else {
		na(ColP50, "no client log")
		na(ColP99, "no client log")
	}
	r.Cells[ColTag] = tag
	return r
}

func naIsEmpty(s string) string {
	if s == "NA" {
		return ""
	}
	return s
}

func round0(s string) string {
	if s == "" {
		return ""
	}
	return ff(awkNum(s), 0)
}

func round1(s string) string {
	if s == "" {
		return ""
	}
	return ff(awkNum(s), 1)
}

// StepResult is one step of one DBMS tree, read and summarized.
type StepResult struct {
	Data    *parse.StepData
	Summary *Summary
	Row     Row
}

// TreeResult is one DBMS tree, every step read and summarized.
type TreeResult struct {
	Tree  *parse.Tree
	Steps []*StepResult
}

// Step returns the result of the step with the given name, or nil.
func (t *TreeResult) Step(name string) *StepResult {
	for _, s := range t.Steps {
		if s.Data.Step.Name == name || s.Data.Step.MergeName == name {
			return s
		}
	}
	return nil
}

// ComputeTree reads every step of a tree and summarizes it. The rows are
// tagged with the tree name; the <N>m. prefix is removed later, when rows of
// several trees are merged, as the original did.
func ComputeTree(fsys fs.FS, t *parse.Tree, opt Options) (*TreeResult, error) {
	res := &TreeResult{Tree: t}
	var datas []*parse.StepData
	for _, st := range t.Steps {
		sd, err := parse.ReadStep(fsys, path.Join(t.Dir, st.Name), st)
		if err != nil {
			return nil, err
		}
		datas = append(datas, sd)
		if st.Name == "l.i0" {
			for _, c := range sd.Clients {
				opt.ExtraRows += c.IntOption("max_rows", 0)
			}
		}
	}
	for _, sd := range datas {
		sum := Summarize(sd, opt)
		res.Steps = append(res.Steps, &StepResult{Data: sd, Summary: sum, Row: sum.Row(t.Name, opt)})
	}
	return res, nil
}
