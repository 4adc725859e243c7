package report_test

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/report"
	"github.com/ibreport/ibreport/report/render"
)

// TestIbenchReleaseStory: the published insert-benchmark archives
// (testdata/arc/ibench.jan2021) whose group of four MySQL releases leads
// with its story in release order, while the PostgreSQL and MyRocks
// groups of three and two DBMS keep their findings against their base;
// groups of three releases, compat mode and the series report tell none.
func TestIbenchReleaseStory(t *testing.T) {
	mysql := []string{"my5649.cx6d", "my5731.cx6d", "my8021.cx6d", "my8022.cx6d"}
	for _, tc := range []struct {
		dir   string
		lopt  report.LoadOptions
		bopt  report.BuildOptions
		lines []string // in the story; none: no story
	}{
		{"100m/res.a", report.LoadOptions{}, report.BuildOptions{}, []string{
			"Largest: 8.0.21 vs 5.7.31: load −37%, read+write −13%.",
			"5.7.31 vs 5.6.49: load −9.9%, read+write −11%; create index +77%, for this release only (back at 8.0.21).",
			"First to last, 8.0.22 vs 5.6.49: load −41%, create index +19%, read+write −23%.",
		}},
		{"20m/res.a", report.LoadOptions{}, report.BuildOptions{}, []string{
			"Largest: 5.7.31 vs 5.6.49: load −9.2%, create index +50%.",
			"8.0.21 vs 5.7.31: load −30%, read+write −13%.",
		}},
		{"500m/res.a", report.LoadOptions{}, report.BuildOptions{}, []string{
			"q100.1 −75%, q100.2 −69%, 1 more step by 20% or more.",
			"No other release changed a part materially.",
		}},
		{"100m/res.in", report.LoadOptions{}, report.BuildOptions{}, nil}, // three releases
		{"100m/res.a", report.LoadOptions{Metrics: metrics.Options{Compat: true}}, report.BuildOptions{}, nil},
		{"100m/res.a", report.LoadOptions{}, report.BuildOptions{Series: true}, nil},
	} {
		t.Run(tc.dir, func(t *testing.T) {
			r := loadBuild(t, "../testdata/arc/ibench.jan2021/"+tc.dir, tc.lopt, tc.bopt)
			if tc.lines == nil {
				if r.Story != nil {
					t.Fatalf("a story: %s\n%s", r.Story.Lead, strings.Join(r.Story.Lines, "\n"))
				}
				return
			}
			if r.Story == nil {
				t.Fatal("no story")
			}
			got := strings.Join(r.Story.Lines, "\n")
			for _, w := range tc.lines {
				if !strings.Contains(got, w) {
					t.Errorf("the story lacks %q:\n%s", w, got)
				}
			}
			if !strings.HasPrefix(r.Story.Lead, "MySQL 5.6.49 to 8.0.22, 4 builds, config cx6d. Insert benchmark throughput") {
				t.Errorf("lead: %s", r.Story.Lead)
			}
			if !slices.Equal(r.Story.Covers, mysql) || len(r.Story.Key) != 4 || r.Story.Key[2].Version != "8.0.21" {
				t.Errorf("covers %v, key %+v", r.Story.Covers, r.Story.Key)
			}
			// The other groups keep their findings, after the story.
			var md bytes.Buffer
			if err := render.WriteMarkdown(&md, r); err != nil {
				t.Fatal(err)
			}
			head, _, _ := strings.Cut(md.String(), "\n## ")
			story := strings.Index(head, "- First to last, 8.0.22 vs 5.6.49")
			other := strings.Index(head, "- The other DBMS: throughput relative to the base")
			pg := strings.Index(head, "- pg131.cx5 vs pg1110.cx5: load")
			if story < 0 || other < story || pg < other || strings.Contains(head, "my8021.cx6d vs my5649.cx6d") {
				t.Errorf("the head of the Markdown report:\n%s", head)
			}
		})
	}
}
