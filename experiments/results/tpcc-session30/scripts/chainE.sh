./lmg.sh fin AR3 ""
./lmg.sh h0 H04 ""
