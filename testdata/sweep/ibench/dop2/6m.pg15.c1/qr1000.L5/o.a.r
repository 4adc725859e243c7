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
2 processes, 30000 rows-per-process, 32 seconds, 1875.0 rows-per-second, 937.5 rows-per-second-per-user, 533984 queries, 16687.0 queries-per-second, yes deletes

iostat, vmstat normalized by insert rate
nsamp	r/s	rMB/s	w/s	wMB/s	r/i	rKB/i	w/i	wKB/i	ips
32	7.9	0.2	1422.2	19.4	0.004	0.084	0.758	10.583	1875.0

nsamp	cs/s	cpu/s	cs/q	cpu/q
34	38580	95.7	20.576	0.051027

iostat, vmstat normalized by query rate
nsamp	r/s	rMB/s	w/s	wMB/s	r/q	rKB/q	w/q	wKB/q	qps
32	7.9	0.2	1422.2	19.4	0.000	0.009	0.085	1.189	16687.0

nsamp	cs/s	cpu/s	cs/q	cpu/q
34	38580	95.7	2.312	0.005734

average values from iostat for vda
r/s	rkB/s	rrqm/s	%rrqm	r_await	rareq-s	w/s	wkB/s	wrqm/s	%wrqm	w_await	wareq-s	d/s	dkB/s	drqm/s	%drqm	d_await	dareq-s	f/s	f_await	aqu-sz	%util	
7.446	146.0	3.355	6.085	0.223	19.65	1458.1	20397.4	15.29	0.813	0.735	11.94	0.484	718.3	0.000	0.000	0.020	90.77	67.34	0.056	1.235	3.185	

dbGB	1.726
dbdirGB	2.755	../../pgdata.c1

postgres 12372  1.3  0.2 222516 57304 ?        Ss   18:17   0:00 postgres: root ib 127.0.0.1(36322) idle

Max insert
0.090
0.037
Max delete
0.100
0.023
Max query
0.086
0.073

Insert rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Insert rt:         0         0       127       452        21         0         0         0         0         0    0.037097
Insert rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Insert rt:         0         0       139       442        18         1         0         0         0         0    0.089975

Delete rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Delete rt:         0        31       310       244        15         0         0         0         0         0    0.023406
Delete rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Delete rt:         0        23       287       269        20         1         0         0         0         0    0.099733

 Query rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
 Query rt:    263642      4016      2513       455        13         1         0         0         0         0    0.073119
 Query rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
 Query rt:    255884      4337      2665       445        12         1         0         0         0         0    0.085631

insert, delete and query rate at nth percentile
50th, 16 / 31 = 1000 insert, 1000 delete, 8510 query
75th, 23 / 31 = 991 insert, 991 delete, 6423 query
90th, 28 / 31 = 948 insert, 850 delete, 5615 query
95th, 29 / 31 = 900 insert, 800 delete, 5423 query
99th, 31 / 31 = 50 insert, 50 delete, 800 query
50th, 16 / 31 = 1000 insert, 1000 delete, 8990 query
75th, 23 / 31 = 998 insert, 998 delete, 6850 query
90th, 28 / 31 = 993 insert, 993 delete, 6204 query
95th, 29 / 31 = 985 insert, 985 delete, 6136 query
99th, 31 / 31 = 50 insert, 50 delete, 1888 query

CPU seconds
client: 4.50 user, 2.90 system, 7.4 total
dbms: 0.0
