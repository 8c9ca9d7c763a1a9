#!/bin/bash
# Next session's first call (written by the twenty-ninth session, whose
# device budget ran out after its call 6): on an H100 if one is lent (none
# since the twenty-sixth session), else an H200.  Copy to build/carry/,
# carry the packs as build/carry/packs.tar.xz (bench/lanes.sh); it writes its
# shapes file into its results.
# - kp tune over the long odd rows item 63 re-ranked on one H200 run
#   (add+RMSNorm 98305-131072 over 16 CTAs; RMSNorm+SwiGLU past 98304 on
#   the pairs write pass): do the picks hold on this GPU?
# - the odd sweep side by side (GeGLU erf's erfc fit, the GLUs as one row,
#   the re-ranks; on an H100 the last sweep is the twenty-fifth session's);
# - the decode rows beside SDPA (issue 13: paged at batch 1 ran 1.034-1.099x
#   the contiguous time over the last two sessions, the bar 1.05).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
cat > $R/shapes_next.txt <<'S'
add_rmsnorm 1024 128257
rmsnorm_swiglu 1024 128257
rmsnorm_swiglu 512 151937
rmsnorm_swiglu 512 199999
rmsnorm_swiglu 2048 50257
S
el "tune"
timeout $(left 200) build/bin/kp tune --device 0 --families add_rmsnorm,rmsnorm_swiglu \
  --dtypes bf16 --shapes $R/shapes_next.txt -o $R/next.tune > $R/tune.log 2>&1
echo "tune rc=$?"; grep -E "default" $R/tune.log | cut -c1-200
el "odd sweep"
timeout $(left 400) python3 bench/side_by_side.py --shapes-file bench/shapes_odd.txt \
  --json $R/side_odd.json 2>&1 | grep -vE "$F" > $R/side_odd.log; echo "odd rc=$?"
grep -E "^(softmax|rmsnorm|add_|rmsnorm_sw|swiglu|geglu)" $R/side_odd.log | cut -c1-150
el "decode"
timeout $(left 540) python3 bench/attn_bench.py --decode-only --decode-dims 128 --decode-batches 1,8 \
  --reps 30 --json $R/dec.json 2>&1 | grep -vE "$F" > $R/dec.log
grep -E "^bfloat16|decode:" $R/dec.log | cut -c1-190
lanes_finish
