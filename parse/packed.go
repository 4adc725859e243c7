package parse

import (
	"archive/tar"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/ibreport/ibreport/internal/inputerr"
	"github.com/ibreport/ibreport/internal/names"
)

// Packed shows the compressed files of fsys as they were before packing.
// Published studies ship results compressed: single files as <name>.gz
// (sysbench outputs of 2020), whole DBMS folders as <folder>.tar.gz or
// <folder>.tgz beside the summaries. Packed shows them as they were, so that every reader works on them unchanged and nothing is
// unpacked to disk:
//
//   - a file <name>.gz reads as <name>, decompressed as it is read;
//   - an archive <folder>.tar.gz or <folder>.tgz reads as the folder
//     <folder>. When every member of the archive is under one top folder
//     (tar czf x.pg1023.pk1.tar.gz x.pg1023.pk1), that folder is the
//     archive's content: the DBMS name is the archive's name either way.
//
// A real file or folder of the same name wins over the packed one (with a
// warning), and <folder>.tar.gz wins over <folder>.tgz. Members of an
// archive keep their modification times (the original summarizers order
// files by them). Only regular members and folders are files: a link, FIFO
// or device member opens as a *NotRegularError that says what it is. A
// name packed twice (tar -r) reads as its last copy, as tar extracts it.
//
// An archive is read through once, on first use, by one reader at a time:
// that pass checks it whole (the gzip trailer's CRC and size included) and
// keeps its members in memory, up to packedCache bytes over all archives
// (a member larger than packedMember is kept compressed again, up to
// packedRecompress; the archives used least recently are dropped first).
// A member that was not kept is streamed from the archive when opened, a
// line at a time like any file. Errors of a damaged archive or .gz name it
// and are bad input.
//
// Names that are not UTF-8, and folders whose names cannot be told apart
// from their packed twins, are left out with a warning (PackedWarnings).
func Packed(fsys fs.FS) fs.FS {
	return &packedFS{fsys: orNoInput(fsys), tars: map[string]*tarIndex{}, real: map[string]*realDir{},
		exists: map[string]bool{}, warned: map[string]bool{}}
}

// PackedWarnings returns what a Packed FS left out or chose so far
// (duplicate members, links, archives in archives, names that are not
// UTF-8), each naming its file; nil for another FS.
func PackedWarnings(fsys fs.FS) []string {
	p, ok := fsys.(*packedFS)
	if !ok {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.warns)
}

// The cache bounds, variables for the tests.
var (
	// packedCache bounds the bytes of members kept in memory, over all
	// archives; members kept as they are take at most half of it, so that
	// the rest of a large archive can be kept compressed again.
	packedCache int64 = 512 << 20
	// packedMember is the largest member kept as it is; a larger one is
	// compressed again (fast, in memory) up to packedRecompress, and
	// streamed from the archive above that.
	packedMember     int64 = 64 << 20
	packedRecompress int64 = 256 << 20
)

// maxMemberPath and maxMemberDepth bound a member's name: no results tree
// is deeper than a few folders, and Linux paths end at 4096 bytes. A longer
// name is skipped with a warning.
const (
	maxMemberPath  = 4096
	maxMemberDepth = 64
)

type packedFS struct {
	fsys fs.FS
	mu   sync.Mutex
	tars map[string]*tarIndex // by archive path
	used int64                // bytes kept over all archives
	flat int64                // of which members kept as they are
	tick int64
	// real are the folders of the underlying FS, each listed once: the
	// readers' many looks for optional files (sb.met, perf, iostat of each
	// test) that are not there cost no system call after the first, and
	// the readers list a step's folder several times.
	real map[string]*realDir
	// exists are the paths of the underlying FS found to exist, each
	// looked up once: each look for an archive stats every folder above
	// the name.
	exists map[string]bool
	warns  []string
	warned map[string]bool
}

// warn records a warning once.
func (p *packedFS) warn(format string, a ...any) {
	msg := fmt.Sprintf(format, a...)
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.warned[msg] {
		p.warned[msg] = true
		p.warns = append(p.warns, msg)
	}
}

