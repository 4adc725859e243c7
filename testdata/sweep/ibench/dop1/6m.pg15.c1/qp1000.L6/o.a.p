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
1 processes, 30000 rows-per-process, 31 seconds, 967.7 rows-per-second, 967.7 rows-per-second-per-user, 157744 queries, 5088.5 queries-per-second, yes deletes

iostat, vmstat normalized by insert rate
nsamp	r/s	rMB/s	w/s	wMB/s	r/i	rKB/i	w/i	wKB/i	ips
31	151.1	5.1	1228.0	16.5	0.156	5.357	1.269	17.472	967.7

nsamp	cs/s	cpu/s	cs/q	cpu/q
33	19983	80.2	20.650	0.082858

iostat, vmstat normalized by query rate
nsamp	r/s	rMB/s	w/s	wMB/s	r/q	rKB/q	w/q	wKB/q	qps
31	151.1	5.1	1228.0	16.5	0.030	1.019	0.241	3.323	5088.5

nsamp	cs/s	cpu/s	cs/q	cpu/q
33	19983	80.2	3.927	0.015757

average values from iostat for vda
r/s	rkB/s	rrqm/s	%rrqm	r_await	rareq-s	w/s	wkB/s	wrqm/s	%wrqm	w_await	wareq-s	d/s	dkB/s	drqm/s	%drqm	d_await	dareq-s	f/s	f_await	aqu-sz	%util	
150.3	5303.9	0.033	0.014	0.634	22.19	1257.2	17364.1	2.633	0.637	0.870	12.52	0.133	0.800	0.000	0.000	0.000	0.400	36.40	0.052	1.562	3.573	

dbGB	1.718
dbdirGB	2.747	../../pgdata.c1

postgres 31665  1.6  0.3 222512 96024 ?        Ss   18:04   0:00 postgres: root ib 127.0.0.1(58394) idle

Max insert
0.074
Max delete
0.073
Max query
0.057

Insert rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Insert rt:         0         0       295       303         1         1         0         0         0         0    0.074439

Delete rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Delete rt:         0        63       337       198         1         1         0         0         0         0    0.073298

 Query rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
 Query rt:    146123     10864       664        91         2         0         0         0         0         0    0.057435

insert, delete and query rate at nth percentile
50th, 16 / 31 = 1000 insert, 1000 delete, 5550 query
75th, 23 / 31 = 1000 insert, 950 delete, 4366 query
90th, 28 / 31 = 950 insert, 900 delete, 4110 query
95th, 29 / 31 = 900 insert, 900 delete, 3647 query
99th, 31 / 31 = 50 insert, 50 delete, 240 query

CPU seconds
client: 5.25 user, 2.30 system, 7.5 total
dbms: 1.0
