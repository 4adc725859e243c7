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
4 processes, 15000 rows-per-process, 35 seconds, 1714.2 rows-per-second, 428.5 rows-per-second-per-user, 227936 queries, 6512.4 queries-per-second, yes deletes

iostat, vmstat normalized by insert rate
nsamp	r/s	rMB/s	w/s	wMB/s	r/i	rKB/i	w/i	wKB/i	ips
35	198.6	2.5	1207.6	20.2	0.116	1.464	0.704	12.090	1714.2

nsamp	cs/s	cpu/s	cs/q	cpu/q
37	16620	95.7	9.695	0.055845

iostat, vmstat normalized by query rate
nsamp	r/s	rMB/s	w/s	wMB/s	r/q	rKB/q	w/q	wKB/q	qps
35	198.6	2.5	1207.6	20.2	0.030	0.385	0.185	3.182	6512.4

nsamp	cs/s	cpu/s	cs/q	cpu/q
37	16620	95.7	2.552	0.014700

average values from iostat for vda
r/s	rkB/s	rrqm/s	%rrqm	r_await	rareq-s	w/s	wkB/s	wrqm/s	%wrqm	w_await	wareq-s	d/s	dkB/s	drqm/s	%drqm	d_await	dareq-s	f/s	f_await	aqu-sz	%util	
203.3	2575.7	4.559	0.667	0.346	10.89	1230.0	21225.0	3.088	0.112	0.524	12.11	0.324	656.6	0.000	0.000	0.011	94.04	56.54	0.059	1.271	4.176	

dbGB	1.745
dbdirGB	2.774	../../pgdata.c1

postgres  1904  0.6  0.2 222540 59492 ?        Ss   18:25   0:00 postgres: root ib 127.0.0.1(46968) idle

Max insert
0.077
0.052
0.045
Max delete
0.066
0.060
0.044
Max query
0.065
0.030
0.027

Insert rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Insert rt:         0         0        30       251        19         0         0         0         0         0    0.052458
Insert rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Insert rt:         0         0        10       261        29         0         0         0         0         0    0.044894
Insert rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Insert rt:         0         0        23       248        28         1         0         0         0         0    0.077013
Insert rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Insert rt:         0         0        39       254         7         0         0         0         0         0    0.022831

Delete rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Delete rt:         0         4       129       161         6         0         0         0         0         0    0.059673
Delete rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Delete rt:         0         4       117       168        11         0         0         0         0         0    0.044351
Delete rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Delete rt:         0         3       106       182         8         1         0         0         0         0    0.066112
Delete rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Delete rt:         0        10       139       150         1         0         0         0         0         0    0.027514

 Query rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
 Query rt:     19503     36668      4528       207         6         0         0         0         0         0    0.030067
 Query rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
 Query rt:     12944     37449      4742       251         5         1         0         0         0         0    0.065271
 Query rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
 Query rt:     14159     36989      4586       262         4         0         0         0         0         0    0.025384
 Query rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
 Query rt:     15289     35310      4760       268         5         0         0         0         0         0    0.026991

insert, delete and query rate at nth percentile
50th, 16 / 31 = 500 insert, 500 delete, 1888 query
75th, 23 / 31 = 500 insert, 500 delete, 1711 query
90th, 28 / 31 = 499 insert, 499 delete, 1584 query
95th, 29 / 31 = 499 insert, 499 delete, 1420 query
99th, 31 / 31 = 50 insert, 50 delete, 80 query
50th, 16 / 31 = 500 insert, 500 delete, 1727 query
75th, 23 / 31 = 500 insert, 500 delete, 1520 query
90th, 28 / 31 = 499 insert, 499 delete, 1439 query
95th, 29 / 31 = 498 insert, 498 delete, 1360 query
99th, 31 / 31 = 50 insert, 50 delete, 128 query
50th, 15 / 30 = 500 insert, 500 delete, 1872 query
75th, 22 / 30 = 499 insert, 499 delete, 1712 query
90th, 27 / 30 = 499 insert, 480 delete, 1527 query
95th, 28 / 30 = 497 insert, 450 delete, 1488 query
99th, 30 / 30 = 50 insert, 50 delete, 1199 query
50th, 16 / 31 = 500 insert, 500 delete, 1807 query
75th, 23 / 31 = 500 insert, 500 delete, 1567 query
90th, 28 / 31 = 498 insert, 450 delete, 1232 query
95th, 29 / 31 = 450 insert, 450 delete, 1200 query
99th, 31 / 31 = 50 insert, 50 delete, 208 query

CPU seconds
client: 2.48 user, 1.39 system, 3.9 total
dbms: 0.0
