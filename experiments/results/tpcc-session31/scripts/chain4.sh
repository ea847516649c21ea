#!/usr/bin/env bash
cd /tmp/s31
./lmg.sh h0 L1 ""
./lmg.sh h0 L2 ""
echo done
