TODO: reset Postgres replication
Before perf loops
After perf loops
Fork loops 1 of 2
Fork loops 2 of 2
rates
per interval
TODO reset replication state
ERROR:  relation "pg_stat_io" does not exist
LINE 1: select * from pg_stat_io
                      ^
2 processes, 15000 rows-per-process, 33 seconds, 909.0 rows-per-second, 454.5 rows-per-second-per-user, 158000 queries, 4787.8 queries-per-second, yes deletes

iostat, vmstat normalized by insert rate
nsamp	r/s	rMB/s	w/s	wMB/s	r/i	rKB/i	w/i	wKB/i	ips
34	10.9	0.1	1100.9	15.2	0.012	0.097	1.211	17.139	909.0

nsamp	cs/s	cpu/s	cs/q	cpu/q
36	18376	95.9	20.216	0.105458

iostat, vmstat normalized by query rate
nsamp	r/s	rMB/s	w/s	wMB/s	r/q	rKB/q	w/q	wKB/q	qps
34	10.9	0.1	1100.9	15.2	0.002	0.018	0.230	3.254	4787.8

nsamp	cs/s	cpu/s	cs/q	cpu/q
36	18376	95.9	3.838	0.020022

average values from iostat for vda
r/s	rkB/s	rrqm/s	%rrqm	r_await	rareq-s	w/s	wkB/s	wrqm/s	%wrqm	w_await	wareq-s	d/s	dkB/s	drqm/s	%drqm	d_await	dareq-s	f/s	f_await	aqu-sz	%util	
10.66	87.06	0.697	2.694	0.150	6.779	1124.8	15967.3	14.94	1.438	0.525	13.39	36.18	1381.7	0.000	0.000	0.172	12.88	38.24	0.091	0.864	3.126	

dbGB	1.723
dbdirGB	2.752	../../pgdata.c1

postgres 10712  0.6  0.2 222516 55168 ?        Ss   18:17   0:00 postgres: root ib 127.0.0.1(54796) idle

Max insert
0.167
0.097
Max delete
0.169
0.095
Max query
0.182
0.105

Insert rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Insert rt:         0         0        25       246        28         1         0         0         0         0    0.167459
Insert rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Insert rt:         0         0        33       241        24         2         0         0         0         0    0.096655

Delete rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Delete rt:         0         6       134       146        13         1         0         0         0         0    0.169151
Delete rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Delete rt:         0         6       123       161         9         1         0         0         0         0    0.094547

 Query rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
 Query rt:     62295     14889      3517       773        24         6         0         0         0         0    0.182184
 Query rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
 Query rt:     55832     16326      3522       770        39         7         0         0         0         0    0.105177

insert, delete and query rate at nth percentile
50th, 16 / 31 = 500 insert, 500 delete, 2767 query
75th, 23 / 31 = 499 insert, 499 delete, 2096 query
90th, 28 / 31 = 496 insert, 496 delete, 1620 query
95th, 29 / 31 = 485 insert, 485 delete, 1248 query
99th, 31 / 31 = 50 insert, 50 delete, 112 query
50th, 16 / 31 = 500 insert, 500 delete, 2687 query
75th, 23 / 31 = 499 insert, 499 delete, 1920 query
90th, 28 / 31 = 498 insert, 498 delete, 1312 query
95th, 29 / 31 = 495 insert, 495 delete, 1184 query
99th, 31 / 31 = 50 insert, 50 delete, 254 query

CPU seconds
client: 2.77 user, 1.14 system, 3.9 total
dbms: 0.0
