# gcbench.sh ARM MODE
java -Xmx2g -Xlog:gc+phases=debug:file=/tmp/s30/gcb-$1-$2.log -cp $(cat /tmp/arms/$1/cp.txt) org.elastras.experiments.store.MemtableGcBenchmark --mode $2 --seconds 20 --out /tmp/s30/gcb-$1 | grep mode
grep "Scan Heap Roots" /tmp/s30/gcb-$1-$2.log | awk '{gsub(",","",$(NF-2)); s+=$(NF-2); n++} END {printf "  ScanHR sum over workers per GC %.2f ms (%d GCs)\n", s/n, n}'
grep "Object Copy" /tmp/s30/gcb-$1-$2.log | awk '{gsub(",","",$(NF-2)); s+=$(NF-2); n++} END {printf "  ObjCopy per GC %.2f ms\n", s/n}'
