// Package fsout writes ibreport's outputs so that a run stopped at any
// point never leaves a partial file or folder behind.
//
// WriteFile writes one file through a temporary file renamed into place;
// the temporaries a killed run left are removed by the next write, those of
// live runs (they hold an flock) are not. OpenDir checks and locks an
// output folder before the run computes; Write then writes a set of files
// as a folder built beside the target and swapped in whole (renameat2
// RENAME_EXCHANGE on Linux), listing them in its Manifest so that a later
// run knows what of the folder is its own to replace: anything else in it
// makes the folder refused, never deleted. CheckOutputFile and OpenDir
// refuse an output path that would destroy something: a link, a device, a
// folder that is not a set, or anything the run reads, its inputs compared
// resolved and followed through the symbolic links inside them. Refusals
// wrap ErrRefused. CheckTag refuses a part of an output file's name (the
// sysbench tag) that could lead outside the output folder.
package fsout
