package parse

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"
	"sync"
	"time"
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
// A real file or folder of the same name wins over the packed one.
// Members of an archive keep their modification times (the original
// summarizers order files by them).
//
// Reading a member means decompressing its archive from the start, so the
// members of the most recently used archives are kept in memory (up to
// packedCache bytes in all; an archive larger than that is streamed again
// for each member opened).
func Packed(fsys fs.FS) fs.FS {
	return &packedFS{fsys: fsys, tars: map[string]*tarIndex{}, lists: map[string]map[string]bool{}}
}

// packedCache bounds the decompressed bytes kept in memory.
const packedCache = 512 << 20

type packedFS struct {
	fsys fs.FS
	mu   sync.Mutex
	tars map[string]*tarIndex // by archive path
	used int64                // bytes cached over all archives
	tick int64
	// lists are the names in real folders, read once each, so that the
	// readers' many looks for optional files (sb.met, perf, iostat of each
	// test) that are not there cost no system call after the first.
	lists map[string]map[string]bool
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
	p.mu.Lock()
	names, ok := p.lists[dir]
	p.mu.Unlock()
	if !ok {
		entries, err := fs.ReadDir(p.fsys, dir)
		if err != nil {
			names = nil // not a real folder, or unreadable: ask each time
		} else {
			names = make(map[string]bool, len(entries))
			for _, e := range entries {
				names[e.Name()] = true
			}
		}
		p.mu.Lock()
		p.lists[dir] = names
		p.mu.Unlock()
	}
	if names == nil {
		return false
	}
	return !names[base] && !names[base+".gz"] && !names[base+".tar.gz"] && !names[base+".tgz"]
}

// tarIndex is what one pass over an archive found.
type tarIndex struct {
	path  string // the archive in the underlying FS
	info  fs.FileInfo
	strip string // the top folder stripped from member names, "" when none
	files map[string]*tarMember
	dirs  map[string][]string // folder (relative, "." for the top) -> entry names
	data  map[string][]byte   // cached contents, nil when not cached
	size  int64               // total of the members' sizes
	last  int64               // tick of the last use, for eviction
}

type tarMember struct {
	name string
	size int64
	mode fs.FileMode
	mod  time.Time
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
	f, err := p.fsys.Open(gz)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
		}
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil || fi.IsDir() {
		f.Close()
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	zr, err := gzip.NewReader(f)
	if err != nil {
		f.Close()
		return nil, &fs.PathError{Op: "open", Path: gz, Err: err}
	}
	return &gzFile{f: f, zr: zr, info: renamed{fi, path.Base(name)}}, nil
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
		var out []fs.DirEntry
		for _, n := range names {
			fi, err := t.stat(path.Join(name, n), path.Join(rel, n))
			if err != nil {
				return nil, err
			}
			out = append(out, fs.FileInfoToDirEntry(fi))
		}
		return out, nil
	}
	ents, err := fs.ReadDir(p.fsys, name)
	if err != nil {
		return nil, err
	}
	return p.unpackEntries(name, ents), nil
}

