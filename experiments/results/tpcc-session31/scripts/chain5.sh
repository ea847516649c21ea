#!/usr/bin/env bash
cd /tmp/s31
./lmg.sh h0 L3 ""
./lmg.sh h0 L4 ""
echo done
