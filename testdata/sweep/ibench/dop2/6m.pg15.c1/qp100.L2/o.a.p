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
2 processes, 3000 rows-per-process, 31 seconds, 193.5 rows-per-second, 96.7 rows-per-second-per-user, 152832 queries, 4930.0 queries-per-second, yes deletes

iostat, vmstat normalized by insert rate
nsamp	r/s	rMB/s	w/s	wMB/s	r/i	rKB/i	w/i	wKB/i	ips
31	217.4	2.2	423.2	5.4	1.123	11.689	2.187	28.596	193.5

nsamp	cs/s	cpu/s	cs/q	cpu/q
33	18098	95.6	93.527	0.494088

iostat, vmstat normalized by query rate
nsamp	r/s	rMB/s	w/s	wMB/s	r/q	rKB/q	w/q	wKB/q	qps
31	217.4	2.2	423.2	5.4	0.044	0.459	0.086	1.122	4930.0

nsamp	cs/s	cpu/s	cs/q	cpu/q
33	18098	95.6	3.671	0.019393

average values from iostat for vda
r/s	rkB/s	rrqm/s	%rrqm	r_await	rareq-s	w/s	wkB/s	wrqm/s	%wrqm	w_await	wareq-s	d/s	dkB/s	drqm/s	%drqm	d_await	dareq-s	f/s	f_await	aqu-sz	%util	
206.8	2129.8	1.167	0.545	0.250	10.43	430.0	5422.2	33.83	3.032	0.650	18.44	31.44	1787.0	0.000	0.000	0.138	18.75	8.374	0.050	0.413	2.352	

dbGB	1.720
dbdirGB	2.750	../../pgdata.c1

postgres  7498  0.1  0.1 222516 32216 ?        Ss   18:15   0:00 postgres: root ib 127.0.0.1(59110) idle

Max insert
0.039
0.034
Max delete
0.034
0.018
Max query
0.251
0.246

Insert rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Insert rt:         0         0         1        56         3         0         0         0         0         0    0.038913
Insert rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Insert rt:         0         0         0        53         7         0         0         0         0         0    0.033763

Delete rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Delete rt:         0         2        39        18         1         0         0         0         0         0    0.017875
Delete rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Delete rt:         0         0        34        25         1         0         0         0         0         0    0.034215

 Query rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
 Query rt:     50245     13108      4244       795        49         7         0         0         0         0    0.250857
 Query rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
 Query rt:     67936     11711      3936       763        32         6         0         0         0         0    0.245530

insert, delete and query rate at nth percentile
50th, 16 / 31 = 100 insert, 100 delete, 2432 query
75th, 23 / 31 = 100 insert, 100 delete, 1711 query
90th, 28 / 31 = 100 insert, 98 delete, 1008 query
95th, 29 / 31 = 98 insert, 50 delete, 830 query
99th, 31 / 31 = 50 insert, 50 delete, 16 query
50th, 15 / 30 = 100 insert, 100 delete, 2816 query
75th, 22 / 30 = 100 insert, 100 delete, 2382 query
90th, 27 / 30 = 50 insert, 50 delete, 2224 query
95th, 28 / 30 = 50 insert, 50 delete, 2224 query
99th, 30 / 30 = 50 insert, i_dps delete, 1632 query

CPU seconds
client: 2.36 user, 1.15 system, 3.5 total
dbms: 0.0
