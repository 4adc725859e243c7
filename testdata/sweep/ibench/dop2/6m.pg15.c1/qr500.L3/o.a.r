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
2 processes, 15000 rows-per-process, 32 seconds, 937.5 rows-per-second, 468.7 rows-per-second-per-user, 541248 queries, 16914.0 queries-per-second, yes deletes

iostat, vmstat normalized by insert rate
nsamp	r/s	rMB/s	w/s	wMB/s	r/i	rKB/i	w/i	wKB/i	ips
32	422.3	8.1	1030.7	13.8	0.450	8.802	1.099	15.070	937.5

nsamp	cs/s	cpu/s	cs/q	cpu/q
34	38682	95.6	41.261	0.101961

iostat, vmstat normalized by query rate
nsamp	r/s	rMB/s	w/s	wMB/s	r/q	rKB/q	w/q	wKB/q	qps
32	422.3	8.1	1030.7	13.8	0.025	0.488	0.061	0.835	16914.0

nsamp	cs/s	cpu/s	cs/q	cpu/q
34	38682	95.6	2.287	0.005651

average values from iostat for vda
r/s	rkB/s	rrqm/s	%rrqm	r_await	rareq-s	w/s	wkB/s	wrqm/s	%wrqm	w_await	wareq-s	d/s	dkB/s	drqm/s	%drqm	d_await	dareq-s	f/s	f_await	aqu-sz	%util	
429.5	8458.6	2.803	2.173	0.474	13.44	1060.8	14529.7	31.61	1.637	0.827	15.13	7.543	787.8	0.000	0.000	0.198	105.2	40.15	0.104	1.951	4.498	

dbGB	1.722
dbdirGB	2.751	../../pgdata.c1

postgres  8877  0.5  0.1 222516 38472 ?        Ss   18:16   0:00 postgres: root ib 127.0.0.1(42436) idle

Max insert
0.148
0.047
Max delete
0.070
0.022
Max query
0.136
0.118

Insert rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Insert rt:         0         0        36       239        23         2         0         0         0         0    0.147633
Insert rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Insert rt:         0         0        38       247        15         0         0         0         0         0    0.047449

Delete rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Delete rt:         0        14       149       132         5         0         0         0         0         0    0.022066
Delete rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Delete rt:         0        11       156       129         3         1         0         0         0         0    0.070001

 Query rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
 Query rt:    251299      4516      3067       581        21         4         0         0         0         0    0.117653
 Query rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
 Query rt:    274192      4420      2575       544        25         4         0         0         0         0    0.135700

insert, delete and query rate at nth percentile
50th, 16 / 31 = 500 insert, 500 delete, 8605 query
75th, 23 / 31 = 500 insert, 500 delete, 6798 query
90th, 28 / 31 = 496 insert, 496 delete, 4860 query
95th, 29 / 31 = 496 insert, 449 delete, 4815 query
99th, 31 / 31 = 50 insert, 50 delete, 303 query
50th, 16 / 31 = 500 insert, 500 delete, 9342 query
75th, 23 / 31 = 500 insert, 500 delete, 6207 query
90th, 28 / 31 = 498 insert, 498 delete, 4498 query
95th, 29 / 31 = 495 insert, 495 delete, 4495 query
99th, 31 / 31 = 50 insert, 50 delete, 608 query

CPU seconds
client: 4.10 user, 2.83 system, 6.9 total
dbms: 0.0
