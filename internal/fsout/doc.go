// Package fsout writes ibreport's outputs so that a run stopped at any
// point never leaves a partial file or folder behind.
//
// WriteFile writes one file through a temporary file renamed into place;
// WriteFiles writes a set of files as a folder built beside the target and
// swapped in whole (renameat2 RENAME_EXCHANGE on Linux), listing them in
// its Manifest so that a later run knows the folder is its own to replace.
// CheckOutputFile refuses an output path that would destroy something: a
// link, a device, a folder, or a file among the run's inputs.
package fsout