// PackedError is a damaged compressed file or archive: truncated, a bad
// CRC, not gzip or not tar. It is bad input.
type PackedError struct {
	Path string // the compressed file or archive
	Err  error  // what the decompressor or tar reader said
}

func (e *PackedError) Error() string {
	if e == nil {
		return "<nil>"
	}
	return fmt.Sprintf("%s: %v (damaged or truncated; gzip -t tells more)", e.Path, e.Err)
}

// Unwrap gives the decompressor's error and marks the error as bad input.
func (e *PackedError) Unwrap() []error {
	if e == nil {
		return nil
	}
	return []error{e.Err, inputerr.ErrBadInput}
}

func packedErr(p string, err error) error {
	var pe *PackedError
	if errors.As(err, &pe) {
		return err
	}
	if err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return &PackedError{Path: p, Err: err}
}

// absent reports whether name is surely neither a file of the underlying
// FS nor packed: its folder is a real one and holds neither name nor
// name.gz, name.tar.gz or name.tgz. It says false when it cannot tell.
func (p *packedFS) absent(name string) bool {
	if name == "." {
		return false
	}
	dir, base := path.Split(name)
	dir = strings.TrimSuffix(dir, "/")
	if dir == "" {
		dir = "."
	}
	d := p.listReal(dir)
	if d.err != nil {
		return false // not a real folder, or unreadable: ask each time
	}
	names := d.names
	return !names[base] && !names[base+".gz"] && !names[base+".tar.gz"] && !names[base+".tgz"]
}

// tarIndex is what the pass over an archive found.
type tarIndex struct {
	path  string // the archive in the underlying FS
	info  fs.FileInfo
	strip string // the top folder stripped from member names, "" when none
	files map[string]*tarMember
	dirs  map[string][]string // folder (relative, "." for the top) -> entry names

	// mu is held by the one pass over the archive at a time.
	mu      sync.Mutex
	indexed bool
	err     error
	// Under packedFS.mu:
	kept     int64 // bytes of members kept in memory
	flat     int64 // of which members kept as they are
	filled   bool  // the members that fit are kept
	scanning bool
	last     int64 // tick of the last use, for eviction
}

type tarMember struct {
	name string // in the archive, top folder included
	size int64
	mode fs.FileMode
	kind string // what a member that is no regular file or folder is
	mod  time.Time
	seq  int // the header's number in the archive (the last copy's)
	// Under packedFS.mu: the content kept, as it is or compressed again;
	// both nil when it was not kept.
	data, z []byte
}

// archiveBase returns the folder name an archive stands for, "" when name
// is not an archive.
func archiveBase(name string) string {
	for _, ext := range []string{".tar.gz", ".tgz"} {
		if b, ok := strings.CutSuffix(name, ext); ok && b != "" {
			return b
		}
	}
	return ""
}

func (p *packedFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	if p.absent(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	if f, err := p.fsys.Open(name); err == nil {
		if fi, err := f.Stat(); err == nil && fi.IsDir() {
			return &packedDir{File: f, lazyDir: lazyDir{p: p, name: name}}, nil
		}
		return f, nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	if t, rel, err := p.inArchive(name); err != nil {
		return nil, err
	} else if t != nil {
		return p.openMember(t, name, rel)
	}
	gz := name + ".gz"
	fi, err := fs.Stat(p.fsys, gz)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
		}
		return nil, err
	}
	if fi.IsDir() {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	if !fi.Mode().IsRegular() {
		// Not opened: a FIFO would block.
		return nil, &NotRegularError{Path: gz, Mode: fi.Mode()}
	}
	f, err := p.fsys.Open(gz)
	if err != nil {
		return nil, err
	}
	zr, err := gzip.NewReader(f)
	if err != nil {
		f.Close()
		if err == io.EOF {
			err = errors.New("empty file, not gzip")
		}
		return nil, packedErr(gz, err)
	}
	return &gzFile{f: f, zr: zr, path: gz, info: renamed{fi, path.Base(name)}}, nil
}

// regularOpener is a folder of the system (internal/osfs): it opens a file
// only when it is a regular one, and says what is there otherwise.
type regularOpener interface {
	OpenRegular(name string) (fs.File, fs.FileInfo, error)
}

// OpenRegular opens name when it is a regular file (RegularFS). A real
// file of an underlying folder of the system is opened without a look
// before; what is not a real file (a packed one, or a folder's packed
// twin) is looked at (Stat) and opened as Open does.
func (p *packedFS) OpenRegular(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	if p.absent(name) {
		// The error of the look that came before the open.
		return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrNotExist}
	}
	if o, ok := p.fsys.(regularOpener); ok {
		f, fi, err := o.OpenRegular(name)
		switch {
		case err == nil && f != nil:
			return f, nil
		case err == nil:
			return nil, &NotRegularError{Path: name, Mode: fi.Mode()}
		case !errors.Is(err, fs.ErrNotExist):
			return nil, err
		}
	}
	if _, err := checkRegular(p, name); err != nil {
		return nil, err
	}
	return p.Open(name)
}

