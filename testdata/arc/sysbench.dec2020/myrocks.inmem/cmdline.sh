nr=10000000; ns=90; bash cmp_rx.sh 1 $nr $ns /home/mdcallag/d /home/mdcallag/d/sysbench /data/m nvme0n1 1 1 2 3 4
