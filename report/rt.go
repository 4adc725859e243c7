package report

import (
	"fmt"
	"strings"

	"github.com/ibreport/ibreport/internal/fsout"
	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/parse"
)

// rtMerge is the response-time histogram merge of one kind for one step
// (mrg.<step>.rt.<kind>, as mrg.extra.sh wrote it): the share of responses
// per bucket of every DBMS of the list.
type rtMerge struct {
	step   parse.Step
	kind   parse.HistKind
	header []string // bucket names, "max" and "tag"
	rows   []*rtRow
}

// rtRow is one DBMS of an rtMerge, or a group break.
type rtRow struct {
	brk   bool
	tag   string
	share []metrics.Value // per bucket, percent
	max   metrics.Value   // seconds
	// line is the row as the compat edge printed it; "" in the default
	// mode, which renders it only when a file is written (text).
	line string
}

// text is the row as a line of the merge file.
func (r *rtRow) text() string {
	if r.line != "" || r.brk {
		return r.line
	}
	var b strings.Builder
	for _, v := range r.share {
		b.WriteString(shareText(v))
		b.WriteByte('\t')
	}
	b.WriteString(r.max.Format(3) + "\t" + r.tag)
	return b.String()
}

// defaultRTHeader is the header of a histogram merge whose first DBMS has no
// histogram to take it from.
var defaultRTHeader = []string{"256us", "1ms", "4ms", "16ms", "64ms", "256ms", "1s", "4s", "16s", "gt", "max", "tag"}

// histKindsOf are the histograms merged for a step: inserts and deletes for
// load steps, queries too for read+write steps, none for create index.
func histKindsOf(st parse.Step) []parse.HistKind {
	switch {
	case st.Kind == parse.CreateIndex:
		return nil
	case st.Kind.ReadWrite():
		return []parse.HistKind{parse.Insert, parse.Delete, parse.Query}
	}
	return []parse.HistKind{parse.Insert, parse.Delete}
}

// rtMerges builds the histogram merges of a step: a header per kind and a
// row per DBMS of the list, as the edge e chooses them (ibEdge.rtHeader,
// ibEdge.rtRow).
func rtMerges(byName map[string]*metrics.TreeResult, list []Entry, st parse.Step, prefix string, e ibEdge, warns *[]string) []*rtMerge {
	var out []*rtMerge
	for _, k := range histKindsOf(st) {
		header, ok := e.rtHeader(byName, list, st, k, warns)
		if !ok {
			continue
		}
		m := &rtMerge{step: st, kind: k, header: header}
		for _, en := range list {
			if en.Break {
				m.rows = append(m.rows, &rtRow{brk: true, line: "-"})
				continue
			}
			var h *metrics.Histogram
			if sr := rowOf(byName[en.Name], st); sr != nil {
				h = sr.Hist[k]
			}
			if r := e.rtRow(en.Name, h, st, k, prefix, len(header), warns); r != nil {
				m.rows = append(m.rows, r)
			}
		}
		out = append(out, m)
	}
	return out
}

// firstHist is the first histogram of a kind with shares in list order, or
// nil.
func firstHist(byName map[string]*metrics.TreeResult, list []Entry, st parse.Step, k parse.HistKind) *metrics.Histogram {
	for _, e := range list {
		if sr := rowOf(byName[e.Name], st); !e.Break && sr != nil && hasShares(sr.Hist[k]) {
			return sr.Hist[k]
		}
	}
	return nil
}

// hasShares reports whether h is a histogram with buckets: a step without
// client logs has an empty one, which is no histogram to show.
func hasShares(h *metrics.Histogram) bool { return h != nil && len(h.Share) > 0 }

// firstRowLine is the first line the driver's o.rt table of h would have
// printed without a header: client 1's counts (or the sum row without any
// client), its max and label.
func firstRowLine(h *metrics.Histogram) string {
	var b strings.Builder
	counts, maxv, label := h.Sum, h.Max, "sum:DBMS"
	if len(h.Clients) > 0 {
		counts, maxv, label = h.Clients[0], h.ClientMax[0], "t1:DBMS"
	}
	for _, n := range counts {
		fmt.Fprintf(&b, "%d\t", n)
	}
	b.WriteString(maxv.Format(3) + "\t" + label)
	return b.String()
}

// shareText prints a histogram share with three decimals; a share that is
// not zero but prints as 0.000 is "nonzero", as rth.sh printed it.
func shareText(v metrics.Value) string {
	s := v.Format(3)
	if _, printed := v.Text(); !printed && v.OK() && v.V > 0 && s == "0.000" {
		return "nonzero"
	}
	return s
}

// lines is the merge as mrg.<step>.rt.<kind> holds it.
func (m *rtMerge) lines() []string {
	out := []string{strings.Join(m.header, "\t")}
	for _, r := range m.rows {
		out = append(out, r.text())
	}
	return out
}

// findTag is the line of a row by its tag, as an index into lines() (0 is
// the header, -1 none).
func (m *rtMerge) findTag(tag string) int {
	for i, r := range m.rows {
		if !r.brk && r.tag == tag {
			return i + 1
		}
	}
	return -1
}

// rtFiles writes a step's histogram merges and, for the shown DBMS, their
// .some files (chart_rt.sh: the header plus the first row of each).
func rtFiles(fs *fsout.Set, merges []*rtMerge, tags []string, prefix string, e ibEdge) {
	for _, m := range merges {
		name := "mrg." + m.step.MergeName + ".rt." + m.kind.String()
		lines := m.lines()
		fs.Line(name, lines...)
		fs.Line(name+".some", lines[0])
		for _, tag := range displayTags(tags, prefix, e.scripts) {
			if i := e.rtFind(m, tag); i >= 0 {
				fs.Line(name+".some", lines[i])
			}
		}
	}
}
