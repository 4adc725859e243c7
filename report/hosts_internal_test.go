package report

import (
	"testing"

	"github.com/ibreport/ibreport/metrics"
)

// TestCrossNames: a build's name across hosts drops the parts its host's
// builds all have and not every host shares, whatever they look like.
func TestCrossNames(t *testing.T) {
	set := func(names ...string) *Results {
		s := &metrics.SysbenchSet{}
		for _, n := range names {
			s.DBMS = append(s.DBMS, &metrics.SysbenchDBMS{Name: n})
		}
		return &Results{Sysbench: s}
	}
	for _, c := range []struct {
		name  string
		hosts [][]string
		want  [][]string
	}{
		{"size class", [][]string{
			{"x.my8044_rel_o2nofp.z12a_c32r128.pk1", "x.my9500_rel_o2nofp.z12a_c32r128.pk1"},
			{"x.my8044_rel_o2nofp.z12a_c24r64.pk1", "x.my9500_rel_o2nofp.z12a_c24r64.pk1"},
		}, [][]string{
			{"x.my8044_rel_o2nofp.z12a.pk1", "x.my9500_rel_o2nofp.z12a.pk1"},
			{"x.my8044_rel_o2nofp.z12a.pk1", "x.my9500_rel_o2nofp.z12a.pk1"},
		}},
		{"host name", [][]string{
			{"x.fb_end.ia_bee.pk1", "x.fb_end.ia1_bee.pk1"},
			{"x.fb_end.ia_c8r32.pk1", "x.fb_end.ia1_c8r32.pk1"},
		}, [][]string{
			{"x.fb_end.ia.pk1", "x.fb_end.ia1.pk1"},
			{"x.fb_end.ia.pk1", "x.fb_end.ia1.pk1"},
		}},
		{"same names", [][]string{
			{"x.pg17.x10a_c32r128.pk1", "x.pg18.x10b_c32r128.pk1"},
			{"x.pg17.x10a_c32r128.pk1", "x.pg18.x10b_c32r128.pk1"},
		}, [][]string{
			{"x.pg17.x10a_c32r128.pk1", "x.pg18.x10b_c32r128.pk1"},
			{"x.pg17.x10a_c32r128.pk1", "x.pg18.x10b_c32r128.pk1"},
		}},
	} {
		var hosts []*Results
		for _, h := range c.hosts {
			hosts = append(hosts, set(h...))
		}
		crossNames(hosts)
		for i, h := range hosts {
			for j, d := range h.Sysbench.DBMS {
				if got := h.crossName(d.Name); got != c.want[i][j] {
					t.Errorf("%s: %s is %q, want %q", c.name, d.Name, got, c.want[i][j])
				}
			}
		}
	}
}

func TestHostKind(t *testing.T) {
	for _, c := range []struct {
		names []string
		want  string
	}{
		{[]string{"dell32", "hetz48"}, "host"},
		{[]string{"dop1", "dop40"}, "thread count"},
		{[]string{"1u.1t.50m", "40u.8t.10m"}, "thread count"},
		{[]string{"v1", "v2"}, "run"},
		{[]string{"v1", "hetz"}, "host"},
	} {
		if got := hostKind(c.names); got != c.want {
			t.Errorf("%v: %q, want %q", c.names, got, c.want)
		}
	}
}

// TestHostMove: a ratio counts where its printed value is beyond 5%, as
// the cells' bands do.
func TestHostMove(t *testing.T) {
	for _, c := range []struct {
		r    float64
		want int
	}{{0.9496, 0}, {0.944, -1}, {1.054, 0}, {1.056, 1}, {0.5, -1}, {3, 1}, {1, 0}} {
		if got := hostMove(c.r); got != c.want {
			t.Errorf("%v: %d, want %d", c.r, got, c.want)
		}
	}
}
