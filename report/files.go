package report

import "github.com/ibreport/ibreport/internal/fsout"

// File is one output file: a name relative to the output folder (Name)
// and its complete content (Data).
type File struct {
	Name string
	Data []byte
}

// filesOf converts the files of an in-memory set (internal/fsout, which
// writes them atomically) to the public type, sharing their data.
func filesOf(in []fsout.File) []File {
	if in == nil {
		return nil
	}
	out := make([]File, len(in))
	for i, f := range in {
		out[i] = File(f)
	}
	return out
}
