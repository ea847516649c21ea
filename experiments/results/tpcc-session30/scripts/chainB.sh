./lmg.sh pace PA1 "-Delastras.pace.share=0.3"
./lmg.sh pace PB1 ""
./lmg.sh pace PA2 "-Delastras.pace.share=0.3"
./lmg.sh pace PB2 ""
