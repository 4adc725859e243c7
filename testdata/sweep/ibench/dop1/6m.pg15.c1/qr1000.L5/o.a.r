TODO: reset Postgres replication
Before perf loops
After perf loops
Fork loops 1 of 1
rates
per interval
TODO reset replication state
ERROR:  relation "pg_stat_io" does not exist
LINE 1: select * from pg_stat_io
                      ^
1 processes, 30000 rows-per-process, 31 seconds, 967.7 rows-per-second, 967.7 rows-per-second-per-user, 271856 queries, 8769.5 queries-per-second, yes deletes

iostat, vmstat normalized by insert rate
nsamp	r/s	rMB/s	w/s	wMB/s	r/i	rKB/i	w/i	wKB/i	ips
31	178.7	4.3	1200.5	14.0	0.185	4.594	1.241	14.825	967.7

nsamp	cs/s	cpu/s	cs/q	cpu/q
33	29186	48.2	30.160	0.049821

iostat, vmstat normalized by query rate
nsamp	r/s	rMB/s	w/s	wMB/s	r/q	rKB/q	w/q	wKB/q	qps
31	178.7	4.3	1200.5	14.0	0.020	0.507	0.137	1.636	8769.5

nsamp	cs/s	cpu/s	cs/q	cpu/q
33	29186	48.2	3.328	0.005498

average values from iostat for vda
r/s	rkB/s	rrqm/s	%rrqm	r_await	rareq-s	w/s	wkB/s	wrqm/s	%wrqm	w_await	wareq-s	d/s	dkB/s	drqm/s	%drqm	d_await	dareq-s	f/s	f_await	aqu-sz	%util	
179.6	4479.5	2.167	1.214	0.372	14.55	1240.3	14806.8	1.833	0.009	0.889	12.54	0.967	5.067	0.000	0.000	0.057	2.178	39.00	0.066	1.373	3.320	

dbGB	1.718
dbdirGB	2.747	../../pgdata.c1

postgres 30800  1.2  0.2 222512 53740 ?        Ss   18:04   0:00 postgres: root ib 127.0.0.1(57624) idle

Max insert
0.034
Max delete
0.037
Max query
0.047

Insert rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Insert rt:         0         0       476       122         2         0         0         0         0         0    0.033520

Delete rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Delete rt:         0       217       329        51         3         0         0         0         0         0    0.036663

 Query rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
 Query rt:    270128      1392       322        13         1         0         0         0         0         0    0.046831

insert, delete and query rate at nth percentile
50th, 16 / 31 = 1000 insert, 1000 delete, 8366 query
75th, 23 / 31 = 999 insert, 998 delete, 7861 query
90th, 28 / 31 = 950 insert, 950 delete, 7273 query
95th, 29 / 31 = 950 insert, 900 delete, 6911 query
99th, 31 / 31 = 50 insert, 50 delete, 320 query

CPU seconds
client: 5.79 user, 5.55 system, 11.3 total
dbms: 15.0
