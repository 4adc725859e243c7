// Package stats holds the statistics ibreport uses that know nothing of
// benchmarks: they take plain float64 series and return numbers.
//
//   - MeanInterval: a confidence interval for the mean of a series whose
//     successive samples may be correlated (an AR(1) variance with a
//     bias-corrected autocorrelation), marked low-confidence with the
//     reason where the series holds too little independent information;
//     NoiseBound and WithinNoise, whether a ratio of two such means is
//     inside their noise plus a run-to-run term.
//   - MannWhitneyU (exact for small samples without ties), Holm's
//     step-down adjustment, Median and the order-statistic MedianInterval:
//     the tests of `ibreport diff` over replicated runs.
//   - ChangePoints: where the level of an ordered series (releases, nightly
//     runs) shifted — E-divisive means locates each split and a two-sample
//     t judges it against a threshold calibrated by simulation for the
//     number of members; a one-member level (a one-release dip) has a test
//     of its own. Its false-alarm and detection rates against Otava's own
//     algorithm (re-implemented in otava_test.go) are in its tests.
//   - RunNoise: the run-to-run noise of one test learned from the runs of
//     one level (nightly runs after their last change point), from
//     successive differences so that a level shift the search missed
//     inflates it little; PoolRunNoise pools it over series.
//
// Everything here is deterministic: the same input gives the same output.
// It is internal: packages metrics and report call it, and its API may
// change with them.
package stats
