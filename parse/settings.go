package parse

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strconv"
	"strings"

	"github.com/ibreport/ibreport/internal/names"
)

// SettingsFile is the name of the optional settings file of a results
// folder. It holds "key = value" lines (# starts a comment) for facts the
// logs do not record, e.g.
//
//	cores = 48
//	ps-user = mysql
//	device = nvme0n1
const SettingsFile = "ibreport.settings"

// SettingsKeys are the keys a settings file may set.
var SettingsKeys = []string{"cores", "ps-user", "device", "scan-gen", "sb-engine", "sb-tag", "collate", "run-noise", RunNoiseDFKey}

// maxSettingsSize bounds the settings file: it holds a few lines, and a
// larger one (a log copied over it, a link to a device) is a mistake.
const maxSettingsSize = 64 << 10

// ReadSettings reads dir/ibreport.settings. A missing file gives an empty
// map. Every key is kept, a repeated one with its last value; see
// ReadSettingsChecked for the keys checked.
func ReadSettings(fsys fs.FS, dir string) (map[string]string, error) {
	fsys = orNoInput(fsys)
	out := map[string]string{}
	err := scanSettings(fsys, dir, func(k, v string, _ int) error {
		out[k] = v
		return nil
	})
	if err != nil && SyntaxErrors(err) == nil {
		return nil, err
	}
	return out, err
}

