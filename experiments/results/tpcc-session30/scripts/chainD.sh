./lmg.sh ar AR1 ""
./lmg.sh h0 H02 ""
./tpcc.sh ar TA1
./tpcc.sh h0 TH1
./lmg.sh ar AR2 ""
./lmg.sh h0 H03 ""