// Stat avoids opening (and decompressing) a packed file.
func (p *packedFS) Stat(name string) (fs.FileInfo, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrInvalid}
	}
	if p.absent(name) {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrNotExist}
	}
	if fi, err := fs.Stat(p.fsys, name); err == nil {
		return fi, nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	if t, rel, err := p.inArchive(name); err != nil {
		return nil, err
	} else if t != nil {
		return t.stat(name, rel)
	}
	if fi, err := fs.Stat(p.fsys, name+".gz"); err == nil && !fi.IsDir() {
		return renamed{fi, path.Base(name)}, nil
	}
	return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrNotExist}
}

func (p *packedFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if t, rel, err := p.inArchive(name); err != nil {
		return nil, err
	} else if t != nil {
		names, ok := t.dirs[rel]
		if !ok {
			return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrNotExist}
		}
		out := make([]fs.DirEntry, 0, len(names))
		for _, n := range names {
			m := t.files[path.Join(rel, n)]
			if m == nil {
				continue
			}
			out = append(out, fs.FileInfoToDirEntry(memberInfo{m}))
		}
		return out, nil
	}
	d := p.listReal(name)
	if d.err != nil {
		return nil, d.err
	}
	p.mu.Lock()
	shown := d.shown
	p.mu.Unlock()
	if shown == nil {
		shown = p.unpackEntries(name, d.ents)
		p.mu.Lock()
		d.shown = shown
		p.mu.Unlock()
	}
	return slices.Clone(shown), nil
}

// realDir is a folder of the underlying FS as it was listed, or the error
// listing it gave.
type realDir struct {
	ents  []fs.DirEntry
	names map[string]bool // of ents
	shown []fs.DirEntry   // ents as ReadDir shows them; nil until asked
	err   error
}

// listReal lists the underlying FS's folder dir, once.
func (p *packedFS) listReal(dir string) *realDir {
	p.mu.Lock()
	d := p.real[dir]
	p.mu.Unlock()
	if d != nil {
		return d
	}
	d = &realDir{}
	if d.ents, d.err = fs.ReadDir(p.fsys, dir); d.err == nil {
		d.names = make(map[string]bool, len(d.ents))
		for _, e := range d.ents {
			d.names[e.Name()] = true
		}
	}
	p.mu.Lock()
	p.real[dir] = d
	p.mu.Unlock()
	return d
}

