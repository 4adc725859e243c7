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
1 processes, 3000 rows-per-process, 31 seconds, 96.7 rows-per-second, 96.7 rows-per-second-per-user, 216208 queries, 6974.4 queries-per-second, yes deletes

iostat, vmstat normalized by insert rate
nsamp	r/s	rMB/s	w/s	wMB/s	r/i	rKB/i	w/i	wKB/i	ips
31	100.0	1.2	98.2	1.5	1.034	13.023	1.015	16.310	96.7

nsamp	cs/s	cpu/s	cs/q	cpu/q
33	26210	39.8	271.048	0.411770

iostat, vmstat normalized by query rate
nsamp	r/s	rMB/s	w/s	wMB/s	r/q	rKB/q	w/q	wKB/q	qps
31	100.0	1.2	98.2	1.5	0.014	0.181	0.014	0.226	6974.4

nsamp	cs/s	cpu/s	cs/q	cpu/q
33	26210	39.8	3.758	0.005709

average values from iostat for vda
r/s	rkB/s	rrqm/s	%rrqm	r_await	rareq-s	w/s	wkB/s	wrqm/s	%wrqm	w_await	wareq-s	d/s	dkB/s	drqm/s	%drqm	d_await	dareq-s	f/s	f_await	aqu-sz	%util	
70.37	1043.2	0.033	0.064	0.262	14.32	100.7	1602.3	0.000	0.000	0.622	32.12	0.000	0.000	0.000	0.000	0.000	0.000	5.033	0.054	0.113	1.093	

dbGB	1.718
dbdirGB	2.747	../../pgdata.c1

postgres 28324  0.1  0.1 222512 27196 ?        Ss   18:02   0:00 postgres: root ib 127.0.0.1(53082) idle

Max insert
0.011
Max delete
0.005
Max query
0.008

Insert rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Insert rt:         0         0         7        53         0         0         0         0         0         0    0.011302

Delete rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Delete rt:         0        12        47         1         0         0         0         0         0         0    0.005381

 Query rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
 Query rt:    214338      1721       134        15         0         0         0         0         0         0    0.007969

insert, delete and query rate at nth percentile
50th, 16 / 31 = 100 insert, 100 delete, 7116 query
75th, 23 / 31 = 100 insert, 100 delete, 6735 query
90th, 28 / 31 = 100 insert, 50 delete, 6062 query
95th, 29 / 31 = 100 insert, 50 delete, 5870 query
99th, 31 / 31 = 50 insert, i_dps delete, 16 query

CPU seconds
client: 5.45 user, 5.56 system, 11.0 total
dbms: 15.0
