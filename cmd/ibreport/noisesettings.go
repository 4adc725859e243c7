package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/ibreport/ibreport/internal/fsout"
	"github.com/ibreport/ibreport/report"
)

// maxNoiseSettings bounds the settings file --noise-settings rewrites: a
// settings file is a few lines (parse's own limit is the same).
const maxNoiseSettings = 64 << 10

// checkNoiseSettings refuses, before any work, a --noise-settings file
// that is not a regular file or a new one in an existing folder.
func checkNoiseSettings(file string) error {
	if err := fsout.CheckOutputFile(file); err != nil {
		return usageError{fmt.Errorf("--noise-settings: %w", err)}
	}
	if err := fsout.CheckOutputFolder(file); err != nil {
		return fmt.Errorf("--noise-settings: %w", err)
	}
	return nil
}

// writeNoiseSettings writes the run-to-run noise the series learned per
// test into the settings file, atomically, keeping its other lines. A
// series that learned none is bad input: a baseline with no keys would
// gate as before, silently.
func writeNoiseSettings(e *env, file string, rep *report.Report, sets []report.ResultSet) error {
	pooled := report.PooledNoise(rep.LearnedNoise)
	if len(pooled) == 0 {
		why := "no test has a value in two or more of them"
		for _, l := range rep.LearnedNoise {
			if l.Why != "" {
				why = "for example " + l.Series + " " + l.Test + ": " + l.Why
				break
			}
		}
		return fmt.Errorf("%w: --noise-settings: the %d result sets learned no test's run-to-run noise (it needs at least 5 runs of a level after its last change point); %s", report.ErrBadInput, len(sets), why)
	}
	old, err := readSmall(file)
	if err != nil {
		return fmt.Errorf("--noise-settings: %w", err)
	}
	from := fmt.Sprintf("%d result sets, %s … %s", len(sets), sets[0].Name, sets[len(sets)-1].Name)
	data := report.NoiseSettings(old, pooled, rep.NoiseShape, from)
	if err := e.write(func() error { return fsout.WriteFileContext(e.ctx, file, data) }); err != nil {
		return err
	}
	fmt.Fprintf(e.stderr, "noise settings: %d tests' run-to-run noise written to %s\n", len(pooled), printable(file, false))
	return nil
}

// readSmall reads a settings file that may not exist yet.
func readSmall(file string) ([]byte, error) {
	b, err := os.ReadFile(file)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case err != nil:
		return nil, err
	case len(b) > maxNoiseSettings:
		return nil, fmt.Errorf("%s: larger than %d KiB; a settings file is a few lines", file, maxNoiseSettings>>10)
	case strings.ContainsRune(string(b), 0):
		return nil, fmt.Errorf("%s: not a text file", file)
	}
	return b, nil
}
