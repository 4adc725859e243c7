package report

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/ibreport/ibreport/internal/compat"
	"github.com/ibreport/ibreport/internal/fsout"
	"github.com/ibreport/ibreport/internal/inputerr"
	"github.com/ibreport/ibreport/internal/names"
	"github.com/ibreport/ibreport/internal/osfs"
	"github.com/ibreport/ibreport/internal/sbsum"
	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/parse"
)

// ErrBadInput marks errors caused by the input (unreadable or inconsistent
// files, unknown names) rather than by the machine; the CLI exits 2 on them.
// errors.Is finds it in such errors of every package of ibreport.
var ErrBadInput = inputerr.ErrBadInput

// settings is a results folder's ibreport.settings file, read once: its
// values by key and the warnings of its keys (unknown ones).
type settings struct {
	values   map[string]string
	warnings []metrics.Warning
}

// resolveSettings resolves metrics options: fields already set in opt win
// over the results folder's ibreport.settings file, which it returns for
// the sysbench options (resolveSysbenchSettings).
func resolveSettings(fsys fs.FS, dir string, opt metrics.Options) (metrics.Options, settings, error) {
	if opt.Cores < 0 {
		return opt, settings{}, inputerr.Errorf("cores must be positive")
	}
	if err := opt.Stall.Check(); err != nil {
		return opt, settings{}, inputerr.Wrap(err)
	}
	if r := opt.RunNoise; r != 0 && !(r > 0 && r < 1) {
		return opt, settings{}, inputerr.Errorf("run noise %g: want a fraction above 0, below 1", r)
	}
	if p := opt.SeriesPoints; p < 0 || p == 1 {
		return opt, settings{}, inputerr.Errorf("series points %d: want at least 2 (0: %d)", p, metrics.MaxSeriesPoints)
	}
	set, warns, err := parse.ReadSettingsChecked(fsys, dir)
	if err != nil {
		return opt, settings{}, inputerr.Wrap(err)
	}
	opt, err = applySettings(set, dir, opt)
	return opt, settings{set, settingsWarnings(path.Join(dir, parse.SettingsFile), warns)}, err
}

// settingsWarnings types the warnings of the settings file file, each
// "file:line: …".
func settingsWarnings(file string, warns []string) []metrics.Warning {
	out := metrics.TextWarnings(warns)
	for i := range out {
		out[i].File = file
		if rest, ok := strings.CutPrefix(out[i].Text, file+":"); ok {
			n, _, _ := strings.Cut(rest, ":")
			out[i].Line, _ = strconv.Atoi(n)
		}
	}
	return out
}

// applySettings fills the fields opt leaves unset from the settings set.
func applySettings(set map[string]string, dir string, opt metrics.Options) (metrics.Options, error) {
	var err error
	if opt.Cores == 0 && set["cores"] != "" {
		if opt.Cores, err = strconv.Atoi(set["cores"]); err != nil || opt.Cores < 1 {
			return opt, inputerr.Errorf("%s: cores = %q is not a positive integer", path.Join(dir, parse.SettingsFile), set["cores"])
		}
	}
	if opt.PsUser == "" {
		opt.PsUser = set["ps-user"]
	}
	if opt.Device == "" {
		opt.Device = set["device"]
	}
	if opt.ScanGen == 0 && set["scan-gen"] != "" {
		if opt.ScanGen, err = strconv.Atoi(set["scan-gen"]); err != nil || opt.ScanGen < 1 || opt.ScanGen > metrics.ScanGenRowsPerLatency {
			return opt, inputerr.Errorf("%s: scan-gen = %q: want 1, 2 or 3", path.Join(dir, parse.SettingsFile), set["scan-gen"])
		}
	}
	if opt.Engine == "" {
		opt.Engine = set["sb-engine"]
	}
	if opt.RunNoise == 0 && set["run-noise"] != "" {
		if opt.RunNoise, err = strconv.ParseFloat(set["run-noise"], 64); err != nil || !(opt.RunNoise > 0 && opt.RunNoise < 1) {
			return opt, inputerr.Errorf("%s: run-noise = %q: want a fraction above 0, below 1 (0.01 for 1%%)", path.Join(dir, parse.SettingsFile), set["run-noise"])
		}
	}
	return opt, nil
}

