package parse_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"testing/fstest"

	"github.com/ibreport/ibreport/parse"
)

func TestReadSettingsChecked(t *testing.T) {
	const p = "r/" + parse.SettingsFile
	for _, tc := range []struct {
		name    string
		content string
		want    map[string]string
		warns   []string
		err     string
	}{
		{name: "known keys", content: "cores = 2\nps-user = mysql\ndevice = vda\nscan-gen = 3\nsb-engine = rocksdb\nsb-tag = x\ncollate = C\nrun-noise = 0.02\n",
			want: map[string]string{"cores": "2", "ps-user": "mysql", "device": "vda", "scan-gen": "3", "sb-engine": "rocksdb", "sb-tag": "x", "collate": "C", "run-noise": "0.02"}},
		{name: "byte order mark", content: "\ufeffcores = 2\n", want: map[string]string{"cores": "2"}},
		{name: "misspelt keys", content: "# facts\nps_user = mysql\nCores = 2\ndevise = vda\nsbtag = x\n",
			want: map[string]string{},
			warns: []string{p + ":2: ps_user: unknown key; did you mean ps-user?", p + ":3: Cores: unknown key; did you mean cores?",
				p + ":4: devise: unknown key; did you mean device?", p + ":5: sbtag: unknown key; did you mean sb-tag?"}},
		{name: "unknown key", content: "cores = 2\nwarehouses = 10\n", want: map[string]string{"cores": "2"},
			warns: []string{p + ":2: warehouses: unknown key; the keys are cores, ps-user, device, scan-gen, sb-engine, sb-tag, collate, run-noise, run-noise-df"}},
		{name: "unknown key with a control character", content: "a\x1b[31m = 1\n", want: map[string]string{},
			warns: []string{p + `:1: "a\x1b[31m": unknown key; the keys are cores, ps-user, device, scan-gen, sb-engine, sb-tag, collate, run-noise, run-noise-df`}},
		{name: "duplicate key", content: "cores = 2\ndevice = vda\n\ncores = 4\n", err: p + ":4: cores is set again; line 1 sets it already"},
		{name: "duplicate unknown key", content: "x = 2\nx = 4\n", err: p + ":2: x is set again; line 1 sets it already"},
		{name: "malformed line", content: "cores = 2\njust words\n", err: p + ":2: want key = value"},
		{name: "too large", content: "# " + strings.Repeat("x", 64<<10) + "\n", err: p + ": larger than 64 KiB; a settings file is a few lines"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := fstest.MapFS{p: &fstest.MapFile{Data: []byte(tc.content)}}
			got, warns, err := parse.ReadSettingsChecked(m, "r")
			if tc.err != "" {
				if err == nil || err.Error() != tc.err {
					t.Errorf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(warns, "\n") != strings.Join(tc.warns, "\n") {
				t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(warns, "\n"), strings.Join(tc.warns, "\n"))
			}
			if len(got) != len(tc.want) {
				t.Errorf("settings %v, want %v", got, tc.want)
			}
			for k, v := range tc.want {
				if got[k] != v {
					t.Errorf("%s = %q, want %q", k, got[k], v)
				}
			}
		})
	}
}

// A settings file that is a FIFO is refused, not opened.
func TestReadSettingsFIFO(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, parse.SettingsFile), 0o644); err != nil {
		t.Skip("no FIFO here:", err)
	}
	_, _, err := parse.ReadSettingsChecked(os.DirFS(dir), ".")
	if want := "ibreport.settings: a FIFO, not a regular file"; err == nil || err.Error() != want {
		t.Errorf("error %v, want %q", err, want)
	}
	if _, err := parse.ReadSettings(os.DirFS(dir), "."); !parse.IsNotRegular(err) {
		t.Errorf("ReadSettings: %v", err)
	}
}
