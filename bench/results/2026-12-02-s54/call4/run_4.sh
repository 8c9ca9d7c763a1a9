#!/bin/bash
# fifty-fourth session, call 4: RMSNorm's `_pers` over 8 CTAs of 3200 chunks
# ranked for 147457-204793 columns (any residue) -- side by side in turns
# with main's sm_90a pack, two rounds bf16, one f16 (main's pack: the
# kp_keep register change too); ops_gpu and graph_gpu over the packs
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
mkdir -p build/packs_old && xz -dc build/carry/packs_old.tar.xz | tar -C build/packs_old -xf - || exit 1
for f in build/packs/*.kpk; do [ -e build/packs_old/${f##*/} ] || cp -L $f build/packs_old/; done
GPU=0
el "ab"
SH=512x151937,512x199999,512x151936,512x200000,1024x180001,256x199999,768x160001,1024x147457
for round in 1 2; do
  for which in old new; do
    if [ $which = old ]; then PD=$PWD/build/packs_old; else PD=$PWD/build/packs; fi
    KP_PACK_DIR=$PD timeout $(left 300) python3 bench/side_by_side.py --ops rmsnorm --dtypes bf16 \
      --shapes $SH --no-compile --reps 20 --warmup 4 --json $R/ab_${which}_$round.json > $R/ab_${which}_$round.log 2>&1
    echo "ab $which $round rc=$?"
  done
done
for which in old new; do
  if [ $which = old ]; then PD=$PWD/build/packs_old; else PD=$PWD/build/packs; fi
  KP_PACK_DIR=$PD timeout $(left 360) python3 bench/side_by_side.py --ops rmsnorm --dtypes f16 \
    --shapes $SH --no-compile --reps 20 --warmup 4 --json $R/abf_${which}.json > $R/abf_${which}.log 2>&1
  echo "abf $which rc=$?"
done
for f in $R/ab*.log; do echo "== ${f##*/}"; grep -E "^ *rmsnorm " $f | cut -c1-100; done
gpu_suite ops.log 450 ops_gpu
gpu_suite graph.log 520 graph_gpu
lanes_finish
