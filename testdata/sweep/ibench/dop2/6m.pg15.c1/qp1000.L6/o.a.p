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
2 processes, 30000 rows-per-process, 33 seconds, 1818.1 rows-per-second, 909.0 rows-per-second-per-user, 150208 queries, 4551.7 queries-per-second, yes deletes

iostat, vmstat normalized by insert rate
nsamp	r/s	rMB/s	w/s	wMB/s	r/i	rKB/i	w/i	wKB/i	ips
33	8.8	0.1	1286.0	22.2	0.005	0.082	0.707	12.524	1818.1

nsamp	cs/s	cpu/s	cs/q	cpu/q
35	16363	95.8	9.000	0.052708

iostat, vmstat normalized by query rate
nsamp	r/s	rMB/s	w/s	wMB/s	r/q	rKB/q	w/q	wKB/q	qps
33	8.8	0.1	1286.0	22.2	0.002	0.033	0.283	5.002	4551.7

nsamp	cs/s	cpu/s	cs/q	cpu/q
35	16363	95.8	3.595	0.021053

average values from iostat for vda
r/s	rkB/s	rrqm/s	%rrqm	r_await	rareq-s	w/s	wkB/s	wrqm/s	%wrqm	w_await	wareq-s	d/s	dkB/s	drqm/s	%drqm	d_await	dareq-s	f/s	f_await	aqu-sz	%util	
8.247	147.2	1.750	3.886	0.184	9.129	1314.6	23379.4	27.03	3.037	0.790	23.59	35.80	1462.6	0.000	0.000	0.086	58.52	55.59	0.059	1.225	4.148	

dbGB	1.728
dbdirGB	2.758	../../pgdata.c1

postgres 13509  1.8  0.3 222516 91140 ?        Ss   18:18   0:00 postgres: root ib 127.0.0.1(45944) idle

Max insert
0.060
0.054
Max delete
0.080
0.052
Max query
0.196
0.137

Insert rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Insert rt:         0         0        52       488        60         0         0         0         0         0    0.054045
Insert rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Insert rt:         0         0        71       482        47         0         0         0         0         0    0.059628

Delete rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Delete rt:         0         0       203       361        35         1         0         0         0         0    0.080168
Delete rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Delete rt:         0         0       215       350        35         0         0         0         0         0    0.051514

 Query rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
 Query rt:     53991     19123      3548       705        37         4         0         0         0         0    0.137069
 Query rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
 Query rt:     49989     18505      3540       709        47        10         0         0         0         0    0.195945

insert, delete and query rate at nth percentile
50th, 16 / 31 = 1000 insert, 1000 delete, 2255 query
75th, 23 / 31 = 999 insert, 999 delete, 1739 query
90th, 28 / 31 = 993 insert, 993 delete, 1424 query
95th, 29 / 31 = 947 insert, 947 delete, 1312 query
99th, 31 / 31 = 50 insert, 50 delete, 239 query
50th, 16 / 31 = 999 insert, 999 delete, 2399 query
75th, 23 / 31 = 995 insert, 950 delete, 1814 query
90th, 28 / 31 = 949 insert, 899 delete, 1536 query
95th, 29 / 31 = 942 insert, 895 delete, 1135 query
99th, 31 / 31 = 50 insert, 50 delete, 301 query

CPU seconds
client: 2.83 user, 1.37 system, 4.2 total
dbms: 0.0
