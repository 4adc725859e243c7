package report

import "github.com/ibreport/ibreport/internal/fsout"

// File is one output file: a name relative to the output folder (Name)
// and its complete content (Data).
type File = fsout.File