// resolveSysbenchSettings resolves the sysbench options of the results
// folder's settings file set, in dir (keys sb-tag and collate): fields
// already set in so win. The tag and the collation are checked; shown is
// the results folder as the user named it, for the messages.
func resolveSysbenchSettings(set map[string]string, dir, shown string, so SysbenchOptions) (SysbenchOptions, error) {
	// The tag names output files: it is checked before anything is
	// computed, not when the summaries are written.
	if so.Tag != "" {
		if err := fsout.CheckTag(so.Tag); err != nil {
			return so, inputerr.Errorf("sysbench %v", err)
		}
	} else if so.Tag = set["sb-tag"]; so.Tag != "" {
		if err := fsout.CheckTag(so.Tag); err != nil {
			return so, inputerr.Errorf("%s: sb-tag = %q: %v", filepath.Join(shown, dir, parse.SettingsFile), so.Tag, err)
		}
	}
	if so.Collate == "" {
		so.Collate = set["collate"]
	}
	if _, err := compat.ParseCollation(cmp.Or(so.Collate, "en_US")); err != nil {
		return so, inputerr.Wrap(err)
	}
	return so, nil
}

// Results is one results folder, loaded: raw insert-benchmark trees with
// their computed steps, sysbench result folders with their computed runs
// (a folder may hold both kinds), or an archived folder of mrg.<step> files.
type Results struct {
	Dir     string
	FS      fs.FS
	Options metrics.Options
	List    []Entry               // DBMS order and groups of the trees
	Trees   []*metrics.TreeResult // raw trees; nil when there is none
	archive *archive              // archived mrg tables; nil for raw results
	// Sysbench holds the sysbench folders, in list order; nil when there
	// is none.
	Sysbench        *metrics.SysbenchSet
	SysbenchOptions SysbenchOptions
	// sysbenchCompat is the compat edge's computation of Sysbench, in
	// compat mode.
	sysbenchCompat *compat.Sysbench
	// ScanGen is the sysbench scan row-rate generation used and how it was
	// chosen (given, or inferred from the archived rates); zero without
	// sysbench folders.
	ScanGen ScanGenChoice
	// Devices are the block devices whose iostat rows the hardware columns
	// use, with the runs (sysbench) or steps (insert benchmark) that use
	// each, the most used first. One entry is the usual case; more mean the
	// choice differed between runs.
	Devices []DeviceUse
	// settingsWarnings are those of the settings file (unknown keys),
	// first among the warnings of Load, Tables and Build.
	settingsWarnings []metrics.Warning
	// setupNotes name the scan generation (when not the current one) and
	// the device chosen, mostly as information; they close the notes of
	// Load and Tables, so that stderr and the report's notes say them.
	setupNotes []metrics.Warning
	// sbConfigGroups: the sysbench groups are the configs of a release
	// archive (configGroups), not the user's.
	sbConfigGroups bool
	// testNoise is the run-to-run noise of one run per test of the
	// settings (keys run-noise.<step>.<metric>, by "<step>.<metric>"),
	// which the within-noise rule takes for that test's cells.
	testNoise map[string]float64
	// noPoints: loaded with LoadOptions.NoIntervalPoints.
	noPoints bool
	// descriptions are the describe.<code> keys of the settings: a
	// build, config, host or build part in words, by code.
	descriptions map[string]string
	// Summary is the set of the folder's summary tables that Sysbench
	// holds, or whose builds chose its result folders; nil when the
	// folder has no summary tables or a DBMS list chose the folders.
	Summary *SummaryChoice
	// Hosts are, for a folder whose sub-folders hold the same builds'
	// summary tables (one per host, thread count or run), each
	// sub-folder's results; the folder's own Sysbench is then nil and
	// Build compares them (Report.Hosts). Nil otherwise.
	Hosts []*Results
	// hostsLeft are the sub-folders with summary tables not compared, each
	// with why.
	hostsLeft []string
	// crossNames are, for a host of Hosts, its builds by their names
	// across hosts (crossNames).
	crossNames map[string]string
}

// errNilResults is the error of a method or function given nil *Results.
var errNilResults = inputerr.Errorf("no results (nil *Results)")

// Tree returns the computed tree of a DBMS by its folder name
// ("2m.pg15.c1") or by the name the outputs show ("pg15.c1", see Tag), or
// nil; FindTree says which names there are.
func (r *Results) Tree(name string) *metrics.TreeResult {
	t, _ := r.FindTree(name)
	return t
}

