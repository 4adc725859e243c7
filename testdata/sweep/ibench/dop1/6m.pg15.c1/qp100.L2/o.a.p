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
1 processes, 3000 rows-per-process, 31 seconds, 96.7 rows-per-second, 96.7 rows-per-second-per-user, 114160 queries, 3682.5 queries-per-second, yes deletes

iostat, vmstat normalized by insert rate
nsamp	r/s	rMB/s	w/s	wMB/s	r/i	rKB/i	w/i	wKB/i	ips
31	701.8	8.2	317.6	3.3	7.258	87.280	3.285	34.911	96.7

nsamp	cs/s	cpu/s	cs/q	cpu/q
33	14755	42.8	152.585	0.442481

iostat, vmstat normalized by query rate
nsamp	r/s	rMB/s	w/s	wMB/s	r/q	rKB/q	w/q	wKB/q	qps
31	701.8	8.2	317.6	3.3	0.191	2.292	0.086	0.917	3682.5

nsamp	cs/s	cpu/s	cs/q	cpu/q
33	14755	42.8	4.007	0.011619

average values from iostat for vda
r/s	rkB/s	rrqm/s	%rrqm	r_await	rareq-s	w/s	wkB/s	wrqm/s	%wrqm	w_await	wareq-s	d/s	dkB/s	drqm/s	%drqm	d_await	dareq-s	f/s	f_await	aqu-sz	%util	
444.1	5362.9	0.033	0.001	0.163	13.15	315.7	3373.3	1.700	0.094	0.779	19.75	0.000	0.000	0.000	0.000	0.000	0.000	4.267	0.062	0.445	2.307	

dbGB	1.718
dbdirGB	2.747	../../pgdata.c1

postgres 28943  0.1  0.1 222512 31384 ?        Ss   18:02   0:00 postgres: root ib 127.0.0.1(55416) idle

Max insert
0.015
Max delete
0.005
Max query
0.007

Insert rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Insert rt:         0         0         0        60         0         0         0         0         0         0    0.015392

Delete rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Delete rt:         0        14        45         1         0         0         0         0         0         0    0.004561

 Query rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
 Query rt:     77940     35794       412        14         0         0         0         0         0         0    0.006657

insert, delete and query rate at nth percentile
50th, 16 / 31 = 100 insert, 100 delete, 3823 query
75th, 23 / 31 = 100 insert, 100 delete, 3631 query
90th, 28 / 31 = 100 insert, 100 delete, 3423 query
95th, 29 / 31 = 100 insert, 100 delete, 2127 query
99th, 31 / 31 = 50 insert, 50 delete, 16 query

CPU seconds
client: 4.66 user, 3.30 system, 8.0 total
dbms: 0.0
