package report

import (
	"slices"

	"github.com/ibreport/ibreport/internal/relname"
)

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

// configGroups groups the builds of a release archive by config, so that
// no build is compared with another config's base: each config of two or
// more builds is a group whose base is its first build (names are in
// release order); a config of one build joins the group of a config that
// ran the same release (compared with it at that release, as the story's
// config lines are), else the main config's. Nil when the names are not
// releases, have one config, or no config has two builds.
func configGroups(names []string) [][]string {
	rs := releasesOf(names)
	if rs == nil || len(rs.Configs) < 2 {
		return nil
	}
	by := map[string][]int{}
	for i, r := range rs.Rels {
		by[r.Config] = append(by[r.Config], i)
	}
	var groups [][]string
	index := map[string]int{} // config → its group
	for _, c := range rs.Configs {
		if len(by[c]) >= 2 {
			index[c] = len(groups)
			var g []string
			for _, i := range by[c] {
				g = append(g, names[i])
			}
			groups = append(groups, g)
		}
	}
	if len(groups) == 0 {
		return nil
	}
	for _, c := range rs.Configs {
		if len(by[c]) != 1 {
			continue
		}
		one := rs.Rels[by[c][0]]
		k := -1
		for _, o := range rs.Configs {
			if _, big := index[o]; big && slices.ContainsFunc(by[o], func(i int) bool { return rs.Rels[i].Version.Compare(one.Version) == 0 }) {
				k = index[o]
				break
			}
		}
		if k < 0 {
			var ok bool
			if k, ok = index[rs.Main]; !ok {
				k = 0
			}
		}
		groups[k] = append(groups[k], one.Name)
	}
	if len(groups) < 2 {
		return nil
	}
	return groups
}
