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
2 processes, 3000 rows-per-process, 31 seconds, 193.5 rows-per-second, 96.7 rows-per-second-per-user, 353872 queries, 11415.2 queries-per-second, yes deletes

iostat, vmstat normalized by insert rate
nsamp	r/s	rMB/s	w/s	wMB/s	r/i	rKB/i	w/i	wKB/i	ips
32	111.5	1.3	370.4	5.4	0.576	6.956	1.914	28.584	193.5

nsamp	cs/s	cpu/s	cs/q	cpu/q
34	30962	95.8	160.010	0.494908

iostat, vmstat normalized by query rate
nsamp	r/s	rMB/s	w/s	wMB/s	r/q	rKB/q	w/q	wKB/q	qps
32	111.5	1.3	370.4	5.4	0.010	0.118	0.032	0.485	11415.2

nsamp	cs/s	cpu/s	cs/q	cpu/q
34	30962	95.8	2.712	0.008389

average values from iostat for vda
r/s	rkB/s	rrqm/s	%rrqm	r_await	rareq-s	w/s	wkB/s	wrqm/s	%wrqm	w_await	wareq-s	d/s	dkB/s	drqm/s	%drqm	d_await	dareq-s	f/s	f_await	aqu-sz	%util	
102.4	1290.3	6.312	2.946	0.250	11.96	382.1	5685.6	53.06	3.405	0.764	18.67	26.80	407.6	0.000	0.000	0.532	75.46	8.378	0.077	0.385	3.761	

dbGB	1.720
dbdirGB	2.749	../../pgdata.c1

postgres  6494  0.1  0.1 222516 27272 ?        Ss   18:15   0:00 postgres: root ib 127.0.0.1(54096) idle

Max insert
0.285
0.268
Max delete
0.279
0.266
Max query
0.254
0.134

Insert rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Insert rt:         0         0         8        35        13         3         1         0         0         0    0.268168
Insert rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Insert rt:         0         0         2        45        11         1         1         0         0         0    0.284946

Delete rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Delete rt:         0         4        34        17         2         2         1         0         0         0    0.265776
Delete rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Delete rt:         0         2        38        15         4         0         1         0         0         0    0.279146

 Query rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
 Query rt:    159241      6245      2456       519        48        19         0         0         0         0    0.254096
 Query rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
 Query rt:    175535      6622      2533       606        40         8         0         0         0         0    0.134098

insert, delete and query rate at nth percentile
50th, 16 / 31 = 100 insert, 100 delete, 5277 query
75th, 23 / 31 = 98 insert, 98 delete, 4399 query
90th, 28 / 31 = 50 insert, 50 delete, 3369 query
95th, 29 / 31 = 47 insert, 50 delete, 2775 query
99th, 31 / 31 = 0 insert, i_dps delete, 48 query
50th, 15 / 30 = 100 insert, 100 delete, 5918 query
75th, 22 / 30 = 99 insert, 100 delete, 5408 query
90th, 27 / 30 = 50 insert, 50 delete, 4714 query
95th, 28 / 30 = 0 insert, 47 delete, 4703 query
99th, 30 / 30 = 0 insert, 0 delete, 4565 query

CPU seconds
client: 3.02 user, 2.02 system, 5.0 total
dbms: 0.0