// FindTree is Tree with an error, when no tree has the name, that lists
// the names the outputs show.
func (r *Results) FindTree(name string) (*metrics.TreeResult, error) {
	if r == nil {
		return nil, errNilResults
	}
	for _, t := range r.Trees {
		if t.Name() == name {
			return t, nil
		}
	}
	var names []string
	for _, t := range r.Trees {
		tag := r.Tag(t.Name())
		if tag == name {
			return t, nil
		}
		names = append(names, tag)
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("no DBMS %q: the results have no insert-benchmark trees", name)
	}
	return nil, fmt.Errorf("no DBMS %q: the DBMS are %s", name, strings.Join(names, ", "))
}

// Archived reports whether r is a folder of mrg.<step> files.
func (r *Results) Archived() bool {
	if r == nil {
		return false
	}
	return r.archive != nil
}

// LoadOptions control Load.
type LoadOptions struct {
	Metrics  metrics.Options
	DBMSList string // file of DBMS names and groups; "" means all trees in name order
	// List is the DBMS list itself; it wins over DBMSList.
	List []Entry
	// Sysbench names the summary files and may carry user groups and
	// extra columns; SysbenchGroups and SysbenchExtra are files to read
	// into it ("" for none).
	Sysbench       SysbenchOptions
	SysbenchGroups string
	SysbenchExtra  string
	// Progress, when not nil, counts the files and bytes read as they are.
	Progress *Progress
	// NoIntervalPoints is for a report that draws no charts (Markdown and
	// text, see render.DrawsCharts): the per-interval series of each step
	// keep 2 points (Metrics.SeriesPoints, unless set), and the report
	// Build makes of the results has its per-interval line charts without
	// points. Which charts there are, their marks and notes, and every
	// table and finding are the same. Those points are the largest part of
	// a report: up to 1,200 a line, a line per DBMS, step and metric.
	NoIntervalPoints bool
}

// Load reads the results folder dir: the settings file, the DBMS list, every
// raw insert-benchmark tree and every sysbench folder (computed), or, when
// dir holds neither, its archived mrg.<step> files. It returns the warnings
// met on the way (Results.Warnings): each value that is NA and why, missing
// steps, skipped lines, each naming its file. Build repeats them in the
// report's notes; Results.Notes has them typed.
func Load(dir string, opt LoadOptions) (*Results, []string, error) {
	st, err := os.Stat(dir)
	switch {
	case err != nil:
		return nil, nil, inputerr.Wrap(err) // names the path
	case !st.IsDir():
		return nil, nil, inputerr.Errorf("%s is not a folder of results", names.Quoted(dir))
	}
	// Compressed files and archives of DBMS folders read as unpacked.
	return LoadFS(parse.Packed(osfs.Dir(dir)), dir, opt)
}

// LoadFS is Load on the root of fsys; dir is the folder's name in messages.
func LoadFS(fsys fs.FS, dir string, opt LoadOptions) (*Results, []string, error) {
	r, err := load(fsys, dir, opt)
	if err != nil {
		return nil, nil, err
	}
	return r, r.Warnings(), nil
}

// Warnings are the texts of the warnings of Notes, the information left
// out.
func (r *Results) Warnings() []string {
	return warningTexts(r.Notes())
}

// Notes are the warnings met reading the results, typed: those of the
// settings file; for the insert benchmark every NA value and why, missing
// steps and the warnings of each step (StepResult.Warnings); for sysbench
// those of each run; then the block device and scan generation chosen
// (metrics.Information, unless the choice is doubtful). An archived folder
// has none until its tables are built.
func (r *Results) Notes() []metrics.Warning {
	if r == nil {
		return nil
	}
	warns := append([]metrics.Warning(nil), r.settingsWarnings...)
	if len(r.Trees) > 0 {
		warns = append(warns, treeWarnings(r.Trees, unionSteps(r.Trees), r.Options.Compat)...)
	}
	if r.Sysbench != nil {
		warns = append(warns, sysbenchWarnings(r)...)
	}
	return append(warns, r.setupNotes...)
}

