#!/bin/bash
# Thirty-fifth session, call 2: the `_wc` stage variants (kp_stage_norm_out's
# write pass with w's residue a constant, kp_device.cuh) of RMSNorm and now
# add+RMSNorm, in the shape of the pack make builds (stage_forms: the twins
# of entries whose threads hold >= 6 vectors): float64 over every `_wc`
# variant, then kp tune, bf16, inside and at the ends of each staged range
# (call 1 measured RMSNorm at the sweep's lengths alone).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 CK_RUN_SUITE=variants_gpu KP_TEST_ONLY="_wc" \
  timeout $(left 60) build/tests/check_kernpack > $R/var.log 2>&1; echo "var rc=$?"
grep -E "Checks|:[EF]:" $R/var.log | head -3 | cut -c1-250
cat > $R/add.txt <<'S'
add_rmsnorm 8192 8193
add_rmsnorm 8192 11007
add_rmsnorm 4096 32001
add_rmsnorm 2048 50257
add_rmsnorm 1024 90001
add_rmsnorm 1024 128257
add_rmsnorm 512 151937
add_rmsnorm 512 199999
S
cat > $R/rms.txt <<'S'
rmsnorm 8192 8193
rmsnorm 8192 10001
rmsnorm 8192 12287
rmsnorm 4096 16001
rmsnorm 4096 24577
rmsnorm 4096 28001
rmsnorm 4096 32767
rmsnorm 2048 36001
rmsnorm 2048 45001
rmsnorm 2048 57001
rmsnorm 1024 65537
rmsnorm 1024 90001
rmsnorm 1024 131071
rmsnorm 512 135001
rmsnorm 512 140001
rmsnorm 512 155647
rmsnorm 512 170001
rmsnorm 512 204799
S
el "tune add"
timeout $(left 280) build/bin/kp tune --device 0 --families add_rmsnorm \
  --reps 5 --dtypes bf16 --time-budget 200 --shapes $R/add.txt -q -o $R/add.tune > $R/tune_add.log 2>&1
echo "tune rc=$?"
el "tune rms"
timeout $(left 575) build/bin/kp tune --device 0 --families rmsnorm \
  --reps 5 --dtypes bf16 --time-budget 280 --shapes $R/rms.txt -q -o $R/rms.tune > $R/tune_rms.log 2>&1
echo "tune rc=$?"
for f in add rms; do while read fam r c; do s=${r}x$c
  grep "^$fam bf16 $s " $R/$f.tune | sort -k6 -n | head -3 | awk '{printf "%s %s %s | ", $3, $5, $6}'; echo
done < $R/$f.txt; done
lanes_finish
