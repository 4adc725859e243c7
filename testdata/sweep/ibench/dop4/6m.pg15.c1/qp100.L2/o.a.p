TODO: reset Postgres replication
Before perf loops
After perf loops
Fork loops 1 of 4
Fork loops 2 of 4
Fork loops 3 of 4
Fork loops 4 of 4
rates
per interval
TODO reset replication state
ERROR:  relation "pg_stat_io" does not exist
LINE 1: select * from pg_stat_io
                      ^
4 processes, 3000 rows-per-process, 34 seconds, 352.9 rows-per-second, 88.2 rows-per-second-per-user, 250656 queries, 7372.2 queries-per-second, yes deletes

iostat, vmstat normalized by insert rate
nsamp	r/s	rMB/s	w/s	wMB/s	r/i	rKB/i	w/i	wKB/i	ips
34	424.6	4.2	668.9	8.3	1.203	12.121	1.895	24.169	352.9

nsamp	cs/s	cpu/s	cs/q	cpu/q
36	17208	94.9	48.762	0.269041

iostat, vmstat normalized by query rate
nsamp	r/s	rMB/s	w/s	wMB/s	r/q	rKB/q	w/q	wKB/q	qps
34	424.6	4.2	668.9	8.3	0.058	0.580	0.091	1.157	7372.2

nsamp	cs/s	cpu/s	cs/q	cpu/q
36	17208	94.9	2.334	0.012879

average values from iostat for vda
r/s	rkB/s	rrqm/s	%rrqm	r_await	rareq-s	w/s	wkB/s	wrqm/s	%wrqm	w_await	wareq-s	d/s	dkB/s	drqm/s	%drqm	d_await	dareq-s	f/s	f_await	aqu-sz	%util	
352.6	3628.0	0.303	0.520	0.300	11.65	678.0	8683.7	3.667	0.431	0.482	22.22	0.000	0.000	0.000	0.000	0.000	0.000	15.96	0.064	0.564	3.588	

dbGB	1.745
dbdirGB	2.774	../../pgdata.c1

postgres 14833  0.1  0.1 222540 30664 ?        Ss   18:23   0:00 postgres: root ib 127.0.0.1(43700) idle

Max insert
0.042
0.033
0.026
Max delete
0.026
0.016
0.014
Max query
0.025
0.018
0.015

Insert rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Insert rt:         0         0         0        54         6         0         0         0         0         0    0.032760
Insert rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Insert rt:         0         0         0        48        12         0         0         0         0         0    0.025310
Insert rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Insert rt:         0         0         0        52         8         0         0         0         0         0    0.025699
Insert rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Insert rt:         0         0         1        47        12         0         0         0         0         0    0.042173

Delete rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Delete rt:         0         0        36        22         2         0         0         0         0         0    0.026352
Delete rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Delete rt:         0         1        35        24         0         0         0         0         0         0    0.014484
Delete rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Delete rt:         0         0        24        36         0         0         0         0         0         0    0.013321
Delete rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Delete rt:         0         3        35        21         1         0         0         0         0         0    0.016115

 Query rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
 Query rt:     17690     43738      3829       103         0         0         0         0         0         0    0.013362
 Query rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
 Query rt:     13199     46413      3647       148         1         0         0         0         0         0    0.025244
 Query rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
 Query rt:     11586     42087      4213       129         1         0         0         0         0         0    0.017623
 Query rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
 Query rt:     19191     40445      4104       148         0         0         0         0         0         0    0.015497

insert, delete and query rate at nth percentile
50th, 15 / 30 = 100 insert, 100 delete, 2144 query
75th, 22 / 30 = 100 insert, 100 delete, 2011 query
90th, 27 / 30 = 100 insert, 99 delete, 1888 query
95th, 28 / 30 = 99 insert, 50 delete, 1886 query
99th, 30 / 30 = 50 insert, 50 delete, 1792 query
50th, 16 / 31 = 100 insert, 100 delete, 2143 query
75th, 23 / 31 = 100 insert, 100 delete, 1983 query
90th, 28 / 31 = 100 insert, 50 delete, 1678 query
95th, 29 / 31 = 100 insert, 50 delete, 1599 query
99th, 31 / 31 = 50 insert, 0 delete, 32 query
50th, 16 / 31 = 100 insert, 100 delete, 1950 query
75th, 23 / 31 = 100 insert, 50 delete, 1856 query
90th, 28 / 31 = 100 insert, 50 delete, 1551 query
95th, 29 / 31 = 50 insert, 50 delete, 1351 query
99th, 31 / 31 = 50 insert, i_dps delete, 16 query
50th, 16 / 31 = 100 insert, 100 delete, 1968 query
75th, 23 / 31 = 100 insert, 100 delete, 1824 query
90th, 28 / 31 = 100 insert, 50 delete, 1647 query
95th, 29 / 31 = 50 insert, 50 delete, 1471 query
99th, 31 / 31 = 50 insert, i_dps delete, 112 query

CPU seconds
client: 2.50 user, 1.20 system, 3.7 total
dbms: 0.0
