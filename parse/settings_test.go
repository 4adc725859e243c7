package parse_test

import (
	"errors"
	"io/fs"
	"maps"
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/ibreport/ibreport/parse"
)

func TestReadSettings(t *testing.T) {
	for _, tc := range []struct {
		name     string
		content  *string
		want     map[string]string
		wantErrs []string
	}{
		{name: "missing file", content: nil, want: map[string]string{}},
		{name: "empty file", content: ptr(""), want: map[string]string{}},
		{
			name:    "keys, comments, blanks, CRLF",
			content: ptr("# facts\r\ncores = 48\r\n\r\n  ps-user=mysql  \n device = nvme0n1\nempty =\nurl = a=b\ncores = 96\n"),
			want:    map[string]string{"cores": "96", "ps-user": "mysql", "device": "nvme0n1", "empty": "", "url": "a=b"},
		},
		{
			name:     "malformed lines",
			content:  ptr("cores = 2\njust words\n\n= x\nno equals either"),
			want:     map[string]string{"cores": "2", "": "x"},
			wantErrs: []string{"r/ibreport.settings:2: want key = value", "r/ibreport.settings:5: want key = value"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := fstest.MapFS{"r/2m.pg.c1/l.i0/o.res.dop1": &fstest.MapFile{Data: []byte("x")}}
			if tc.content != nil {
				m["r/"+parse.SettingsFile] = &fstest.MapFile{Data: []byte(*tc.content)}
			}
			got, err := parse.ReadSettings(m, "r")
			checkErrors(t, err, tc.wantErrs)
			if !maps.Equal(got, tc.want) {
				t.Errorf("settings = %v, want %v", got, tc.want)
			}
		})
	}
}

func ptr(s string) *string { return &s }

func TestReadSettingsExample(t *testing.T) {
	got, err := parse.ReadSettings(os.DirFS(exampleDir), ".")
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string]string{"cores": "2", "ps-user": "postgres", "device": "vda"}; !maps.Equal(got, want) {
		t.Errorf("settings = %v, want %v", got, want)
	}
}

func TestReadSettingsReadError(t *testing.T) {
	m := fstest.MapFS{"r/" + parse.SettingsFile: &fstest.MapFile{Data: []byte("a = b\n")}}
	got, err := parse.ReadSettings(failFS{MapFS: m, name: "r/" + parse.SettingsFile, openErr: fs.ErrPermission}, "r")
	if !errors.Is(err, fs.ErrPermission) || got != nil {
		t.Errorf("ReadSettings = %v, %v; want the open error", got, err)
	}
}

// TestRunNoiseKeys: the run-noise.<step>.<metric> keys of a settings set
// by test; other keys are left out, and a value that is no fraction above
// 0 and below 1, or a key without a test, is an error naming file and key.
func TestRunNoiseKeys(t *testing.T) {
	for _, tc := range []struct {
		name string
		set  map[string]string
		want map[string]float64
		err  string
	}{
		{"none", map[string]string{"cores": "48", "run-noise": "0.02"}, nil, ""},
		{"tests", map[string]string{"run-noise": "0.02", "run-noise.l.i0.ips": "0.015", "run-noise.scan.range100.dop40.qps": "0.0588"},
			map[string]float64{"l.i0.ips": 0.015, "scan.range100.dop40.qps": 0.0588}, ""},
		{"percent", map[string]string{"run-noise.l.i0.ips": "2"}, nil, `f/ibreport.settings: run-noise.l.i0.ips = "2": want a test`},
		{"zero", map[string]string{"run-noise.l.i0.ips": "0"}, nil, "run-noise.l.i0.ips"},
		{"NaN", map[string]string{"run-noise.l.i0.ips": "NaN"}, nil, "run-noise.l.i0.ips"},
		{"no test", map[string]string{"run-noise.": "0.01"}, nil, `run-noise. = "0.01"`},
		{"nil", nil, nil, ""},
	} {
		got, err := parse.RunNoiseKeys(tc.set, "f/ibreport.settings")
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s: error %v, want one with %q", tc.name, err, tc.err)
		case !maps.Equal(got, tc.want):
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}