// load is LoadFS without the warnings.
func load(fsys fs.FS, dir string, opt LoadOptions) (*Results, error) {
	if fsys == nil {
		return nil, inputerr.Errorf("%s: no folder to read (a nil fs.FS)", names.Quoted(dir))
	}
	packed := fsys
	fsys = limitFS{fsys}
	if opt.Progress != nil {
		fsys = countingFS{fsys, opt.Progress}
	}
	if opt.NoIntervalPoints && opt.Metrics.SeriesPoints == 0 {
		opt.Metrics.SeriesPoints = 2 // the lowest and highest value: zero throughout or not
	}
	mopt, set, err := resolveSettings(fsys, ".", opt.Metrics)
	if err != nil {
		return nil, err
	}
	if mopt.ScanGen < 0 || mopt.ScanGen > metrics.ScanGenRowsPerLatency {
		return nil, inputerr.Errorf("scan generation %d: want 1, 2 or 3", mopt.ScanGen)
	}
	sopt, err := resolveSysbenchSettings(set.values, ".", dir, opt.Sysbench)
	if err != nil {
		return nil, err
	}
	r := &Results{Dir: dir, FS: fsys, Options: mopt, SysbenchOptions: sopt, settingsWarnings: set.warnings, noPoints: opt.NoIntervalPoints}
	if r.testNoise, err = settingsTestNoise(set.values, dir); err != nil {
		return nil, err
	}
	if r.descriptions, err = parse.Descriptions(set.values, path.Join(dir, parse.SettingsFile)); err != nil {
		return nil, inputerr.Wrap(err)
	}
	trees, err := parse.ReadTree(fsys, ".")
	if err != nil {
		return nil, inputerr.Wrap(err)
	}
	for _, t := range trees {
		if err := t.CheckSteps(); err != nil {
			return nil, inputerr.Wrap(err)
		}
	}
	sbDirs, err := parse.FindSysbenchDirs(fsys, ".")
	if err != nil {
		return nil, inputerr.Wrap(err)
	}
	if len(trees) == 0 && len(sbDirs) == 0 {
		steps, err := archivedSteps(fsys, ".")
		if err != nil {
			return nil, inputerr.Wrap(err)
		}
		if len(steps) == 0 {
			if err := r.loadSummaries(fsys, dir, opt); err != nil {
				return nil, err
			}
			return r, nil
		}
		if r.archive, err = readArchive(fsys, ".", steps, mopt.Compat); errors.Is(err, errNoRegularTable) {
			return nil, inputerr.Errorf("%s: %w", names.Quoted(dir), err)
		} else if err != nil {
			return nil, inputerr.Wrap(err)
		}
		return r, nil
	}
	if r.Trees, err = computeTrees(fsys, trees, mopt); err != nil {
		return nil, err
	}
	if err := sweepNames(r.Trees); err != nil {
		return nil, inputerr.Wrap(err)
	}
	r.List = defaultList(trees)
	var sbGroups [][]string
	if opt.List != nil {
		r.List = opt.List
		// Its sysbench names order those folders and make their groups.
		var rest []Entry
		if sbDirs, sbGroups, rest, err = orderSysbench(sbDirs, opt.List); err != nil {
			return nil, inputerr.Wrap(err)
		}
		if len(trees) == 0 {
			if err := unknownSysbenchNames(rest); err != nil {
				return nil, inputerr.Wrap(err)
			}
		}
	} else if opt.DBMSList != "" {
		list, err := readUserFile(opt.DBMSList, dbmsListFile, readDBMSList)
		if err != nil {
			return nil, err
		}
		// Names of sysbench folders order those; the rest is the tree list.
		var rest []Entry
		if sbDirs, sbGroups, rest, err = orderSysbench(sbDirs, list); err != nil {
			return nil, inputerr.Wrap(err)
		}
		if len(trees) == 0 {
			if err := unknownSysbenchNames(rest); err != nil {
				return nil, inputerr.Wrap(err)
			}
		}
		if firstName(rest) != "" || len(sbDirs) == 0 {
			r.List = rest
		}
	} else {
		// Without a list the base is the oldest release the names carry
		// (pg1023 before pg110), else the first in natural order; a set
		// named with --set orders its folders itself (chooseSetFolders).
		versionOrder(sbDirs)
	}
	if len(sbDirs) > 0 && opt.List == nil && opt.DBMSList == "" {
		// The author's sets choose and order the folders.
		if sbDirs, err = r.chooseSetFolders(fsys, dir, sbDirs); err != nil {
			return nil, err
		}
	}
	if len(sbDirs) > 0 {
		r.ScanGen = ScanGenChoice{Gen: mopt.ScanGen, Source: "option"}
		if opt.Metrics.ScanGen == 0 && mopt.ScanGen != 0 {
			r.ScanGen.Source = "settings"
		}
		if mopt.ScanGen == 0 {
			r.ScanGen = inferScanGen(fsys, sbDirs)
			mopt.ScanGen = r.ScanGen.Gen
			r.Options = mopt
			if r.ScanGen.Gen != metrics.ScanGenRowsPerLatency {
				// Named when it is not the current one, which a reader
				// would assume.
				r.setupNotes = append(r.setupNotes, metrics.Warning{Kind: metrics.Information, Text: r.ScanGen.note()})
			}
		}
		if err := readSysbenchUser(&r.SysbenchOptions, opt); err != nil {
			return nil, err
		}
		if mopt.Compat {
			if r.sysbenchCompat, err = compat.ComputeSysbench(fsys, sbDirs, mopt); err != nil {
				return nil, err
			}
			r.Sysbench = r.sysbenchCompat.Set
		} else if r.Sysbench, err = metrics.ComputeSysbench(fsys, sbDirs, mopt); err != nil {
			return nil, err
		}
		if sbGroups == nil && opt.List == nil && opt.DBMSList == "" && !mopt.Compat && r.Summary == nil {
			// A release archive of several configs: each config's
			// builds against that config's first release.
			sbGroups = configGroups(r.Sysbench.Names())
			r.sbConfigGroups = sbGroups != nil
		}
		if err := r.Sysbench.SetGroups(sbGroups); err != nil {
			return nil, inputerr.Wrap(err)
		}
	}
	r.Devices = devicesUsed(r)
	deviceFrom := "--device"
	if opt.Metrics.Device == "" {
		deviceFrom = parse.SettingsFile
	}
	r.setupNotes = append(r.setupNotes, deviceNotes(r.Devices, mopt.Device, deviceFrom)...)
	r.settingsWarnings = append(r.settingsWarnings, metrics.TextWarnings(parse.PackedWarnings(packed))...)
	return r, nil
}