// unpackEntries shows <name>.gz as <name> and an archive as its folder,
// unless an entry of that name exists. Names that are not UTF-8 cannot be
// opened through an fs.FS: they are left out with a warning.
func (p *packedFS) unpackEntries(dir string, ents []fs.DirEntry) []fs.DirEntry {
	have := map[string]string{}
	for _, e := range ents {
		have[e.Name()] = e.Name()
	}
	out := make([]fs.DirEntry, 0, len(ents))
	for _, e := range ents {
		n := e.Name()
		if !utf8.ValidString(n) {
			p.warn("%s: the name is not UTF-8; skipped (rename it to read it)", names.Quoted(path.Join(dir, n)))
			continue
		}
		if e.IsDir() {
			out = append(out, e)
			continue
		}
		full := path.Join(dir, n)
		if b := archiveBase(n); b != "" {
			if other := have[b]; other != "" && other != n {
				if other == b {
					p.warn("%s: %s beside it is read; the archive is ignored", full, b)
				} else {
					p.warn("%s: %s packs %s too and is read; this one is ignored", full, other, b)
				}
				out = append(out, e)
				continue
			}
			fi, err := fs.Stat(p.fsys, full) // follows a link
			if err != nil || !fi.Mode().IsRegular() {
				if err == nil {
					p.warn("%s: %s, not a regular file; not read as the folder %s", full, modeKind(fi.Mode()), b)
				}
				out = append(out, e)
				continue
			}
			have[b] = n
			out = append(out, fs.FileInfoToDirEntry(archiveDir{fi, b}))
			continue
		}
		if b, ok := strings.CutSuffix(n, ".gz"); ok && b != "" {
			if have[b] != "" {
				if have[b] == b {
					p.warn("%s: %s beside it is read; the compressed copy is ignored", full, b)
				}
				out = append(out, e)
				continue
			}
			have[b] = n
			if fi, err := e.Info(); err == nil {
				out = append(out, fs.FileInfoToDirEntry(renamed{fi, b}))
				continue
			}
		}
		out = append(out, e)
	}
	slices.SortFunc(out, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return out
}

// inArchive finds the archive that holds name: the first path element
// (from the top) that does not exist but has a <elem>.tar.gz or <elem>.tgz
// beside it. It returns the archive's index and name relative to it, or
// nil when name is not in an archive.
func (p *packedFS) inArchive(name string) (*tarIndex, string, error) {
	if name == "." {
		return nil, "", nil
	}
	parts := strings.Split(name, "/")
	for i := range parts {
		dir := path.Join(parts[:i+1]...)
		p.mu.Lock()
		known := p.exists[dir]
		p.mu.Unlock()
		if known {
			continue
		}
		if _, err := fs.Stat(p.fsys, dir); err == nil {
			p.mu.Lock()
			p.exists[dir] = true
			p.mu.Unlock()
			continue
		} else if !errors.Is(err, fs.ErrNotExist) {
			return nil, "", err
		}
		for _, ext := range []string{".tar.gz", ".tgz"} {
			fi, err := fs.Stat(p.fsys, dir+ext)
			if err != nil || fi.IsDir() {
				continue
			}
			if !fi.Mode().IsRegular() {
				// Never opened: a FIFO would block.
				return nil, "", &NotRegularError{Path: dir + ext, Mode: fi.Mode()}
			}
			t, err := p.index(dir+ext, fi)
			if err != nil {
				return nil, "", err
			}
			return t, path.Join(append([]string{"."}, parts[i+1:]...)...), nil
		}
		return nil, "", nil
	}
	return nil, "", nil
}

// index returns the archive's index, reading it through on first use.
func (p *packedFS) index(arch string, fi fs.FileInfo) (*tarIndex, error) {
	p.mu.Lock()
	p.tick++
	t := p.tars[arch]
	if t == nil {
		t = &tarIndex{path: arch, info: fi}
		p.tars[arch] = t
	}
	t.last = p.tick
	p.mu.Unlock()
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.indexed {
		t.err = p.scan(t, true)
		t.indexed = true
	}
	if t.err != nil {
		return nil, t.err
	}
	return t, nil
}

// memberName checks a header's name: "" and a warning when it is not one
// to show.
func (p *packedFS) memberName(arch string, h *tar.Header) string {
	// The limits come first: the cleaning and the splitting below are
	// linear in the name, but a name of 400,000 folders must not get as far
	// as the folder fill of the index.
	if len(h.Name) > maxMemberPath {
		p.warn("%s: a member name of %d bytes, longer than %d; skipped", arch, len(h.Name), maxMemberPath)
		return ""
	}
	n := path.Clean(strings.TrimPrefix(h.Name, "./"))
	if n == "." || !fs.ValidPath(n) {
		return "" // absolute, ../ or not UTF-8: never shown
	}
	if d := strings.Count(n, "/"); d >= maxMemberDepth {
		p.warn("%s: member %s… is %d folders deep, more than %d; skipped", arch, n[:min(len(n), 40)], d, maxMemberDepth)
		return ""
	}
	return n
}

// isRegular reports whether a member is a regular file (old tars mark
// them with NUL).
func isRegular(h *tar.Header) bool {
	return h.Typeflag == tar.TypeReg || h.Typeflag == '\x00'
}

// memberKind names a tar type that is neither a regular file nor a folder.
func memberKind(h *tar.Header) (fs.FileMode, string) {
	to := h.Linkname
	if len(to) > 100 {
		to = to[:100] + "…"
	}
	switch h.Typeflag {
	case tar.TypeSymlink:
		return fs.ModeSymlink, "a symbolic link member (to " + names.Quoted(to) + ")"
	case tar.TypeLink:
		return fs.ModeIrregular, "a hard link member (to " + names.Quoted(to) + ")"
	case tar.TypeChar:
		return fs.ModeDevice | fs.ModeCharDevice, "a character device member"
	case tar.TypeBlock:
		return fs.ModeDevice, "a block device member"
	case tar.TypeFifo:
		return fs.ModeNamedPipe, "a FIFO member"
	}
	return fs.ModeIrregular, fmt.Sprintf("a member of tar type %q", h.Typeflag)
}

// scan reads the archive through: on the first pass (first) it indexes the
// members; on every pass it keeps the members that fit in memory. The
// caller holds t.mu.
func (p *packedFS) scan(t *tarIndex, first bool) error {
	p.mu.Lock()
	t.scanning = true
	p.mu.Unlock()
	defer func() {
		p.mu.Lock()
		t.scanning = false
		p.mu.Unlock()
	}()
	if first {
		t.files = map[string]*tarMember{}
	}
	copies := map[string]int{}
	var order []string
	seq := 0
	err := p.walkTar(t.path, func(h *tar.Header, r io.Reader) error {
		seq++
		if !first {
			return p.keep(t, h, r, seq)
		}
		n := p.memberName(t.path, h)
		if n == "" {
			return nil
		}
		m := &tarMember{name: n, mode: h.FileInfo().Mode(), mod: h.ModTime, seq: seq}
		reg := isRegular(h)
		if !reg && h.Typeflag != tar.TypeDir {
			m.mode, m.kind = memberKind(h)
			m.mode |= 0o444
			m.kind += " of " + path.Base(t.path)
		}
		if reg {
			m.size = h.Size
		}
		if old := t.files[n]; old != nil {
			p.drop(t, old)
		} else {
			order = append(order, n)
		}
		copies[n]++
		t.files[n] = m
		if reg {
			return p.keep(t, h, r, seq)
		}
		return nil
	})
	if err != nil {
		p.dropAll(t)
		return err
	}
	p.mu.Lock()
	t.filled = true
	p.mu.Unlock()
	if !first {
		return nil
	}
	for _, n := range order {
		if c := copies[n]; c > 1 {
			p.warn("%s: member %s is packed %d times (tar -r); the last copy is read, as tar extracts it", t.path, n, c)
		}
	}
	t.index(p, order)
	return nil
}

// index strips the top folder and lists the folders of t's members.
func (t *tarIndex) index(p *packedFS, names []string) {
	t.dirs = map[string][]string{".": nil}
	// One top folder holding everything is the archive's content.
	top := ""
	for _, n := range names {
		first, _, _ := strings.Cut(n, "/")
		if top == "" {
			top = first
		}
		if first != top {
			top = ""
			break
		}
	}
	if m := t.files[top]; top != "" && (m == nil || m.mode.IsDir()) && len(names) > 0 {
		t.strip = top
		files := make(map[string]*tarMember, len(t.files))
		for n, m := range t.files {
			if n == top {
				continue
			}
			files[strings.TrimPrefix(n, top+"/")] = m
		}
		t.files = files
	}
	regular, archives := 0, []string(nil)
	for n, m := range t.files {
		// Members may come without their folders' own entries. The walk
		// up stops at the first folder known, so that the fill costs the
		// length of the names, not their depth times their length.
		for d := path.Dir(n); d != "." && t.files[d] == nil; d = path.Dir(d) {
			t.files[d] = &tarMember{name: d, mode: fs.ModeDir | 0o755, mod: m.mod}
		}
		if m.kind == "" && m.mode.IsRegular() {
			regular++
			if archiveBase(path.Base(n)) != "" {
				archives = append(archives, n)
			}
		}
	}
	for n := range t.files {
		d := path.Dir(n)
		t.dirs[d] = append(t.dirs[d], path.Base(n))
		if t.files[n].mode.IsDir() && t.dirs[n] == nil {
			t.dirs[n] = []string{}
		}
	}
	for _, v := range t.dirs {
		slices.Sort(v)
	}
	slices.Sort(archives)
	for _, a := range archives {
		if regular == len(archives) {
			p.warn("%s holds only archives (%s): an archive in an archive is not unpacked, so it holds no results; unpack the outer one", t.path, a)
		} else {
			p.warn("%s: member %s is an archive in an archive; not unpacked", t.path, a)
		}
	}
}

// keep keeps a regular member in memory when it fits: as it is up to
// packedMember bytes, compressed again up to packedRecompress.
func (p *packedFS) keep(t *tarIndex, h *tar.Header, r io.Reader, seq int) error {
	if !isRegular(h) {
		return nil
	}
	var m *tarMember
	if n := p.memberName(t.path, h); n != "" {
		if t.strip != "" {
			n = strings.TrimPrefix(n, t.strip+"/")
		}
		m = t.files[n]
	}
	if m == nil || m.seq != seq || h.Size > packedRecompress {
		return nil
	}
	if h.Size <= packedMember && p.reserve(t, h.Size, true) {
		b := make([]byte, h.Size)
		if _, err := io.ReadFull(r, b); err != nil {
			p.release(t, h.Size, true)
			return err
		}
		p.mu.Lock()
		m.data = b
		p.mu.Unlock()
		return nil
	}
	// Compressed again, in steps, each reserved before it is written.
	cw := &budgetWriter{p: p, t: t}
	zw, _ := flate.NewWriter(cw, flate.BestSpeed)
	_, err := io.Copy(zw, r)
	if err == nil {
		err = zw.Close()
	}
	if err != nil {
		p.release(t, cw.reserved, false)
		if errors.Is(err, errNoRoom) {
			return nil // streamed when opened
		}
		return err
	}
	p.mu.Lock()
	m.z = cw.buf.Bytes()
	p.mu.Unlock()
	return nil
}

var errNoRoom = errors.New("no room in the cache")

// budgetWriter collects compressed bytes within the cache bound.
type budgetWriter struct {
	p        *packedFS
	t        *tarIndex
	buf      bytes.Buffer
	reserved int64
}

func (w *budgetWriter) Write(b []byte) (int, error) {
	if need := int64(w.buf.Len()+len(b)) - w.reserved; need > 0 {
		if !w.p.reserve(w.t, need, false) {
			return 0, errNoRoom
		}
		w.reserved += need
	}
	return w.buf.Write(b)
}

// reserve counts n bytes against the cache for t, dropping the members of
// the archives used least recently (not t, nor one being read) to make
// room; false when there is none.
func (p *packedFS) reserve(t *tarIndex, n int64, flat bool) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	for p.used+n > packedCache || flat && p.flat+n > packedCache/2 {
		var old *tarIndex
		for _, o := range p.tars {
			if o != t && !o.scanning && o.kept > 0 && (old == nil || o.last < old.last) {
				old = o
			}
		}
		if old == nil {
			return false
		}
		for _, m := range old.files {
			m.data, m.z = nil, nil
		}
		p.used -= old.kept
		p.flat -= old.flat
		old.kept, old.flat, old.filled = 0, 0, false
	}
	p.used += n
	t.kept += n
	if flat {
		p.flat += n
		t.flat += n
	}
	return true
}

