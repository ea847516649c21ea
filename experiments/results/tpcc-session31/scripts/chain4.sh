#!/usr/bin/env bash
# chain4.sh RUN...: live-move runs of main, one after another. Ran as "chain4.sh L1 L2", then
# "chain4.sh L3 L4"; C1 was "lmg.sh h0 C1 '-Xlog:class+load=info:file=/tmp/s31/cl-%p.log:uptime'".
cd /tmp/s31
for run in "$@"; do
./lmg.sh h0 $run ""
done
echo done