// orderSysbench puts the sysbench folders named in the list first, in list
// order (the first is the base), followed by the unnamed ones only when the
// list names none; it returns the names of each group of the list ("-" or
// BREAK start one, whose first DBMS is its base; nil for a single group)
// and the entries that name no sysbench folder. A folder named in several
// groups is computed once.
func orderSysbench(dirs []*parse.SysbenchDir, list []Entry) ([]*parse.SysbenchDir, [][]string, []Entry, error) {
	byName := map[string]*parse.SysbenchDir{}
	for _, d := range dirs {
		if byName[d.Name] != nil {
			return nil, nil, nil, fmt.Errorf("two sysbench folders named %s (%s and %s); list them from a folder where names are unique", d.Name, byName[d.Name].Dir, d.Dir)
		}
		byName[d.Name] = d
	}
	var out []*parse.SysbenchDir
	var rest []Entry
	groups := [][]string{nil}
	seen := map[string]bool{}
	for _, e := range list {
		d := byName[e.Name]
		if e.Break || d == nil {
			rest = append(rest, e)
		}
		switch {
		case e.Break:
			if len(groups[len(groups)-1]) > 0 {
				groups = append(groups, nil)
			}
		case d == nil:
		default:
			groups[len(groups)-1] = append(groups[len(groups)-1], e.Name)
			if !seen[e.Name] {
				seen[e.Name] = true
				out = append(out, d)
			}
		}
	}
	if len(groups[len(groups)-1]) == 0 {
		groups = groups[:len(groups)-1]
	}
	if len(groups) < 2 {
		groups = nil
	}
	if len(out) == 0 {
		return dirs, nil, rest, nil
	}
	return out, groups, rest, nil
}

func readSysbenchUser(so *SysbenchOptions, opt LoadOptions) error {
	var err error
	if opt.SysbenchGroups != "" {
		if so.groups, err = readUserFile(opt.SysbenchGroups, sbGroupsFile, parse.ReadSysbenchGroups); err != nil {
			return err
		}
	}
	if opt.SysbenchExtra != "" {
		if so.extra, err = readUserFile(opt.SysbenchExtra, sbExtraFile, parse.ReadSysbenchExtra); err != nil {
			return err
		}
	}
	return nil
}