// ReadSettingsChecked reads dir/ibreport.settings like ReadSettings, with
// its keys checked: a key set twice is an error naming both lines (which
// value was meant cannot be told); a key that is not one of SettingsKeys is
// left out with a warning naming its file and line and, for a near miss,
// the key meant.
func ReadSettingsChecked(fsys fs.FS, dir string) (map[string]string, []string, error) {
	fsys = orNoInput(fsys)
	out := map[string]string{}
	lines := map[string]int{}
	var warns []string
	p := path.Join(dir, SettingsFile)
	err := scanSettings(fsys, dir, func(k, v string, n int) error {
		if first, ok := lines[k]; ok {
			return &SyntaxError{Pos{p, n}, fmt.Sprintf("%s is set again; line %d sets it already", names.Quoted(k), first)}
		}
		lines[k] = n
		if !known(k) {
			w := fmt.Sprintf("%s:%d: %s: unknown key", p, n, names.Quoted(k))
			if near := nearKey(k); near != "" {
				w += "; did you mean " + near + "?"
			} else {
				w += "; the keys are " + strings.Join(SettingsKeys, ", ")
			}
			warns = append(warns, w)
			return nil
		}
		out[k] = v
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return out, warns, nil
}

// scanSettings calls f with each key, value and line number of
// dir/ibreport.settings; an error of f stops the scan and is returned.
// Malformed lines are returned as an ErrorList after the scan.
func scanSettings(fsys fs.FS, dir string, f func(key, value string, line int) error) error {
	p := path.Join(dir, SettingsFile)
	file, err := OpenRegular(fsys, p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer file.Close()
	b, over, err := readAtMost(file, maxSettingsSize)
	if err != nil {
		return err
	}
	if over {
		return fmt.Errorf("%s: larger than %s; a settings file is a few lines", p, byteSize(maxSettingsSize))
	}
	// Editors on Windows start UTF-8 files with a byte order mark; it is
	// not part of the first key.
	text := strings.TrimPrefix(string(b), "\ufeff")
	var errs ErrorList
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			errs.add(p, i+1, "want key = value")
			continue
		}
		if err := f(strings.TrimSpace(k), strings.TrimSpace(v), i+1); err != nil {
			return err
		}
	}
	return errs.Err()
}

func known(key string) bool {
	// run-noise.<step>.<metric>: the run-to-run noise of one test.
	if t, ok := strings.CutPrefix(key, "run-noise."); ok && t != "" {
		return true
	}
	// describe.<code>: a build, config, host or build part in words.
	if t, ok := strings.CutPrefix(key, DescribePrefix); ok && t != "" {
		return true
	}
	for _, k := range SettingsKeys {
		if k == key {
			return true
		}
	}
	return false
}

// nearKey is the settings key that key misspells (another case, _ for -,
// a letter or two off), or "".
func nearKey(key string) string {
	norm := strings.ReplaceAll(strings.ToLower(key), "_", "-")
	best, bestDist := "", 3
	for _, k := range SettingsKeys {
		if norm == k {
			return k
		}
		if d := names.EditDistance(norm, k); d < bestDist {
			best, bestDist = k, d
		}
	}
	return best
}

// RunNoisePrefix starts the settings keys of the run-to-run noise of one
// test: run-noise.<step>.<metric> ("run-noise.l.i0.ips",
// "run-noise.point-query.range100.dop40.qps"), which `ibreport series
// --noise-settings` writes.
const RunNoisePrefix = "run-noise."

// DescribePrefix starts the settings keys that put a code of the DBMS
// names in words: describe.x10d = io_method=io_uring, describe.c32r128 =
// my.cnf for 32 CPUs and 128 GB, describe.x.pg180_o2nofp.x10d_c32r128.pk1
// = PostgreSQL 18.0 with io_uring. The outputs show each next to its code.
const DescribePrefix = "describe."

// Descriptions reads the describe.<code> keys of settings set: text by
// code. A text with a control character is an error naming the key.
func Descriptions(set map[string]string, file string) (map[string]string, error) {
	var out map[string]string
	for k, v := range set {
		code, ok := strings.CutPrefix(k, DescribePrefix)
		if !ok || code == "" {
			continue
		}
		if err := CheckName(v); err != nil {
			return nil, fmt.Errorf("%s: %s: %v", file, k, err)
		}
		if v == "" {
			return nil, fmt.Errorf("%s: %s is empty: want the code in words", file, k)
		}
		if out == nil {
			out = map[string]string{}
		}
		out[code] = v
	}
	return out, nil
}

// RunNoiseDFKey is the settings key of the shape of the run-to-run
// noise: the degrees of freedom of a Student t (heavy tails), which
// `ibreport series --noise-settings` learns; absent, the normal.
const RunNoiseDFKey = "run-noise-df"

// ValidRunNoiseDF says whether df is a shape of run-to-run noise: 0 (the
// normal) or degrees of freedom above 2 (a t with a standard deviation),
// at most 1000.
func ValidRunNoiseDF(df float64) bool {
	return df == 0 || df > 2 && df <= 1000
}

// RunNoiseDFOf reads the key run-noise-df of settings set, read from
// file: 0 when absent; a value ValidRunNoiseDF refuses is an error naming
// file and key.
func RunNoiseDFOf(set map[string]string, file string) (float64, error) {
	v, ok := set[RunNoiseDFKey]
	if !ok {
		return 0, nil
	}
	df, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil || !ValidRunNoiseDF(df) {
		return 0, fmt.Errorf("%s: %s = %q: want the degrees of freedom of the run-to-run noise's t, above 2 (3 for heavy tails), or 0 for the normal", file, RunNoiseDFKey, v)
	}
	return df, nil
}

// RunNoiseKeys reads the run-noise.<step>.<metric> keys of settings set,
// read from file: the relative standard deviation of one run of each
// test, by "<step>.<metric>"; nil without any. A value that is not a
// fraction above 0 and below 1, or a key that names no test, is an error
// naming file and key.
func RunNoiseKeys(set map[string]string, file string) (map[string]float64, error) {
	var out map[string]float64
	for k, v := range set {
		key, ok := strings.CutPrefix(k, RunNoisePrefix)
		if !ok {
			continue
		}
		r, err := strconv.ParseFloat(v, 64)
		if err != nil || !(r > 0 && r < 1) || key == "" {
			return nil, fmt.Errorf("%s: %s = %q: want a test (run-noise.<step>.<metric>) and a fraction above 0, below 1 (0.01 for 1%%)", file, k, v)
		}
		if out == nil {
			out = map[string]float64{}
		}
		out[key] = r
	}
	return out, nil
}
