package parse_test

import (
	"errors"
	"io/fs"
	"maps"
	"os"
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
