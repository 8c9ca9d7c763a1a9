#!/bin/bash
# forty-fourth session, call 9: what the weight's L2 reads cost the staged
# norms on long odd rows -- the landed pack against one whose write passes
# read w from L1 (w_l1_exp.patch; timing only, its outputs are wrong), in turns
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
mkdir -p /tmp/wl1 && xz -dc build/carry/sm_90a_wl1.kpk.xz > /tmp/wl1/sm_90a.kpk
for k in 1 2; do
  for P in landed wl1; do
    D=$KP_PACK_DIR; [ $P = wl1 ] && D=/tmp/wl1
    el "$P $k"
    KP_PACK_DIR=$D timeout $(left $((100 + 110 * k))) python3 bench/side_by_side.py --ops rmsnorm,add_rmsnorm,rmsnorm_swiglu \
      --shapes 512x151937,512x199999,1024x128257,2048x50257,4096x32001 --no-compile --reps 50 \
      --json $R/side_${P}_$k.json > $R/side_${P}_$k.log 2>&1
    echo "$P $k rc=$?"; grep -E "^(rmsnorm|add_rmsnorm|rmsnorm_swiglu) " $R/side_${P}_$k.log | cut -c1-150
  done
done
lanes_finish
