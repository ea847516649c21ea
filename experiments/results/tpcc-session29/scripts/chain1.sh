#!/usr/bin/env bash
cd /tmp/s29
for r in "new1 N1" "base B2" "new1 N2" "base B3"; do set -- $r; bash tpcc.sh $1 $2; done
echo done > /tmp/s29/chain1.done
