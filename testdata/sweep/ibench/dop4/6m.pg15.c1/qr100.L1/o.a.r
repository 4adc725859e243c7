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
4 processes, 3000 rows-per-process, 34 seconds, 352.9 rows-per-second, 88.2 rows-per-second-per-user, 574672 queries, 16902.1 queries-per-second, yes deletes

iostat, vmstat normalized by insert rate
nsamp	r/s	rMB/s	w/s	wMB/s	r/i	rKB/i	w/i	wKB/i	ips
35	275.9	3.5	706.9	8.3	0.782	10.088	2.003	23.958	352.9

nsamp	cs/s	cpu/s	cs/q	cpu/q
37	33628	95.2	95.291	0.269658

iostat, vmstat normalized by query rate
nsamp	r/s	rMB/s	w/s	wMB/s	r/q	rKB/q	w/q	wKB/q	qps
35	275.9	3.5	706.9	8.3	0.016	0.211	0.042	0.500	16902.1

nsamp	cs/s	cpu/s	cs/q	cpu/q
37	33628	95.2	1.990	0.005630

average values from iostat for vda
r/s	rkB/s	rrqm/s	%rrqm	r_await	rareq-s	w/s	wkB/s	wrqm/s	%wrqm	w_await	wareq-s	d/s	dkB/s	drqm/s	%drqm	d_await	dareq-s	f/s	f_await	aqu-sz	%util	
265.7	3496.6	0.265	0.268	0.569	12.49	727.2	8681.8	1.559	0.208	0.735	15.59	0.000	0.000	0.000	0.000	0.000	0.000	15.94	0.063	0.714	4.611	

dbGB	1.745
dbdirGB	2.774	../../pgdata.c1

postgres  5042  0.1  0.1 222540 26856 ?        Ss   18:23   0:00 postgres: root ib 127.0.0.1(42804) idle

Max insert
0.027
0.027
0.024
Max delete
0.016
0.012
0.011
Max query
0.024
0.019
0.015

Insert rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Insert rt:         0         0         2        51         7         0         0         0         0         0    0.026854
Insert rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Insert rt:         0         0         3        52         5         0         0         0         0         0    0.023515
Insert rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Insert rt:         0         0         0        57         3         0         0         0         0         0    0.023970
Insert rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Insert rt:         0         0         1        57         2         0         0         0         0         0    0.026637

Delete rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Delete rt:         0         0        27        32         1         0         0         0         0         0    0.016187
Delete rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Delete rt:         0         1        39        20         0         0         0         0         0         0    0.010856
Delete rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Delete rt:         0         1        36        23         0         0         0         0         0         0    0.010822
Delete rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Delete rt:         0         0        35        25         0         0         0         0         0         0    0.011628

 Query rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
 Query rt:    136329     14432      3002        93         0         0         0         0         0         0    0.014526
 Query rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
 Query rt:    101239     17497      3643       148         1         0         0         0         0         0    0.019386
 Query rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
 Query rt:    103308     18045      4008       110         1         0         0         0         0         0    0.023974
 Query rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
 Query rt:    157273     12684      2783        76         0         0         0         0         0         0    0.015365

insert, delete and query rate at nth percentile
50th, 15 / 30 = 100 insert, 100 delete, 5455 query
75th, 22 / 30 = 100 insert, 100 delete, 4478 query
90th, 27 / 30 = 100 insert, 50 delete, 4110 query
95th, 28 / 30 = 50 insert, 50 delete, 3749 query
99th, 30 / 30 = 50 insert, 50 delete, 2942 query
50th, 16 / 31 = 100 insert, 100 delete, 3663 query
75th, 23 / 31 = 100 insert, 100 delete, 3519 query
90th, 28 / 31 = 100 insert, 100 delete, 3055 query
95th, 29 / 31 = 100 insert, 100 delete, 2783 query
99th, 31 / 31 = 50 insert, 50 delete, 32 query
50th, 16 / 31 = 100 insert, 100 delete, 3981 query
75th, 23 / 31 = 100 insert, 100 delete, 3455 query
90th, 28 / 31 = 100 insert, 50 delete, 3087 query
95th, 29 / 31 = 50 insert, 50 delete, 2878 query
99th, 31 / 31 = 50 insert, i_dps delete, 80 query
50th, 16 / 31 = 100 insert, 100 delete, 5406 query
75th, 23 / 31 = 100 insert, 100 delete, 4895 query
90th, 28 / 31 = 100 insert, 100 delete, 4094 query
95th, 29 / 31 = 100 insert, 100 delete, 3967 query
99th, 31 / 31 = 50 insert, 50 delete, 144 query

CPU seconds
client: 3.45 user, 1.88 system, 5.3 total
dbms: 0.0
