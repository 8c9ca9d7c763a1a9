#!/bin/bash
# Thirty-seventh session, call 4 (the machine of call 3, warm): RoPE single
# calls (L2 flushed, bench/side_by_side.py) at 16384 and 128 tokens, the
# packs of fa4b33b against call 3's code, alternated twice: does the wait's
# new place move RoPE's bandwidth?
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
mkdir -p build/packs_old && tar -C build/packs_old -xJf build/carry/old.tar.xz || exit 1
NEW=$KP_PACK_DIR OLD=$PWD/build/packs_old
for i in 1 2; do for p in old new; do for t in 16384 128; do
  d=$OLD; [ $p = new ] && d=$NEW
  el "$p$i $t"
  KP_PACK_DIR=$d CUDA_VISIBLE_DEVICES=0 timeout $(left 200) python3 bench/side_by_side.py --ops rope --tokens $t \
    --no-compile --reps 100 --json $R/side_${p}${i}_$t.json 2>&1 | grep -vE "$F" > $R/side_${p}${i}_$t.log
  grep -E "^rope " $R/side_${p}${i}_$t.log | cut -c1-120
done; done; done
lanes_finish
