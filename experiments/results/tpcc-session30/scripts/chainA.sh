./lmg.sh h0 G0 ""
./lmg.sh h0 S1 "-XX:+UseShenandoahGC"
./lmg.sh h0 P1 "-XX:MaxGCPauseMillis=10"
