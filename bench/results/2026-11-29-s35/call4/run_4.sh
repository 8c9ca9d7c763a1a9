#!/bin/bash
# Thirty-fifth session, call 4: RMSNorm's odd 155649-212992 now on 256 x 2
# over 16 CTAs of 26 KiB `_wc`, aligned rows past 140000 back on the plain
# 512 x 2 over 8 (call 3: its `_wc` form did not pay there) -- ops_gpu, the
# odd sweep side by side (RMSNorm), memcheck / racecheck over the new pick
# (bf16, f16), and kp tune in f16 at the `_wc` ranges' ends (ranked from
# bf16 runs).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
gpu_suite ops.log 50 ops_gpu
el "side odd"
timeout $(left 130) python3 bench/side_by_side.py --ops rmsnorm \
  --shapes-file bench/shapes_odd.txt --json $R/side_odd.json 2>&1 | grep -vE "$F" > $R/side_odd.log
echo "side_odd rc=$?"
grep -E "^rmsnorm" $R/side_odd.log | cut -c1-150
san memcheck variants_gpu 'stage_t256_v8_u2_s26_c16_wc' mem.log 170
san racecheck variants_gpu 'stage_t256_v8_u2_s26_c16_wc' race.log 215
cat > $R/f16.txt <<'S'
rmsnorm 8192 8193
rmsnorm 4096 16001
rmsnorm 2048 36001
rmsnorm 1024 65537
rmsnorm 512 135001
rmsnorm 512 170001
add_rmsnorm 2048 50257
S
el "tune"
timeout $(left 330) build/bin/kp tune --device 0 --families rmsnorm,add_rmsnorm --reps 5 \
  --dtypes f16 --time-budget 100 --shapes $R/f16.txt -q -o $R/f16.tune > $R/tune.log 2>&1
echo "tune rc=$?"
while read f r c; do s=${r}x$c
  grep "^$f f16 $s " $R/f16.tune | sort -k6 -n | head -3 | awk '{printf "%s %s %s | ", $3, $5, $6}'; echo
done < $R/f16.txt
lanes_finish