// The small files a user names on the command line, with their limits:
// each holds a few lines, so a larger one is a mistake (a log named in
// its place) that would otherwise cost minutes and gigabytes.
var (
	dbmsListFile = parse.UserFile{Flag: "--dbms", What: "a DBMS list", Limit: 1 << 20}
	sbGroupsFile = parse.UserFile{Flag: "--sb-groups", What: "a file of test groups", Limit: 1 << 20}
	sbExtraFile  = parse.UserFile{Flag: "--sb-extra", What: "a file of extra columns", Limit: 16 << 20}
)

// readUserFile reads a file the user named on the command line with read:
// a regular file within the limit of uf (a FIFO or /dev/zero is refused,
// not read forever). Any failure is bad input.
func readUserFile[T any](name string, uf parse.UserFile, read func(io.Reader, string) (T, error)) (T, error) {
	b, err := parse.ReadUserFile(name, uf)
	if err != nil {
		var zero T
		return zero, inputerr.Wrap(err)
	}
	v, err := read(bytes.NewReader(b), name)
	if err != nil {
		return v, inputerr.Wrap(err)
	}
	return v, nil
}

// Tables builds the text tables of r: those of the insert-benchmark trees
// (see Tables and tablesFromArchive) and of the sysbench folders (see
// buildSysbenchTables), and the texts of the warnings met; the
// information of Notes (the device and scan generation chosen) is not
// among them.
func (r *Results) Tables(some []string) ([]File, []string, error) {
	if r == nil {
		return nil, nil, errNilResults
	}
	if len(r.Hosts) > 0 {
		return nil, nil, inputerr.Errorf("%s compares the summary tables of %d sub-folders (hosts); the text tables are one host's: name its sub-folder (%s)", names.Quoted(r.Dir), len(r.Hosts), names.Quoted(r.Hosts[0].Dir))
	}
	topt := tablesOptions{Metrics: r.Options, Some: some}
	if r.Archived() {
		files, warns := tablesFromArchive(r.archive, topt)
		return files, append(warningTexts(r.settingsWarnings), warns...), nil
	}
	var files []File
	warns := warningTexts(r.settingsWarnings)
	if len(r.Trees) > 0 {
		f, w, err := buildTables(r.Trees, r.List, topt)
		if err != nil {
			return nil, nil, inputerr.Wrap(err)
		}
		files, warns = f, append(warns, w...)
		sw, err := r.sweepFiles()
		if err != nil {
			return nil, nil, err
		}
		files = append(files, sw...)
		if r.Options.Compat {
			f, w := r.ibenchPerfCompatFiles()
			files, warns = append(files, f...), append(warns, w...)
		}
	}
	if r.Sysbench != nil {
		f, w, err := sysbenchTables(r.Sysbench, r.sysbenchCompat, r.SysbenchOptions)
		if err != nil {
			return nil, nil, inputerr.Wrap(err)
		}
		files, warns = append(files, f...), append(warns, w...)
		if r.sysbenchCompat != nil {
			f, w := r.perfCompatFiles()
			files, warns = append(files, f...), append(warns, w...)
		}
	}
	return files, append(warns, warningTexts(r.setupNotes)...), nil
}

// warningTexts are the texts of the warnings of ws, information left out.
func warningTexts(ws []metrics.Warning) []string {
	var out []string
	for _, w := range ws {
		if !w.Info() {
			out = append(out, w.Text)
		}
	}
	return out
}

// sysbenchWarnings are the warnings of the sysbench part.
func sysbenchWarnings(res *Results) []metrics.Warning {
	return sbsum.Notes(res.Sysbench, res.SysbenchOptions.sum())
}

// computeTrees reads and summarizes DBMS trees in the mode of opt (see
// computeTree), their steps concurrently.
func computeTrees(fsys fs.FS, trees []*parse.Tree, opt metrics.Options) ([]*metrics.TreeResult, error) {
	if opt.Compat {
		return metrics.ComputeTreesWith(fsys, trees, opt, compat.ComputeStep)
	}
	return metrics.ComputeTrees(fsys, trees, opt)
}

