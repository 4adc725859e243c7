package report

import (
	"sort"

	"github.com/ibreport/ibreport/internal/names"
	"github.com/ibreport/ibreport/parse"
)

// versionOrder sorts sysbench folders by the versions their names carry
// when every name has one: engines in natural order of their prefix, then
// versions, then names in natural order (the same release with other
// settings). When a name carries no version the order is left as it is
// (natural) and ok is false.
func versionOrder(dirs []*parse.SysbenchDir) (ok bool) {
	vs := make(map[*parse.SysbenchDir]dbmsVersion, len(dirs))
	for _, d := range dirs {
		v, ok := parseDBMSVersion(d.Name)
		if !ok {
			return false
		}
		vs[d] = v
	}
	sort.SliceStable(dirs, func(i, j int) bool {
		a, b := vs[dirs[i]], vs[dirs[j]]
		if a.Engine != b.Engine {
			return names.NaturalLess(a.Engine, b.Engine)
		}
		if c := a.Compare(b); c != 0 {
			return c < 0
		}
		return names.NaturalLess(dirs[i].Dir, dirs[j].Dir)
	})
	return true
}