func (p *packedFS) release(t *tarIndex, n int64, flat bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.used -= n
	t.kept -= n
	if flat {
		p.flat -= n
		t.flat -= n
	}
}

// drop forgets the content kept of a member (an earlier copy).
func (p *packedFS) drop(t *tarIndex, m *tarMember) {
	p.mu.Lock()
	defer p.mu.Unlock()
	flat, z := int64(len(m.data)), int64(len(m.z))
	m.data, m.z = nil, nil
	p.used -= flat + z
	t.kept -= flat + z
	p.flat -= flat
	t.flat -= flat
}

func (p *packedFS) dropAll(t *tarIndex) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, m := range t.files {
		m.data, m.z = nil, nil
	}
	p.used -= t.kept
	p.flat -= t.flat
	t.kept, t.flat, t.filled = 0, 0, false
}

// walkTar streams the archive, calling f for every header, and checks the
// gzip trailer (CRC and size) at its end: tar's end marker comes before it.
func (p *packedFS) walkTar(arch string, f func(*tar.Header, io.Reader) error) error {
	file, err := p.fsys.Open(arch)
	if err != nil {
		return err
	}
	defer file.Close()
	zr, err := gzip.NewReader(file)
	if err != nil {
		return packedErr(arch, err)
	}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return packedErr(arch, err)
		}
		if err := f(h, tr); err != nil {
			return packedErr(arch, err)
		}
	}
	if _, err := io.Copy(io.Discard, zr); err != nil {
		return packedErr(arch, err)
	}
	return nil
}

