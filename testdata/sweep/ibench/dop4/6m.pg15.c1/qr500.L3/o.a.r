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
4 processes, 15000 rows-per-process, 35 seconds, 1714.2 rows-per-second, 428.5 rows-per-second-per-user, 555408 queries, 15868.8 queries-per-second, yes deletes

iostat, vmstat normalized by insert rate
nsamp	r/s	rMB/s	w/s	wMB/s	r/i	rKB/i	w/i	wKB/i	ips
35	72.8	0.9	1364.7	21.6	0.042	0.527	0.796	12.904	1714.2

nsamp	cs/s	cpu/s	cs/q	cpu/q
37	33724	95.4	19.673	0.055656

iostat, vmstat normalized by query rate
nsamp	r/s	rMB/s	w/s	wMB/s	r/q	rKB/q	w/q	wKB/q	qps
35	72.8	0.9	1364.7	21.6	0.005	0.057	0.086	1.394	15868.8

nsamp	cs/s	cpu/s	cs/q	cpu/q
37	33724	95.4	2.125	0.006012

average values from iostat for vda
r/s	rkB/s	rrqm/s	%rrqm	r_await	rareq-s	w/s	wkB/s	wrqm/s	%wrqm	w_await	wareq-s	d/s	dkB/s	drqm/s	%drqm	d_await	dareq-s	f/s	f_await	aqu-sz	%util	
69.71	865.9	0.000	0.000	0.297	12.38	1398.1	22709.4	2.659	0.068	0.796	15.36	0.294	1.294	0.000	0.000	0.015	0.647	63.78	0.068	1.390	4.713	

dbGB	1.745
dbdirGB	2.774	../../pgdata.c1

postgres 23932  0.6  0.1 222540 37332 ?        Ss   18:24   0:00 postgres: root ib 127.0.0.1(50972) idle

Max insert
0.019
0.018
0.017
Max delete
0.021
0.017
0.013
Max query
0.044
0.040
0.038

Insert rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Insert rt:         0         0        27       267         6         0         0         0         0         0    0.018184
Insert rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Insert rt:         0         0        21       276         3         0         0         0         0         0    0.019085
Insert rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Insert rt:         0         0        36       263         1         0         0         0         0         0    0.016454
Insert rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Insert rt:         0         0        47       252         1         0         0         0         0         0    0.017059

Delete rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Delete rt:         0         6       172       118         4         0         0         0         0         0    0.021239
Delete rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Delete rt:         0         6       182       112         0         0         0         0         0         0    0.013282
Delete rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Delete rt:         0         5       191       104         0         0         0         0         0         0    0.013392
Delete rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Delete rt:         0         9       186       104         1         0         0         0         0         0    0.017315

 Query rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
 Query rt:    129287     15581      3447       115         2         0         0         0         0         0    0.039800
 Query rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
 Query rt:    113518     17449      3511        97         1         0         0         0         0         0    0.037060
 Query rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
 Query rt:    114562     14166      4129       196         3         0         0         0         0         0    0.037698
 Query rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
 Query rt:    119599     16205      3445        92         3         0         0         0         0         0    0.043668

insert, delete and query rate at nth percentile
50th, 16 / 31 = 500 insert, 500 delete, 4623 query
75th, 23 / 31 = 500 insert, 500 delete, 4046 query
90th, 28 / 31 = 499 insert, 499 delete, 3887 query
95th, 29 / 31 = 499 insert, 499 delete, 3693 query
99th, 31 / 31 = 50 insert, 50 delete, 128 query
50th, 16 / 31 = 500 insert, 500 delete, 4479 query
75th, 23 / 31 = 500 insert, 500 delete, 3871 query
90th, 28 / 31 = 497 insert, 497 delete, 3207 query
95th, 29 / 31 = 496 insert, 496 delete, 3163 query
99th, 31 / 31 = 50 insert, 50 delete, 320 query
50th, 16 / 31 = 500 insert, 500 delete, 4526 query
75th, 23 / 31 = 500 insert, 500 delete, 3423 query
90th, 28 / 31 = 499 insert, 499 delete, 2959 query
95th, 29 / 31 = 496 insert, 496 delete, 2959 query
99th, 31 / 31 = 50 insert, 50 delete, 256 query
50th, 16 / 31 = 500 insert, 500 delete, 4399 query
75th, 23 / 31 = 499 insert, 499 delete, 4031 query
90th, 28 / 31 = 450 insert, 400 delete, 3806 query
95th, 29 / 31 = 450 insert, 350 delete, 3135 query
99th, 31 / 31 = 50 insert, 50 delete, 336 query

CPU seconds
client: 3.16 user, 1.75 system, 4.9 total
dbms: 5.0
