package parse

import (
	"io"
	"slices"
	"strings"
)

// SysbenchMet is an sb.met file (sb.met.<sfx>.dop<nt>, or
// sb.prepare.met.<sfx0> for the load) as an.sh wrote it after a run: the
// iostat and vmstat averages, per second and divided by the operation
// rate (FORMATS.md §5.10):
//
//	iostat, vmstat normalized by operation rate
//	samp	r/s	rMB/s	w/s	wMB/s	r/o	rKB/o	wKB/o	o/s
//	635	1.0	0.0	1364.6	133.5	0.000	0.000	0.281	486779.38
//
//	samp	cs/s	cpu/s	cs/o	cpu/o
//	665	1372650	81.5	2.820	0.000167
//
// Archives keep it where the vmstat and iostat files are gone. Cells are
// TAB-separated; an.sh left the sample count empty when there were no
// samples and printed -nan or inf for a division by zero.
type SysbenchMet struct {
	Name  string
	Lines []string // every line as read
	// IostatCols and VmstatCols are the header cells (lines 2 and 5);
	// Iostat and Vmstat the data lines below them as written (lines 3 and
	// 6), "" when absent, and IostatLine and VmstatLine their line numbers
	// (0 when absent).
	IostatCols, VmstatCols []string
	Iostat, Vmstat         string
	IostatLine, VmstatLine int
}

// IostatValue returns the cell of the iostat line under the header col
// ("r/o", "o/s", …) and whether the line has it.
func (m *SysbenchMet) IostatValue(col string) (string, bool) {
	if m == nil {
		return "", false
	}
	return metCell(m.IostatCols, m.Iostat, m.IostatLine, col)
}

// VmstatValue returns the cell of the vmstat line under the header col
// ("cs/o", "cpu/o", …) and whether the line has it.
func (m *SysbenchMet) VmstatValue(col string) (string, bool) {
	if m == nil {
		return "", false
	}
	return metCell(m.VmstatCols, m.Vmstat, m.VmstatLine, col)
}

func metCell(cols []string, line string, n int, col string) (string, bool) {
	i := slices.Index(cols, col)
	if n == 0 || i < 0 {
		return "", false
	}
	cells := strings.Split(line, "\t")
	if i >= len(cells) {
		return "", false
	}
	return cells[i], true
}

// ReadSysbenchMet reads an sb.met file. A header line starts with "samp";
// the iostat header has "r/s", the vmstat header "cs/s"; the line after a
// header holds its values. A data line with another number of cells than
// its header, or a file without one of the two blocks, is a syntax error.
func ReadSysbenchMet(r io.Reader, name string) (*SysbenchMet, error) {
	m := &SysbenchMet{Name: name}
	var errs ErrorList
	sc := newLineScanner(r)
	defer sc.release()
	var pending *[]string // the header whose data line comes next
	lines := 0
	for sc.Scan() {
		n, line := sc.n, sc.Text()
		lines = n
		m.Lines = append(m.Lines, line)
		if sc.long || binaryJunk(line) {
			errs.add(name, n, "binary data or overlong line")
			pending = nil
			continue
		}
		cells := strings.Split(line, "\t")
		switch {
		case cells[0] == "samp" && slices.Contains(cells, "r/s") && m.IostatCols == nil:
			m.IostatCols, pending = cells, &m.IostatCols
		case cells[0] == "samp" && slices.Contains(cells, "cs/s") && m.VmstatCols == nil:
			m.VmstatCols, pending = cells, &m.VmstatCols
		case pending == &m.IostatCols:
			m.Iostat, m.IostatLine, pending = line, n, nil
			if len(cells) != len(m.IostatCols) {
				errs.add(name, n, "iostat line has %d cells, its header %d", len(cells), len(m.IostatCols))
			}
		case pending == &m.VmstatCols:
			m.Vmstat, m.VmstatLine, pending = line, n, nil
			if len(cells) != len(m.VmstatCols) {
				errs.add(name, n, "vmstat line has %d cells, its header %d", len(cells), len(m.VmstatCols))
			}
		}
	}
	if err := sc.Err(); err != nil {
		return m, err
	}
	switch {
	case lines == 0:
		errs.add(name, 0, "empty file")
	case m.IostatLine == 0 && m.VmstatLine == 0:
		errs.add(name, 1, "no iostat or vmstat block (samp r/s … / samp cs/s …)")
	case m.IostatLine == 0:
		errs.add(name, lines, "no iostat block (samp r/s …)")
	case m.VmstatLine == 0:
		errs.add(name, lines, "no vmstat block (samp cs/s …)")
	}
	return m, errs.inOrder().Err()
}