func (t *tarIndex) stat(name, rel string) (fs.FileInfo, error) {
	if rel == "." {
		return archiveDir{t.info, path.Base(name)}, nil
	}
	m := t.files[rel]
	if m == nil {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrNotExist}
	}
	return memberInfo{m}, nil
}

// openMember returns a member: kept in memory, or streamed from the
// archive up to it and through it.
func (p *packedFS) openMember(t *tarIndex, name, rel string) (fs.File, error) {
	fi, err := t.stat(name, rel)
	if err != nil {
		return nil, err
	}
	if fi.IsDir() {
		return &memberDir{info: fi, lazyDir: lazyDir{p: p, name: name}}, nil
	}
	m := t.files[rel]
	if m.kind != "" {
		return nil, &NotRegularError{Path: name, Mode: m.mode, Kind: m.kind}
	}
	if f := p.kept(t, m, fi); f != nil {
		return f, nil
	}
	// Dropped to make room for another archive: one pass keeps the
	// members again, unless they no longer fit.
	t.mu.Lock()
	p.mu.Lock()
	refill := !t.filled
	p.tick++
	t.last = p.tick
	p.mu.Unlock()
	if refill {
		if err := p.scan(t, false); err != nil {
			t.mu.Unlock()
			return nil, err
		}
	}
	t.mu.Unlock()
	if f := p.kept(t, m, fi); f != nil {
		return f, nil
	}
	return p.stream(t, m, fi)
}

