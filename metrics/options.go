package metrics

// Options control how a step is summarized. The zero Options are the
// default (correct) mode.
type Options struct {
	// Compat reproduces the original scripts byte for byte, quirks included.
	Compat bool
	// Cores is the number of CPUs of the database host, needed for cpupq.
	// 0 means unknown: cpupq is then NA (default mode) or computed with the
	// CPU count of the iostat banner, with a warning.
	Cores int
	// PsUser selects the DBMS processes in the ps samples (the original's
	// user parameter). "" means the user owning the largest process.
	PsUser string
	// Device is the block device of the database. "" means the device with
	// the most I/O in the step's iostat file.
	Device string
	// ExtraRows is the number of rows loaded by l.i0; the create-index step
	// counts them as indexed rows. ComputeTree fills it in.
	ExtraRows int64
	// ScanGen chooses the definition of the sysbench scan "qps", a row
	// rate that changed meaning over time: ScanGenRowsPerRun,
	// ScanGenRowsPerScanRate or ScanGenRowsPerLatency. 0 means the current
	// one, ScanGenRowsPerLatency.
	ScanGen int
	// Engine, when set, is the engine label of every sysbench folder in
	// the sb.r lines and the summaries' labels ("innodb", "rocksdb",
	// "pgsql"). Without it the label is the --mysql-storage-engine of the
	// prepare or run command, "innodb" for --db-driver=mysql without one,
	// else the driver.
	Engine string
	// Stall holds the thresholds of stall detection and of the SLA of
	// rate-limited steps; the zero value takes DefaultStallOptions.
	Stall StallOptions
	// RunNoise is the run-to-run relative standard deviation of one run's
	// mean throughput (0.01 for 1%), the term the within-noise rule adds
	// to the two runs' intervals (stats.NoiseBound); 0 means
	// stats.DefaultRunNoise.
	RunNoise float64
	// SeriesPoints is the most points each per-interval series of client 1
	// keeps (StepResult.Series, decimated as Decimate does); 0, or a value
	// below 2, means MaxSeriesPoints. The series are only drawn: a report
	// that draws no charts (Markdown, text) needs of each only whether it
	// is zero throughout, which 2 points (its lowest and highest) tell, and
	// saves the memory of the others (report.LoadOptions.NoIntervalPoints).
	SeriesPoints int
}

// seriesPoints is SeriesPoints, or MaxSeriesPoints for 0 or a value below 2.
func (o Options) seriesPoints() int {
	if o.SeriesPoints < 2 {
		return MaxSeriesPoints
	}
	return o.SeriesPoints
}
