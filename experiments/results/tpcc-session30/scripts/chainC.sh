./lmg.sh ht HT1 ""
./lmg.sh h0 H01 ""