// kept opens the member from memory; nil when it is not there.
func (p *packedFS) kept(t *tarIndex, m *tarMember, fi fs.FileInfo) fs.File {
	p.mu.Lock()
	data, z := m.data, m.z
	p.tick++
	t.last = p.tick
	p.mu.Unlock()
	switch {
	case data != nil:
		return &memberFile{r: bytes.NewReader(data), info: fi}
	case z != nil:
		return &memberFile{r: flate.NewReader(bytes.NewReader(z)), info: fi, path: t.path}
	}
	return nil
}

// stream opens the archive and reads up to the member; the file reads on
// through it, as a file on disk is read.
func (p *packedFS) stream(t *tarIndex, m *tarMember, fi fs.FileInfo) (fs.File, error) {
	file, err := p.fsys.Open(t.path)
	if err != nil {
		return nil, err
	}
	zr, err := gzip.NewReader(file)
	if err != nil {
		file.Close()
		return nil, packedErr(t.path, err)
	}
	tr := tar.NewReader(zr)
	for seq := 1; ; seq++ {
		_, err := tr.Next()
		if err != nil {
			file.Close()
			return nil, packedErr(t.path, err)
		}
		if seq == m.seq {
			break
		}
	}
	return &memberFile{r: tr, info: fi, path: t.path, closer: file}, nil
}

