package relname

import (
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/ibreport/ibreport/internal/names"
)

// Version is the release a sysbench folder name carries, as the
// benchmark scripts name builds: x.pg1023_o2nofp.x10a_c32r128.pk1 is
// PostgreSQL 10.23, x.my8406v2_rel_o2nofp… MySQL 8.4.6 (a second build).
type Version struct {
	Engine string // the engine prefix: pg, my, ma, fbmy…
	Parts  []int  // major, minor, patch as far as the name has them
	Suffix string // what follows the digits in the token (v2, beta1)
}

// versionEngines are the name prefixes read as versions. Only these: a
// generic name such as run110 beside run1023 is not a Release, and sorting
// it as 11.0 after 10.23 would surprise.
var versionEngines = map[string]bool{
	"pg": true, "postgres": true, "pgo": true,
	"my": true, "mysql": true, "fbmy": true, "ps": true,
	"ma": true, "maria": true, "mariadb": true,
}

// ParseVersion reads the version of a folder name: an optional "x."
// prefix, then the first token (up to "_" or ".") made of an engine prefix
// of versionEngines, digits and an optional suffix starting with a letter.
// The digits: a leading 1 means a two-digit major (pg1023 = 10.23, pg110 =
// 11.0, pg176 = 17.6, ma100230 = 10.2.30: after a two-digit major, two
// digits are the minor, more are minor then patch); otherwise one digit is
// the major, the next the minor and the rest the patch (my5651 = 5.6.51,
// my9400 = 9.4.0, pg96 = 9.6).
func ParseVersion(name string) (Version, bool) {
	name = strings.TrimPrefix(name, "x.")
	if i := strings.IndexAny(name, "_."); i >= 0 {
		name = name[:i]
	}
	i := 0
	for i < len(name) && name[i] >= 'a' && name[i] <= 'z' {
		i++
	}
	engine, rest := name[:i], name[i:]
	j := 0
	for j < len(rest) && rest[j] >= '0' && rest[j] <= '9' {
		j++
	}
	digits, suffix := rest[:j], rest[j:]
	if !versionEngines[engine] || digits == "" || len(digits) > 9 {
		return Version{}, false
	}
	if suffix != "" && !(suffix[0] >= 'a' && suffix[0] <= 'z') {
		return Version{}, false
	}
	var fields []string
	if digits[0] == '1' && len(digits) >= 2 {
		fields = append(fields, digits[:2])
		if r := digits[2:]; len(r) > 2 {
			fields = append(fields, r[:2], r[2:])
		} else if r != "" {
			fields = append(fields, r)
		}
	} else {
		fields = append(fields, digits[:1])
		if len(digits) > 1 {
			fields = append(fields, digits[1:2])
		}
		if len(digits) > 2 {
			fields = append(fields, digits[2:])
		}
	}
	v := Version{Engine: engine, Suffix: suffix}
	for _, f := range fields {
		n, err := strconv.Atoi(f)
		if err != nil {
			return Version{}, false
		}
		v.Parts = append(v.Parts, n)
	}
	return v, true
}

// String writes the version as a release number (10.23, 8.4.6v2).
func (v Version) String() string {
	s := make([]string, len(v.Parts))
	for i, p := range v.Parts {
		s[i] = strconv.Itoa(p)
	}
	return strings.Join(s, ".") + v.Suffix
}

// Compare orders versions of one engine: by parts (18 before 18.0, so
// 18beta1 comes before the Release), then the plain build before one with
// a suffix, suffixes in natural order.
func (v Version) Compare(w Version) int {
	for i := 0; i < len(v.Parts) && i < len(w.Parts); i++ {
		if v.Parts[i] != w.Parts[i] {
			if v.Parts[i] < w.Parts[i] {
				return -1
			}
			return 1
		}
	}
	if len(v.Parts) != len(w.Parts) {
		if len(v.Parts) < len(w.Parts) {
			return -1
		}
		return 1
	}
	switch {
	case v.Suffix == w.Suffix:
		return 0
	case names.NaturalLess(v.Suffix, w.Suffix):
		return -1
	}
	return 1
}

