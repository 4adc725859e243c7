// Package parse reads raw insert-benchmark (iibench) result trees into typed
// records: client logs, vmstat, iostat, ps samples, /usr/bin/time output,
// database sizes and the per-step o.res summary, plus the derived mrg/rel
// tables that users archive.
//
// For sysbench, FindSysbenchDirs locates the x.<dbms>.<cnf>.pk<n> result
// folders (also inside res.dop<N>.… groupings) and lists their tests and
// thread counts from the file names sb.o.<testType>.range<r>.pk<n>.dop<nt>;
// ReadSysbench reads one sysbench output (final report of 1.0 and 1.1,
// per-interval lines, the Load seconds line of the prepare log), and
// ReadSysbenchRun reads it with the vmstat, iostat, ps and time files of the
// same run. ReadSysbenchGroups and ReadSysbenchExtra read the user's test
// grouping and extra per-query columns (CSV, via gocsv).
//
// Every low-level reader takes an io.Reader and the name to cite in errors,
// streams its input line by line with bufio, and returns the well-formed
// records together with an ErrorList of non-fatal *SyntaxError values that
// point at "file:line". I/O errors are returned as they are and are fatal.
// Only ReadTree and ReadStep walk directories, and they do so through an
// fs.FS so that tests can use fstest.MapFS or os.DirFS.
//
// A value that breaks the rule of its quantity (Plausible) is such an error,
// and its record is not returned. A vmstat sample whose CPU columns sum past
// what vmstat prints (PlausibleCPU) and an iostat row with %util above
// MaxUtil are returned, marked Implausible: the original scripts used them,
// so compat mode does, and package metrics leaves them out with a warning.
//
// Records keep the values exactly as printed where the original report
// scripts copied tokens verbatim; computations belong to package metrics.
//
// # Stability
//
// The readers (ReadTree, ReadStep, the Read* functions of each input file,
// FindSysbenchDirs, ReadSysbench, ReadSysbenchRun), their record types and
// SyntaxError and ErrorList are stable: fields and functions may be added,
// not renamed or removed. Plausibility limits (Plausible, MaxUtil, …) are
// documented in docs/formats.md and may be tightened when a real input
// shows a rule wrong.
package parse
