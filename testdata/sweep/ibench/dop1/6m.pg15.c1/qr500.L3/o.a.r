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
1 processes, 15000 rows-per-process, 31 seconds, 483.8 rows-per-second, 483.8 rows-per-second-per-user, 229264 queries, 7395.6 queries-per-second, yes deletes

iostat, vmstat normalized by insert rate
nsamp	r/s	rMB/s	w/s	wMB/s	r/i	rKB/i	w/i	wKB/i	ips
31	422.5	6.4	734.9	8.7	0.873	13.585	1.519	18.399	483.8

nsamp	cs/s	cpu/s	cs/q	cpu/q
33	28166	40.3	58.218	0.083243

iostat, vmstat normalized by query rate
nsamp	r/s	rMB/s	w/s	wMB/s	r/q	rKB/q	w/q	wKB/q	qps
31	422.5	6.4	734.9	8.7	0.057	0.889	0.099	1.204	7395.6

nsamp	cs/s	cpu/s	cs/q	cpu/q
33	28166	40.3	3.808	0.005445

average values from iostat for vda
r/s	rkB/s	rrqm/s	%rrqm	r_await	rareq-s	w/s	wkB/s	wrqm/s	%wrqm	w_await	wareq-s	d/s	dkB/s	drqm/s	%drqm	d_await	dareq-s	f/s	f_await	aqu-sz	%util	
402.4	6115.7	1.067	0.308	0.325	14.56	759.2	9186.3	0.967	0.034	0.706	16.16	0.000	0.000	0.000	0.000	0.000	0.000	21.00	0.057	0.702	4.040	

dbGB	1.718
dbdirGB	2.747	../../pgdata.c1

postgres 29563  0.4  0.1 222512 32996 ?        Ss   18:03   0:00 postgres: root ib 127.0.0.1(51288) idle

Max insert
0.013
Max delete
0.004
Max query
0.004

Insert rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Insert rt:         0         0        23       277         0         0         0         0         0         0    0.012753

Delete rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Delete rt:         0       161       139         0         0         0         0         0         0         0    0.003807

 Query rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
 Query rt:    225463      3599       191        11         0         0         0         0         0         0    0.004343

insert, delete and query rate at nth percentile
50th, 16 / 31 = 500 insert, 500 delete, 7710 query
75th, 23 / 31 = 500 insert, 500 delete, 6878 query
90th, 28 / 31 = 500 insert, 450 delete, 6574 query
95th, 29 / 31 = 450 insert, 400 delete, 6286 query
99th, 31 / 31 = 50 insert, 50 delete, 16 query

CPU seconds
client: 5.28 user, 5.57 system, 10.9 total
dbms: 0.0