// unpackEntries shows <name>.gz as <name> and an archive as its folder,
// unless an entry of that name exists.
func (p *packedFS) unpackEntries(dir string, ents []fs.DirEntry) []fs.DirEntry {
	have := map[string]bool{}
	for _, e := range ents {
		have[e.Name()] = true
	}
	out := make([]fs.DirEntry, 0, len(ents))
	for _, e := range ents {
		n := e.Name()
		if e.IsDir() {
			out = append(out, e)
			continue
		}
		if b := archiveBase(n); b != "" && !have[b] {
			have[b] = true
			if fi, err := e.Info(); err == nil {
				out = append(out, fs.FileInfoToDirEntry(archiveDir{fi, b}))
				continue
			}
		}
		if b, ok := strings.CutSuffix(n, ".gz"); ok && b != "" && archiveBase(n) == "" && !have[b] {
			have[b] = true
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
		if _, err := fs.Stat(p.fsys, dir); err == nil {
			continue
		} else if !errors.Is(err, fs.ErrNotExist) {
			return nil, "", err
		}
		for _, ext := range []string{".tar.gz", ".tgz"} {
			if fi, err := fs.Stat(p.fsys, dir+ext); err == nil && !fi.IsDir() {
				t, err := p.index(dir+ext, fi)
				if err != nil {
					return nil, "", err
				}
				return t, path.Join(append([]string{"."}, parts[i+1:]...)...), nil
			}
		}
		return nil, "", nil
	}
	return nil, "", nil
}

// index reads the archive once for its members (and keeps their contents
// when they fit in the cache).
func (p *packedFS) index(arch string, fi fs.FileInfo) (*tarIndex, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.tick++
	if t := p.tars[arch]; t != nil {
		t.last = p.tick
		return t, nil
	}
	t := &tarIndex{path: arch, info: fi, files: map[string]*tarMember{}, dirs: map[string][]string{".": nil}, last: p.tick}
	var names []string
	err := p.walkTar(arch, func(h *tar.Header, r io.Reader) error {
		n := path.Clean(strings.TrimPrefix(h.Name, "./"))
		if n == "." || !fs.ValidPath(n) {
			return nil
		}
		switch h.Typeflag {
		case tar.TypeReg, tar.TypeDir:
		default:
			return nil // links and devices are not results
		}
		m := &tarMember{name: n, size: h.Size, mode: h.FileInfo().Mode(), mod: h.ModTime}
		t.files[n] = m
		names = append(names, n)
		if h.Typeflag == tar.TypeReg {
			t.size += h.Size
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
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
		files := map[string]*tarMember{}
		for n, m := range t.files {
			if n == top {
				continue
			}
			files[strings.TrimPrefix(n, top+"/")] = m
		}
		t.files = files
	}
	for n, m := range t.files {
		// Members may come without their folders' own entries.
		for d := path.Dir(n); d != "."; d = path.Dir(d) {
			if t.files[d] == nil {
				t.files[d] = &tarMember{name: d, mode: fs.ModeDir | 0o755, mod: m.mod}
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
	p.tars[arch] = t
	return t, nil
}

// walkTar streams the archive, calling f for every header.
func (p *packedFS) walkTar(arch string, f func(*tar.Header, io.Reader) error) error {
	file, err := p.fsys.Open(arch)
	if err != nil {
		return err
	}
	defer file.Close()
	zr, err := gzip.NewReader(file)
	if err != nil {
		return &fs.PathError{Op: "read", Path: arch, Err: err}
	}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return &fs.PathError{Op: "read", Path: arch, Err: err}
		}
		if err := f(h, tr); err != nil {
			return err
		}
	}
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

// openMember returns the content of a member, from the cache or by
// streaming the archive to it.
func (p *packedFS) openMember(t *tarIndex, name, rel string) (fs.File, error) {
	fi, err := t.stat(name, rel)
	if err != nil {
		return nil, err
	}
	if fi.IsDir() {
		return &memberDir{info: fi, lazyDir: lazyDir{p: p, name: name}}, nil
	}
	if err := p.fill(t); err != nil {
		return nil, err
	}
	p.mu.Lock()
	data, cached := t.data[rel]
	p.mu.Unlock()
	if cached {
		return &memberFile{Reader: bytes.NewReader(data), info: fi}, nil
	}
	// Too large for the cache: stream the archive up to the member.
	want := rel
	if t.strip != "" {
		want = t.strip + "/" + rel
	}
	var out []byte
	found := false
	errStop := errors.New("found")
	err = p.walkTar(t.path, func(h *tar.Header, r io.Reader) error {
		if path.Clean(strings.TrimPrefix(h.Name, "./")) != want {
			return nil
		}
		found = true
		b, err := io.ReadAll(r)
		out = b
		if err != nil {
			return err
		}
		return errStop
	})
	if err != nil && !errors.Is(err, errStop) {
		return nil, err
	}
	if !found {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return &memberFile{Reader: bytes.NewReader(out), info: fi}, nil
}

// fill caches the members of t when they fit, evicting the archives used
// least recently.
func (p *packedFS) fill(t *tarIndex) error {
	p.mu.Lock()
	if t.data != nil || t.size > packedCache {
		p.mu.Unlock()
		return nil
	}
	p.mu.Unlock()
	data := map[string][]byte{}
	err := p.walkTar(t.path, func(h *tar.Header, r io.Reader) error {
		if h.Typeflag != tar.TypeReg {
			return nil
		}
		n := path.Clean(strings.TrimPrefix(h.Name, "./"))
		if t.strip != "" {
			n = strings.TrimPrefix(n, t.strip+"/")
		}
		b, err := io.ReadAll(r)
		data[n] = b
		return err
	})
	if err != nil {
		return err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if t.data != nil {
		return nil
	}
	for p.used+t.size > packedCache {
		var old *tarIndex
		for _, o := range p.tars {
			if o.data != nil && (old == nil || o.last < old.last) {
				old = o
			}
		}
		if old == nil {
			break
		}
		p.used -= old.size
		old.data = nil
	}
	t.data = data
	p.used += t.size
	return nil
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

type gzFile struct {
	f    fs.File
	zr   *gzip.Reader
	info fs.FileInfo
}

func (g *gzFile) Read(b []byte) (int, error) { return g.zr.Read(b) }
func (g *gzFile) Stat() (fs.FileInfo, error) { return g.info, nil }
func (g *gzFile) Close() error               { g.zr.Close(); return g.f.Close() }

type memberFile struct {
	*bytes.Reader
	info fs.FileInfo
}

func (m *memberFile) Stat() (fs.FileInfo, error) { return m.info, nil }
func (m *memberFile) Close() error               { return nil }

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
