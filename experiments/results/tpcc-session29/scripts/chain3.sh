#!/usr/bin/env bash
cd /tmp/s29
for r in "new3 N5" "base B6" "new3 N6"; do set -- $r; bash tpcc.sh $1 $2; done
echo done > /tmp/s29/chain3.done
