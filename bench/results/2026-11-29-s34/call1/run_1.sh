#!/bin/bash
# Next session's first call (written by the thirty-third session, NOTES item
# 67): the several-warps-a-row picks of RMSNorm+SwiGLU (`_k4` 8K for
# 6145-8192, `_k8` 12K / 16K for 8193-16384, sm_90a) had float64 and the
# sanitizers but no side-by-side run, no ops_gpu / graph_gpu and no f16
# timing.  Make, copy this script to build/carry/, carry the packs as
# build/carry/packs.tar.xz (bench/lanes.sh), run it as it is.
# - ops_gpu, graph_gpu;
# - side by side: RMSNorm+SwiGLU at 7001-16001, then the odd sweep (every op);
# - kp tune, bf16 and f16: the `_k` variants at 4097-6144 over row counts
#   (16384 x 4097 ran 8K `_k4` 4.4% ahead of the 5K pick; 32768 rows not
#   timed with them), and 9001 / 13001 (the ranked ranges' insides).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
gpu_suite ops.log 60 ops_gpu
gpu_suite graph.log 100 graph_gpu
el "side rmsnorm_swiglu"
timeout $(left 200) python3 bench/side_by_side.py --ops rmsnorm_swiglu \
  --shapes 8192x7001,16384x8001,16384x9001,8192x11007,8192x13001,4096x16001 \
  --json $R/side.json 2>&1 | grep -vE "$F" > $R/side.log; echo "side rc=$?"
grep -E "^rmsnorm_sw" $R/side.log | cut -c1-170
el "side odd"
timeout $(left 320) python3 bench/side_by_side.py --shapes-file bench/shapes_odd.txt \
  --json $R/side_odd.json 2>&1 | grep -vE "$F" > $R/side_odd.log; echo "side_odd rc=$?"
grep -E "^(softmax|rmsnorm|add_rms|swiglu|geglu) " $R/side_odd.log | cut -c1-170
cat > $R/shapes.txt <<'S'
rmsnorm_swiglu 16384 4097
rmsnorm_swiglu 32768 4097
rmsnorm_swiglu 65536 4097
rmsnorm_swiglu 32768 5001
rmsnorm_swiglu 16384 6001
rmsnorm_swiglu 16384 9001
rmsnorm_swiglu 8192 13001
S
el "tune"
timeout $(left 560) build/bin/kp tune --device 0 --families rmsnorm_swiglu --reps 5 \
  --dtypes bf16,f16 --time-budget 220 --shapes $R/shapes.txt -q -o $R/c1.tune > $R/tune.log 2>&1
echo "tune rc=$?"
for s in $(awk '{print $2"/"$3}' $R/c1.tune | grep x | sort -u); do
  d=${s%/*}; sh=${s#*/}
  grep " $d $sh " $R/c1.tune | sort -k6 -n | head -3 | awk '{print $2, $3, $5, $6}'
done
lanes_finish
