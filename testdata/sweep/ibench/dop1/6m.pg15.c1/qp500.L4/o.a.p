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
1 processes, 15000 rows-per-process, 31 seconds, 483.8 rows-per-second, 483.8 rows-per-second-per-user, 114608 queries, 3697.0 queries-per-second, yes deletes

iostat, vmstat normalized by insert rate
nsamp	r/s	rMB/s	w/s	wMB/s	r/i	rKB/i	w/i	wKB/i	ips
31	209.2	2.8	915.9	11.4	0.432	5.832	1.893	24.102	483.8

nsamp	cs/s	cpu/s	cs/q	cpu/q
33	14355	44.3	29.670	0.091510

iostat, vmstat normalized by query rate
nsamp	r/s	rMB/s	w/s	wMB/s	r/q	rKB/q	w/q	wKB/q	qps
31	209.2	2.8	915.9	11.4	0.057	0.763	0.248	3.154	3697.0

nsamp	cs/s	cpu/s	cs/q	cpu/q
33	14355	44.3	3.883	0.011975

average values from iostat for vda
r/s	rkB/s	rrqm/s	%rrqm	r_await	rareq-s	w/s	wkB/s	wrqm/s	%wrqm	w_await	wareq-s	d/s	dkB/s	drqm/s	%drqm	d_await	dareq-s	f/s	f_await	aqu-sz	%util	
198.5	2702.9	0.333	0.362	0.412	13.01	935.9	11954.1	2.367	0.590	0.669	16.89	0.000	0.000	0.000	0.000	0.000	0.000	20.23	0.054	0.987	2.880	

dbGB	1.718
dbdirGB	2.747	../../pgdata.c1

postgres 30182  0.6  0.2 222512 57800 ?        Ss   18:03   0:00 postgres: root ib 127.0.0.1(50020) idle

Max insert
0.013
Max delete
0.009
Max query
0.097

Insert rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Insert rt:         0         0       162       138         0         0         0         0         0         0    0.012733

Delete rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Delete rt:         0       101       189        10         0         0         0         0         0         0    0.009162

 Query rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
 Query rt:     76428     37845       317        17         0         1         0         0         0         0    0.097063

insert, delete and query rate at nth percentile
50th, 16 / 31 = 500 insert, 500 delete, 3807 query
75th, 23 / 31 = 500 insert, 500 delete, 3583 query
90th, 28 / 31 = 500 insert, 500 delete, 3103 query
95th, 29 / 31 = 499 insert, 450 delete, 3087 query
99th, 31 / 31 = 50 insert, 50 delete, 80 query

CPU seconds
client: 4.76 user, 3.55 system, 8.3 total
dbms: 18.0
