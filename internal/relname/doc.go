// Package relname reads the build names of the benchmark scripts as
// releases: x.ma100230_rel_withdbg.z12a_c32r128.pk1 is MariaDB 10.2.30,
// build rel withdbg, config z12a, my.cnf size class c32r128. The report orders
// sysbench folders by version and tells a release archive's story with it.
//
// # Stability
//
// Internal: it may change with the report.
package relname
