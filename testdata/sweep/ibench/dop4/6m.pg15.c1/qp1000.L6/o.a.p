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
4 processes, 30000 rows-per-process, 34 seconds, 3529.4 rows-per-second, 882.3 rows-per-second-per-user, 182736 queries, 5374.5 queries-per-second, yes deletes

iostat, vmstat normalized by insert rate
nsamp	r/s	rMB/s	w/s	wMB/s	r/i	rKB/i	w/i	wKB/i	ips
34	49.9	0.4	1189.0	35.4	0.014	0.127	0.337	10.284	3529.4

nsamp	cs/s	cpu/s	cs/q	cpu/q
36	14255	93.3	4.039	0.026445

iostat, vmstat normalized by query rate
nsamp	r/s	rMB/s	w/s	wMB/s	r/q	rKB/q	w/q	wKB/q	qps
34	49.9	0.4	1189.0	35.4	0.009	0.083	0.221	6.754	5374.5

nsamp	cs/s	cpu/s	cs/q	cpu/q
36	14255	93.3	2.652	0.017366

average values from iostat for vda
r/s	rkB/s	rrqm/s	%rrqm	r_await	rareq-s	w/s	wkB/s	wrqm/s	%wrqm	w_await	wareq-s	d/s	dkB/s	drqm/s	%drqm	d_await	dareq-s	f/s	f_await	aqu-sz	%util	
51.12	461.1	6.182	6.975	0.409	10.69	1209.7	37270.9	3.121	0.284	0.584	24.99	9.273	1274.1	0.000	0.000	0.038	137.4	81.49	0.061	1.133	4.799	

dbGB	1.745
dbdirGB	2.774	../../pgdata.c1

postgres 21141  1.8  0.3 222540 91252 ?        Ss   18:26   0:00 postgres: root ib 127.0.0.1(51654) idle

Max insert
0.076
0.073
0.048
Max delete
0.066
0.036
0.032
Max query
0.087
0.065
0.050

Insert rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Insert rt:         0         0        34       418       148         0         0         0         0         0    0.048064
Insert rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Insert rt:         0         0        11       439       149         1         0         0         0         0    0.072657
Insert rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Insert rt:         0         0        30       455       114         1         0         0         0         0    0.076409
Insert rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Insert rt:         0         0        27       415       158         0         0         0         0         0    0.041361

Delete rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Delete rt:         0         6       138       386        70         0         0         0         0         0    0.036393
Delete rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Delete rt:         0         0        66       440        94         0         0         0         0         0    0.031712
Delete rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Delete rt:         0         0        87       440        73         0         0         0         0         0    0.032349
Delete rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Delete rt:         0         2        82       406       109         1         0         0         0         0    0.066405

 Query rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
 Query rt:     16512     25392      5182       746         8         0         0         0         0         0    0.047858
 Query rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
 Query rt:     16091     22057      5442       913         8         1         0         0         0         0    0.064887
 Query rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
 Query rt:     11450     26935      4950       738         6         1         0         0         0         0    0.087261
 Query rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
 Query rt:     15959     24510      5063       761        11         0         0         0         0         0    0.049868

insert, delete and query rate at nth percentile
50th, 16 / 31 = 1000 insert, 1000 delete, 1328 query
75th, 23 / 31 = 998 insert, 999 delete, 1152 query
90th, 28 / 31 = 950 insert, 997 delete, 992 query
95th, 29 / 31 = 949 insert, 950 delete, 992 query
99th, 31 / 31 = 50 insert, 50 delete, 192 query
50th, 16 / 31 = 1000 insert, 1000 delete, 1312 query
75th, 23 / 31 = 1000 insert, 1000 delete, 1224 query
90th, 28 / 31 = 999 insert, 999 delete, 1008 query
95th, 29 / 31 = 993 insert, 993 delete, 992 query
99th, 31 / 31 = 50 insert, 50 delete, 320 query
50th, 16 / 31 = 1000 insert, 1000 delete, 1360 query
75th, 23 / 31 = 999 insert, 999 delete, 1264 query
90th, 28 / 31 = 998 insert, 998 delete, 1088 query
95th, 29 / 31 = 987 insert, 987 delete, 1072 query
99th, 31 / 31 = 50 insert, 50 delete, 288 query
50th, 16 / 31 = 1000 insert, 1000 delete, 1312 query
75th, 23 / 31 = 999 insert, 998 delete, 1216 query
90th, 28 / 31 = 996 insert, 996 delete, 1040 query
95th, 29 / 31 = 950 insert, 950 delete, 990 query
99th, 31 / 31 = 50 insert, 50 delete, 224 query

CPU seconds
client: 2.29 user, 0.88 system, 3.2 total
dbms: 0.0
