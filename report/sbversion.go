package report

import (
	"sort"
	"strconv"
	"strings"

	"github.com/ibreport/ibreport/parse"
)

// dbmsVersion is the release a sysbench folder name carries, as the
// benchmark scripts name builds: x.pg1023_o2nofp.x10a_c32r128.pk1 is
// PostgreSQL 10.23, x.my8406v2_rel_o2nofp… MySQL 8.4.6 (a second build).
type dbmsVersion struct {
	engine string // the engine prefix: pg, my, ma, fbmy…
	parts  []int  // major, minor, patch as far as the name has them
	suffix string // what follows the digits in the token (v2, beta1)
}

// versionEngines are the name prefixes read as versions. Only these: a
// generic name such as run110 beside run1023 is not a release, and sorting
// it as 11.0 after 10.23 would surprise.
var versionEngines = map[string]bool{
	"pg": true, "postgres": true, "pgo": true,
	"my": true, "mysql": true, "fbmy": true, "ps": true,
	"ma": true, "maria": true, "mariadb": true,
}

// parseDBMSVersion reads the version of a folder name: an optional "x."
// prefix, then the first token (up to "_" or ".") made of an engine prefix
// of versionEngines, digits and an optional suffix starting with a letter.
// The digits: a leading 1 means a two-digit major (pg1023 = 10.23, pg110 =
// 11.0, pg176 = 17.6, ma100230 = 10.2.30: after a two-digit major, two
// digits are the minor, more are minor then patch); otherwise one digit is
// the major, the next the minor and the rest the patch (my5651 = 5.6.51,
// my9400 = 9.4.0, pg96 = 9.6).
func parseDBMSVersion(name string) (dbmsVersion, bool) {
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
		return dbmsVersion{}, false
	}
	if suffix != "" && !(suffix[0] >= 'a' && suffix[0] <= 'z') {
		return dbmsVersion{}, false
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
	v := dbmsVersion{engine: engine, suffix: suffix}
	for _, f := range fields {
		n, err := strconv.Atoi(f)
		if err != nil {
			return dbmsVersion{}, false
		}
		v.parts = append(v.parts, n)
	}
	return v, true
}

// String writes the version as a release number (10.23, 8.4.6v2).
func (v dbmsVersion) String() string {
	s := make([]string, len(v.parts))
	for i, p := range v.parts {
		s[i] = strconv.Itoa(p)
	}
	return strings.Join(s, ".") + v.suffix
}

// compare orders versions of one engine: by parts (18 before 18.0, so
// 18beta1 comes before the release), then the plain build before one with
// a suffix, suffixes in natural order.
func (v dbmsVersion) compare(w dbmsVersion) int {
	for i := 0; i < len(v.parts) && i < len(w.parts); i++ {
		if v.parts[i] != w.parts[i] {
			if v.parts[i] < w.parts[i] {
				return -1
			}
			return 1
		}
	}
	if len(v.parts) != len(w.parts) {
		if len(v.parts) < len(w.parts) {
			return -1
		}
		return 1
	}
	switch {
	case v.suffix == w.suffix:
		return 0
	case parse.NaturalLess(v.suffix, w.suffix):
		return -1
	}
	return 1
}

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
		if a.engine != b.engine {
			return parse.NaturalLess(a.engine, b.engine)
		}
		if c := a.compare(b); c != 0 {
			return c < 0
		}
		return parse.NaturalLess(dirs[i].Dir, dirs[j].Dir)
	})
	return true
}
