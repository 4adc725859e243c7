package parse

import (
	"errors"
	"io/fs"
	"path"
	"strings"
)

// SettingsFile is the name of the optional settings file of a results
// folder. It holds "key = value" lines (# starts a comment) for facts the
// logs do not record, e.g.
//
//	cores = 48
//	ps-user = mysql
//	device = nvme0n1
const SettingsFile = "ibreport.settings"

// ReadSettings reads dir/ibreport.settings. A missing file gives an empty map.
func ReadSettings(fsys fs.FS, dir string) (map[string]string, error) {
	p := path.Join(dir, SettingsFile)
	b, err := fs.ReadFile(fsys, p)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]string{}, nil
	}
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	var errs ErrorList
	for i, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			errs.add(p, i+1, "want key = value")
			continue
		}
		out[strings.TrimSpace(k)] = strings.TrimSpace(v)
	}
	return out, errs.Err()
}
