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
4 processes, 30000 rows-per-process, 35 seconds, 3428.5 rows-per-second, 857.1 rows-per-second-per-user, 495536 queries, 14158.1 queries-per-second, yes deletes

iostat, vmstat normalized by insert rate
nsamp	r/s	rMB/s	w/s	wMB/s	r/i	rKB/i	w/i	wKB/i	ips
35	31.6	0.4	1375.0	24.6	0.009	0.116	0.401	7.333	3428.5

nsamp	cs/s	cpu/s	cs/q	cpu/q
37	31690	95.3	9.243	0.027796

iostat, vmstat normalized by query rate
nsamp	r/s	rMB/s	w/s	wMB/s	r/q	rKB/q	w/q	wKB/q	qps
35	31.6	0.4	1375.0	24.6	0.002	0.028	0.097	1.776	14158.1

nsamp	cs/s	cpu/s	cs/q	cpu/q
37	31690	95.3	2.238	0.006731

average values from iostat for vda
r/s	rkB/s	rrqm/s	%rrqm	r_await	rareq-s	w/s	wkB/s	wrqm/s	%wrqm	w_await	wareq-s	d/s	dkB/s	drqm/s	%drqm	d_await	dareq-s	f/s	f_await	aqu-sz	%util	
32.17	402.3	0.824	1.680	0.347	14.25	1404.0	25786.4	3.853	0.217	0.686	12.46	0.324	653.5	0.000	0.000	0.039	109.2	107.3	0.054	1.222	5.022	

dbGB	1.745
dbdirGB	2.774	../../pgdata.c1

postgres 10765  1.4  0.2 222540 56116 ?        Ss   18:25   0:00 postgres: root ib 127.0.0.1(44076) idle

Max insert
0.210
0.046
0.042
Max delete
0.041
0.041
0.024
Max query
0.219
0.050
0.021

Insert rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Insert rt:         0         0        38       539        23         0         0         0         0         0    0.045504
Insert rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Insert rt:         0         0        68       493        39         0         0         0         0         0    0.042401
Insert rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Insert rt:         0         0       135       443        21         1         0         0         0         0    0.210110
Insert rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Insert rt:         0         0       131       456        13         0         0         0         0         0    0.036838

Delete rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Delete rt:         0         5       238       348         9         0         0         0         0         0    0.040993
Delete rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Delete rt:         0         4       208       383         5         0         0         0         0         0    0.041149
Delete rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Delete rt:         0        15       294       286         5         0         0         0         0         0    0.020988
Delete rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Delete rt:         0        26       301       271         2         0         0         0         0         0    0.023733

 Query rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
 Query rt:     97180     22808      4178       180         3         3         0         0         0         0    0.219032
 Query rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
 Query rt:    112977     16775      4781       295         4         0         0         0         0         0    0.049878
 Query rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
 Query rt:     86513     25145      3477       174         3         0         0         0         0         0    0.021038
 Query rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
 Query rt:     90911     26788      3197       143         1         0         0         0         0         0    0.021149

insert, delete and query rate at nth percentile
50th, 16 / 31 = 1000 insert, 1000 delete, 3503 query
75th, 23 / 31 = 999 insert, 998 delete, 3199 query
90th, 28 / 31 = 996 insert, 950 delete, 2733 query
95th, 29 / 31 = 950 insert, 950 delete, 2656 query
99th, 31 / 31 = 50 insert, 50 delete, 288 query
50th, 16 / 31 = 1000 insert, 1000 delete, 4479 query
75th, 23 / 31 = 990 insert, 950 delete, 3471 query
90th, 28 / 31 = 950 insert, 900 delete, 2985 query
95th, 29 / 31 = 948 insert, 898 delete, 2730 query
99th, 31 / 31 = 50 insert, 50 delete, 160 query
50th, 16 / 31 = 1000 insert, 1000 delete, 3503 query
75th, 23 / 31 = 999 insert, 999 delete, 3183 query
90th, 28 / 31 = 997 insert, 995 delete, 2815 query
95th, 29 / 31 = 995 insert, 950 delete, 2783 query
99th, 31 / 31 = 50 insert, 50 delete, 720 query
50th, 16 / 31 = 1000 insert, 1000 delete, 3481 query
75th, 23 / 31 = 998 insert, 998 delete, 3375 query
90th, 28 / 31 = 950 insert, 950 delete, 2831 query
95th, 29 / 31 = 950 insert, 948 delete, 2767 query
99th, 31 / 31 = 50 insert, 50 delete, 336 query

CPU seconds
client: 2.86 user, 1.56 system, 4.4 total
dbms: 0.0