// computeTree reads and summarizes one DBMS tree in the mode of opt: with
// the typed computation of package metrics, or, with opt.Compat, as the
// original scripts computed it (the compat edge).
func computeTree(fsys fs.FS, t *parse.Tree, opt metrics.Options) (*metrics.TreeResult, error) {
	res, err := computeTrees(fsys, []*parse.Tree{t}, opt)
	if err != nil {
		return nil, err
	}
	return res[0], nil
}

// Inspect reads and summarizes the step folder stepDir
// (<results>/<tree>/<step>) as `ibreport inspect` prints it: every number
// of the step and the records behind it. The results folder's
// ibreport.settings fills what opt leaves unset; compat mode adds the o.res
// summary as the driver printed it. Unlike the report model, the
// Inspection may change with the tool.
func Inspect(stepDir string, opt metrics.Options) (*metrics.Inspection, error) {
	stepDir = filepath.Clean(stepDir)
	treeDir := filepath.Dir(stepDir)
	if st, err := os.Stat(stepDir); err != nil || !st.IsDir() {
		return nil, inputerr.Errorf("%s: not a step folder", stepDir)
	}
	opt, set, err := resolveSettings(os.DirFS(filepath.Dir(treeDir)), ".", opt)
	if err != nil {
		return nil, err
	}
	st, ok := parse.ParseStepName(filepath.Base(stepDir))
	if !ok {
		return nil, inputerr.Errorf("%s: not a step folder name (l.i0, l.x, qr100.L1, …)", stepDir)
	}
	inspect := metrics.Inspect
	if opt.Compat {
		inspect = compat.Inspect
	}
	out, err := inspect(os.DirFS(treeDir), filepath.Base(treeDir), st, opt)
	if err != nil {
		return nil, inputerr.Errorf("%s: %w", stepDir, err)
	}
	if len(set.warnings) > 0 {
		out.Warnings = append(set.warnings, out.Warnings...)
	}
	return out, nil
}

// sweepNames gives each tree a name of its own when several share one: the
// same DBMS run at several client counts, each in a folder of its own
// (dop1/6m.pg15.c1, dop2/6m.pg15.c1, …), becomes 6m.pg15.c1.dop1,
// 6m.pg15.c1.dop2, …. Trees of one name and one client count are an error:
// their rows could not be told apart.
func sweepNames(trees []*metrics.TreeResult) error {
	byName := map[string][]*metrics.TreeResult{}
	var names []string
	for _, t := range trees {
		if byName[t.Name()] == nil {
			names = append(names, t.Name())
		}
		byName[t.Name()] = append(byName[t.Name()], t)
	}
	for _, name := range names {
		ts := byName[name]
		if len(ts) < 2 {
			continue
		}
		dirs := map[int]string{}
		for _, t := range ts {
			d := t.Dop()
			if d == 0 {
				return fmt.Errorf("%s and %s are both named %s, and %s has no client count (no o.res.dop<D> or o.ib.dop<D>.<n> file): rename one", ts[0].Tree.Dir, ts[1].Tree.Dir, name, t.Tree.Dir)
			}
			if prev, ok := dirs[d]; ok {
				return fmt.Errorf("%s and %s are both named %s and both ran with %s: rename one", prev, t.Tree.Dir, name, metrics.Plural(d, "client"))
			}
			dirs[d] = t.Tree.Dir
		}
		for _, t := range ts {
			t.Tree.Name = fmt.Sprintf("%s.dop%d", name, t.Dop())
			// The steps' NA warnings name the DBMS as the outputs do.
			for _, sr := range t.Steps {
				if sr != nil {
					sr.Tree = t.Tree.Name
					sr.ExplainNA()
				}
			}
		}
	}
	return nil
}

// sweepFiles are the sweep.<step> tables (the rates by client count, as the
// report's sweep section shows them) when the trees ran at several client
// counts; none otherwise.
func (r *Results) sweepFiles() ([]File, error) {
	counts := map[int]bool{}
	for _, t := range r.Trees {
		counts[t.Dop()] = true
	}
	if len(counts) < 2 {
		return nil, nil
	}
	rep, err := Build(r, BuildOptions{})
	if err != nil || rep.Sweep == nil {
		return nil, err
	}
	var out []File
	for _, s := range rep.Sweep.Steps {
		out = append(out, File{Name: "sweep." + s.Step.Name, Data: []byte(sweepTSV(s))})
	}
	return out, nil
}
