package report

import (
	"regexp"
	"slices"
	"strings"
)

// release is what a build's folder name says in the benchmark scripts'
// naming: x.ma100230_rel_withdbg.z12a_c32r128.pk1 is MariaDB 10.2.30 built
// rel and withdbg, run with config z12a on a host of 32 CPUs and 128 GB
// (c32r128), sysbench with a primary key (pk1).
type release struct {
	name    string
	version dbmsVersion
	// flavour are the build parts (rel, withdbg, o2nofp, lto, pgo,
	// mdev16168, ahi1…): every part that is neither the version, the
	// config, the host nor the run's setup, in name order.
	flavour []string
	config  string // z12a, x10b, cx5: the DBMS's option file
	host    string // c32r128, c8r32
}

// reConfig is a config part (a letter or two, digits, an optional letter:
// z12a, x10b, cx5), reHost the host part (c32r128: CPUs and GB of RAM),
// reSetup a part naming the run's setup (pk1: sysbench tables with a
// primary key).
var (
	reConfig = regexp.MustCompile(`^[a-z]{1,2}[0-9]{1,3}[a-z]?$`)
	reHost   = regexp.MustCompile(`^c[0-9]+r[0-9]+$`)
	reSetup  = regexp.MustCompile(`^pk[0-9]$`)
)

// engineNames are the DBMS a version's engine prefix names.
var engineNames = map[string]string{
	"pg": "PostgreSQL", "postgres": "PostgreSQL", "pgo": "PostgreSQL",
	"my": "MySQL", "mysql": "MySQL", "fbmy": "FB MySQL", "ps": "Percona Server",
	"ma": "MariaDB", "maria": "MariaDB", "mariadb": "MariaDB",
}

// parseRelease reads a build's folder name; false when its first part is
// not a version (parseDBMSVersion). The config is the first part after the
// version's that reads as one and is not a known build part; a part after
// the config that is no host or setup is a flavour too (z12b_ahi1: config
// z12b with the ahi1 variant).
func parseRelease(name string) (release, bool) {
	v, ok := parseDBMSVersion(name)
	if !ok {
		return release{}, false
	}
	r := release{name: name, version: v}
	parts := strings.FieldsFunc(strings.TrimPrefix(name, "x."), func(c rune) bool { return c == '_' || c == '.' })
	for _, p := range parts[1:] {
		switch {
		case reHost.MatchString(p) && r.host == "":
			r.host = p
		case reSetup.MatchString(p):
		case r.config == "" && reConfig.MatchString(p) && !buildParts[p] && !reBuildPart.MatchString(p):
			r.config = p
		default:
			r.flavour = append(r.flavour, p)
		}
	}
	return r, true
}

// buildParts are build flavours that would read as configs; reBuildPart
// matches the others of that shape (mdev16168: a build with a fix, ahi1:
// the adaptive hash index on).
var (
	buildParts  = map[string]bool{"o2": true, "o3": true, "lto": true, "pgo": true, "rel": true, "dbg": true}
	reBuildPart = regexp.MustCompile(`^(mdev|bug|ahi|o)[0-9]+$`)
)

// dbms names the release's DBMS in words.
func (r release) dbms() string {
	if n := engineNames[r.version.engine]; n != "" {
		return n
	}
	return r.version.engine
}

// releaseSet is the DBMS of a report read as releases: every name parses,
// and they are of one engine.
type releaseSet struct {
	rels []release // in the report's order
	// configs are the configs in order of first use; main is the one most
	// members use (the first of those on a tie).
	configs []string
	main    string
	// commonFlavour are the flavour parts every release has: the name
	// says nothing by them.
	commonFlavour []string
}

// releasesOf reads names as one DBMS's releases; nil when one name is no
// version or two engines are in the list (two or three DBMS keep the
// pairwise findings).
func releasesOf(names []string) *releaseSet {
	if len(names) < 2 {
		return nil
	}
	s := &releaseSet{}
	count := map[string]int{}
	for _, n := range names {
		r, ok := parseRelease(n)
		if !ok || (len(s.rels) > 0 && r.version.engine != s.rels[0].version.engine) {
			return nil
		}
		s.rels = append(s.rels, r)
		if !slices.Contains(s.configs, r.config) {
			s.configs = append(s.configs, r.config)
		}
		count[r.config]++
	}
	for _, c := range s.configs {
		if count[c] > count[s.main] {
			s.main = c
		}
	}
	for _, f := range s.rels[0].flavour {
		if !slices.ContainsFunc(s.rels, func(r release) bool { return !slices.Contains(r.flavour, f) }) {
			s.commonFlavour = append(s.commonFlavour, f)
		}
	}
	return s
}

// extra are the flavour parts of r that not all releases share: a variant
// of its release (ahi1, mdev16168).
func (s *releaseSet) extra(r release) []string {
	var out []string
	for _, f := range r.flavour {
		if !slices.Contains(s.commonFlavour, f) {
			out = append(out, f)
		}
	}
	return out
}

// label is how the report names a release: its version, with its config
// when the set has more than one and its extra flavour ("10.5.6",
// "10.5.6 z12b", "12.1.1 z12b ahi1").
func (s *releaseSet) label(r release) string {
	out := r.version.String()
	if len(s.configs) > 1 && r.config != "" {
		out += " " + r.config
	}
	if e := s.extra(r); len(e) > 0 {
		out += " " + strings.Join(e, " ")
	}
	return out
}