// renamed is the FileInfo of a .gz file under its name without .gz. Its
// size is the compressed one: the other is not known without reading it.
type renamed struct {
	fs.FileInfo
	name string
}

func (r renamed) Name() string { return r.name }

// archiveDir is an archive seen as a folder.
type archiveDir struct {
	fs.FileInfo
	name string
}

func (a archiveDir) Name() string      { return a.name }
func (a archiveDir) IsDir() bool       { return true }
func (a archiveDir) Mode() fs.FileMode { return fs.ModeDir | 0o555 }
func (a archiveDir) Size() int64       { return 0 }

type memberInfo struct{ m *tarMember }

func (i memberInfo) Name() string       { return path.Base(i.m.name) }
func (i memberInfo) Size() int64        { return i.m.size }
func (i memberInfo) Mode() fs.FileMode  { return i.m.mode }
func (i memberInfo) ModTime() time.Time { return i.m.mod }
func (i memberInfo) IsDir() bool        { return i.m.mode.IsDir() }
func (i memberInfo) Sys() any           { return nil }

// notRegularKind says what a member that is not a regular file is, for
// checkRegular.
func (i memberInfo) notRegularKind() string { return i.m.kind }

// gzFile is a single .gz file, decompressed as it is read; its trailer is
// checked at its end by gzip.Reader.
type gzFile struct {
	f    fs.File
	zr   *gzip.Reader
	path string
	info fs.FileInfo
}

func (g *gzFile) Read(b []byte) (int, error) {
	n, err := g.zr.Read(b)
	if err != nil && err != io.EOF {
		err = packedErr(g.path, err)
	}
	return n, err
}
func (g *gzFile) Stat() (fs.FileInfo, error) { return g.info, nil }
func (g *gzFile) Close() error               { g.zr.Close(); return g.f.Close() }

// memberFile is a member of an archive, opened.
type memberFile struct {
	r      io.Reader
	info   fs.FileInfo
	path   string    // the archive, for errors; "" when r is in memory
	closer io.Closer // the archive streamed, nil when kept
}

func (m *memberFile) Read(b []byte) (int, error) {
	n, err := m.r.Read(b)
	if err != nil && err != io.EOF && m.path != "" {
		err = packedErr(m.path, err)
	}
	return n, err
}
func (m *memberFile) Stat() (fs.FileInfo, error) { return m.info, nil }
func (m *memberFile) Close() error {
	if m.closer != nil {
		return m.closer.Close()
	}
	return nil
}

// memberDir is a folder inside an archive, opened.
type memberDir struct {
	info fs.FileInfo
	lazyDir
}

func (d *memberDir) Stat() (fs.FileInfo, error) { return d.info, nil }
func (d *memberDir) Read([]byte) (int, error) {
	return 0, &fs.PathError{Op: "read", Path: d.name, Err: errors.New("is a directory")}
}
func (d *memberDir) Close() error { return nil }

// packedDir is a real folder, opened, whose entries are shown unpacked.
type packedDir struct {
	fs.File
	lazyDir
}

// lazyDir serves fs.ReadDirFile.ReadDir for a folder of a packedFS: its
// entries, unpacked, are listed on the first call and handed out from
// then on.
type lazyDir struct {
	p    *packedFS
	name string
	ents []fs.DirEntry
	read bool
}

func (d *lazyDir) ReadDir(n int) ([]fs.DirEntry, error) {
	if !d.read {
		ents, err := d.p.ReadDir(d.name)
		if err != nil {
			return nil, err
		}
		d.ents, d.read = ents, true
	}
	return takeEntries(&d.ents, n)
}

// takeEntries serves fs.ReadDirFile.ReadDir from a list.
func takeEntries(ents *[]fs.DirEntry, n int) ([]fs.DirEntry, error) {
	if n <= 0 {
		out := *ents
		*ents = nil
		return out, nil
	}
	if len(*ents) == 0 {
		return nil, io.EOF
	}
	n = min(n, len(*ents))
	out := (*ents)[:n]
	*ents = (*ents)[n:]
	return out, nil
}
