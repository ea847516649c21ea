#!/usr/bin/env bash
cd /tmp/s29
for r in "new2 N3" "base B4" "new2 N4" "base B5"; do set -- $r; bash tpcc.sh $1 $2; done
echo done > /tmp/s29/chain2.done
