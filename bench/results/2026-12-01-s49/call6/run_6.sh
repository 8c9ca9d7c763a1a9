#!/bin/bash
# forty-ninth session, call 6: softmax's 512 x 2 in one CTA of 48 KiB ranked
# for 16-bit rows of 12289-24576 at any alignment -- ops_gpu, graph_gpu; the
# changed shapes against main's sm_90a pack (packs_old) in turns, two rounds
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
mkdir -p build/packs_old && xz -dc build/carry/packs_old.tar.xz | tar -C build/packs_old -xf - || exit 1
GPU=0
gpu_suite ops.log 60 ops_gpu
gpu_suite graph.log 100 graph_gpu
SH=8192x13823,8192x14336,4096x16384,4096x18943,4096x18944,4096x20480,4096x22001,4096x24576,8192x12288,4096x28672
i=0
for round in 1 2; do
  for which in old new; do
    i=$((i + 1))
    el "ab $which $round"
    if [ $which = old ]; then PD=$PWD/build/packs_old; else PD=$PWD/build/packs; fi
    KP_PACK_DIR=$PD timeout $(left $((100 + 35 * i))) python3 bench/side_by_side.py --ops softmax \
      --shapes $SH --no-compile --reps 20 --warmup 4 --json $R/ab_${which}_$round.json > $R/ab_${which}_$round.log 2>&1
    echo "rc=$?"
  done
done
for f in $R/ab_*.log; do echo "== $f"; grep -E "^ *softmax " $f | cut -c1-150; done
lanes_finish
