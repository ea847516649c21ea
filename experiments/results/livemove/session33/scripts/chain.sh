#!/usr/bin/env bash
# chain.sh ARM:RUN...: live-move runs one after another
cd /tmp/s33
for x in "$@"; do
./lmg.sh ${x%%:*} ${x##*:} ""
done
echo done
