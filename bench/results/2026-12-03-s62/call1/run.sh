#!/bin/bash
# The decode's lazy rescale (bench/NOTES.md 100; written by the sixty-first
# session, whose device time ran out before it ran): O and the row sums
# rescaled only where a tile's maximum passes the reference by more than
# 2^8, one vote a warp -- cuDNN's decode issues half our instructions (NOTES
# 99) and the rescale is 64 of our ~580 a 16-key tile.  Before the build:
# save main's sm_90a pack (`tar -C build/packs-whole -chf - sm_90a.kpk | xz >
# build/carry/packs_old.tar.xz`), then `git apply
# bench/results/next/lazy_rescale.patch` (templates/attention.lua, and a
# decode test at 64x scale whose maximum moves after the first tiles),
# `make packs-whole build/tests/check_kernpack`, carry the packs
# (bench/lanes.sh), copy this script to build/carry/ and run it: (1) side
# by side in turns with main's pack, decode d128 batch 8 / 1, bf16, two
# rounds; (2) float64 over every decode variant, both dtypes; the whole
# attention_gpu suite afterwards if it lands.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
old_pack || echo "old_pack failed"
for k in 1 2; do
  for which in old new; do
    if [ $which = old ]; then pd=$PWD/build/packs_old; else pd=$PWD/build/packs; fi
    KP_PACK_DIR=$pd timeout $(left $((40 * k + 20))) python3 bench/attn_bench.py --decode-only \
      --decode-batches 8,1 --decode-dims 128 --reps 30 > $R/dec_${which}_$k.log 2>&1
    echo "dec $which $k rc=$?"; grep -E "^bfloat16" $R/dec_${which}_$k.log | cut -c1-130
  done
done
el "f64 decode"
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 KP_TEST_TIMES=1 CK_RUN_SUITE=attention_gpu CK_RUN_CASE=attention \
  KP_TEST_ONLY="_dec_" timeout $(left 450) build/tests/check_kernpack > $R/f64.log 2>&1
echo "f64 rc=$?"; grep -E "Checks|:[EF]:|TIME|left out" $R/f64.log | head -8 | cut -c1-200
lanes_finish
