package report

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strconv"

	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/parse"
)

// ErrBadInput marks errors caused by the input (unreadable or inconsistent
// files, unknown names) rather than by the machine; the CLI exits 2 on them.
var ErrBadInput = errors.New("bad input")

type badInput struct{ err error }

func (e badInput) Error() string    { return e.err.Error() }
func (e badInput) Unwrap() []error  { return []error{e.err, ErrBadInput} }
func bad(err error) error           { return badInput{err} }
func badf(f string, a ...any) error { return badInput{fmt.Errorf(f, a...)} }

// Settings resolves metrics options: fields already set in opt win over the
// results folder's ibreport.settings file.
func Settings(fsys fs.FS, dir string, opt metrics.Options) (metrics.Options, error) {
	if opt.Cores < 0 {
		return opt, badf("cores must be positive")
	}
	set, err := parse.ReadSettings(fsys, dir)
	if err != nil {
		return opt, bad(err)
	}
	if opt.Cores == 0 && set["cores"] != "" {
		if opt.Cores, err = strconv.Atoi(set["cores"]); err != nil || opt.Cores < 1 {
			return opt, badf("%s: cores = %q is not a positive integer", path.Join(dir, parse.SettingsFile), set["cores"])
		}
	}
	if opt.PsUser == "" {
		opt.PsUser = set["ps-user"]
	}
	if opt.Device == "" {
		opt.Device = set["device"]
	}
	return opt, nil
}

// Results is one results folder, loaded: either raw DBMS trees with their
// computed steps, or an archived folder of mrg.<step> files.
type Results struct {
	Dir     string
	FS      fs.FS
	Options metrics.Options
	List    []Entry               // DBMS order and groups
	Trees   []*metrics.TreeResult // raw trees; nil for an archive
	Steps   []parse.Step          // archived steps; nil for raw trees
}

// Archived reports whether r is a folder of mrg.<step> files.
func (r *Results) Archived() bool { return r.Trees == nil }

// LoadOptions control Load.
type LoadOptions struct {
	Metrics  metrics.Options
	DBMSList string // file of DBMS names and groups; "" means all trees in name order
	// List is the DBMS list itself; it wins over DBMSList.
	List []Entry
}

// Load reads the results folder dir: the settings file, the DBMS list and
// every raw tree (computed), or, when dir holds no tree, its archived
// mrg.<step> files.
func Load(dir string, opt LoadOptions) (*Results, error) {
	return LoadFS(os.DirFS(dir), dir, opt)
}

// LoadFS is Load on the root of fsys; name is the folder's name in messages.
func LoadFS(fsys fs.FS, dir string, opt LoadOptions) (*Results, error) {
	mopt, err := Settings(fsys, ".", opt.Metrics)
	if err != nil {
		return nil, err
	}
	r := &Results{Dir: dir, FS: fsys, Options: mopt}
	trees, err := parse.ReadTree(fsys, ".")
	if err != nil {
		return nil, bad(err)
	}
	if len(trees) == 0 {
		if r.Steps, err = ArchivedSteps(fsys, "."); err != nil {
			return nil, bad(err)
		}
		if len(r.Steps) == 0 {
			return nil, badf("%s: no DBMS result trees and no mrg.<step> files", dir)
		}
		return r, nil
	}
	r.List = DefaultList(trees)
	if opt.List != nil {
		r.List = opt.List
	} else if opt.DBMSList != "" {
		f, err := os.Open(opt.DBMSList)
		if err != nil {
			return nil, bad(err)
		}
		r.List, err = ReadDBMSList(f, opt.DBMSList)
		f.Close()
		if err != nil {
			return nil, bad(err)
		}
	}
	for _, t := range trees {
		tr, err := metrics.ComputeTree(fsys, t, mopt)
		if err != nil {
			return nil, err
		}
		r.Trees = append(r.Trees, tr)
	}
	return r, nil
}

// Tables builds the text tables of r (see Tables and TablesFromArchive).
func (r *Results) Tables(some []string) ([]File, []string, error) {
	topt := TablesOptions{Metrics: r.Options, Some: some}
	if r.Archived() {
		return TablesFromArchive(r.FS, ".", r.Steps, topt)
	}
	files, warns, err := Tables(r.Trees, r.List, topt)
	if err != nil {
		return nil, nil, bad(err)
	}
	return files, warns, nil
}