// Release is what a build's folder name says in the benchmark scripts'
// naming: x.ma100230_rel_withdbg.z12a_c32r128.pk1 is MariaDB 10.2.30 built
// rel and withdbg, run with config z12a on a host of 32 CPUs and 128 GB
// (c32r128), sysbench with a primary key (pk1).
type Release struct {
	Name    string
	Version Version
	// Flavour are the build parts (rel, withdbg, o2nofp, lto, pgo,
	// mdev16168, ahi1…): every part that is neither the version, the
	// config, the host nor the run's setup, in name order.
	Flavour []string
	Config  string // z12a, x10b, cx5: the DBMS's option file
	Host    string // c32r128, c8r32
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

// Parse reads a build's folder name; false when its first part is
// not a version (ParseVersion). The config is the first part after the
// version's that reads as one and is not a known build part; a part after
// the config that is no host or setup is a flavour too (z12b_ahi1: config
// z12b with the ahi1 variant).
func Parse(name string) (Release, bool) {
	v, ok := ParseVersion(name)
	if !ok {
		return Release{}, false
	}
	r := Release{Name: name, Version: v}
	parts := strings.FieldsFunc(strings.TrimPrefix(name, "x."), func(c rune) bool { return c == '_' || c == '.' })
	for _, p := range parts[1:] {
		switch {
		case reHost.MatchString(p) && r.Host == "":
			r.Host = p
		case reSetup.MatchString(p):
		case r.Config == "" && reConfig.MatchString(p) && !buildParts[p] && !reBuildPart.MatchString(p):
			r.Config = p
		default:
			r.Flavour = append(r.Flavour, p)
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

// DBMS names the release's DBMS in words.
func (r Release) DBMS() string {
	if n := engineNames[r.Version.Engine]; n != "" {
		return n
	}
	return r.Version.Engine
}

// Set is the DBMS of a report read as releases: every name parses,
// and they are of one engine.
type Set struct {
	Rels []Release // in the given order
	// Configs are the configs in order of first use; Main is the one most
	// members use (the first of those on a tie).
	Configs []string
	Main    string
	// CommonFlavour are the flavour parts every release has: the name
	// says nothing by them.
	CommonFlavour []string
}

// Of reads names as one DBMS's releases; nil when one name is no
// version or two engines are in the list (two or three DBMS keep the
// pairwise findings).
func Of(names []string) *Set {
	if len(names) < 2 {
		return nil
	}
	s := &Set{}
	count := map[string]int{}
	for _, n := range names {
		r, ok := Parse(n)
		if !ok || (len(s.Rels) > 0 && r.Version.Engine != s.Rels[0].Version.Engine) {
			return nil
		}
		s.Rels = append(s.Rels, r)
		if !slices.Contains(s.Configs, r.Config) {
			s.Configs = append(s.Configs, r.Config)
		}
		count[r.Config]++
	}
	for _, c := range s.Configs {
		if count[c] > count[s.Main] {
			s.Main = c
		}
	}
	for _, f := range s.Rels[0].Flavour {
		if !slices.ContainsFunc(s.Rels, func(r Release) bool { return !slices.Contains(r.Flavour, f) }) {
			s.CommonFlavour = append(s.CommonFlavour, f)
		}
	}
	return s
}

// Extra are the flavour parts of r that not all releases share: a variant
// of its release (ahi1, mdev16168).
func (s *Set) Extra(r Release) []string {
	var out []string
	for _, f := range r.Flavour {
		if !slices.Contains(s.CommonFlavour, f) {
			out = append(out, f)
		}
	}
	return out
}

// Label is how the report names a release: its version, with its config
// when the set has more than one and its extra flavour ("10.5.6",
// "10.5.6 z12b", "12.1.1 z12b ahi1").
func (s *Set) Label(r Release) string {
	out := r.Version.String()
	if len(s.Configs) > 1 && r.Config != "" {
		out += " " + r.Config
	}
	if e := s.Extra(r); len(e) > 0 {
		out += " " + strings.Join(e, " ")
	}
	return out
}
