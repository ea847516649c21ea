#!/usr/bin/env bash
# mkarm.sh SRC ARM: copy module jars of SRC checkout into /tmp/arms/ARM with a classpath file
set -e
src=$1; arm=$2; d=/tmp/arms/$arm
rm -rf $d; mkdir -p $d
for m in storage-dfs otm client-lib catalog tm-master experiments; do cp $src/$m/target/$m-0.1.0-SNAPSHOT.jar $d/; done
cp $src/storage-dfs/target/storage-dfs-0.1.0-SNAPSHOT-tests.jar $d/ 2>/dev/null || true
cp=$(ls $d/*.jar | tr '\n' ':')
echo "$cp$(tr ':' '\n' < /tmp/exp-cp.txt | grep -v /target/ | tr '\n' ':')" > $d/cp.txt
echo armed $d
