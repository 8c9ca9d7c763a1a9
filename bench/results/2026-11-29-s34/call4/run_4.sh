#!/bin/bash
# Thirty-fourth session, call 4: mbarrier waits with a suspend-time hint
# (B: kp_mbar_wait's try_wait with 10 ms, SASS NANOSLEEP.SYNCS; the packs
# carried) against without (A: build/carry/base/sm_90a.kpk.xz, the spin of
# TRYWAIT + BRA), same binaries, turns A B A B.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
mkdir -p build/packsA && cp build/packs/*.kpk build/packsA/ && xz -dc build/carry/base/sm_90a.kpk.xz > build/packsA/sm_90a.kpk
PA=$PWD/build/packsA PB=$PWD/build/packs
cat > $R/shapes.txt <<'S'
rmsnorm 16384 4097
rmsnorm 512 151937
softmax 2048 50257
softmax 512 151937
add_rmsnorm 512 151937
rmsnorm_swiglu 16384 4097
rmsnorm_swiglu 4096 16001
rmsnorm_swiglu 2048 50257
S
for x in A B A B; do
  el "tune $x"; P=PA; [ $x = B ] && P=PB
  KP_PACK_DIR=${!P} timeout $(left 300) build/bin/kp tune --device 0 --families rmsnorm,softmax,add_rmsnorm,rmsnorm_swiglu \
    --reps 5 --dtypes bf16 --time-budget 40 --shapes $R/shapes.txt -q -o $R/t_$x$SECONDS.tune > /dev/null 2>&1
done
for f in $R/t_*.tune; do echo "== $f"; for s in $(awk '{print $1"/"$3}' $f | sort -u); do
  grep "^${s%/*} bf16 ${s#*/} " $f | sort -k6 -n | head -1 | awk '{print $1, $3, $5, $6}'; done; done
for x in A B; do
  el "gemm $x"; P=PA; [ $x = B ] && P=PB
  KP_PACK_DIR=${!P} timeout $(left 420) python3 bench/gemm_bench.py --reps 20 \
    --shapes "4096,4096,4096;8192,8192,8192;4096,11008,4096;128,4096,4096;128,11008,4096;16,11008,4096" \
    --json $R/gemm_$x.json 2>&1 | grep -E "^(bfloat16|float16) " | cut -c1-110
done
for x in A B; do
  el "attn $x"; P=PA; [ $x = B ] && P=PB
  KP_PACK_DIR=${!P} timeout $(left 560) python3 bench/attn_bench.py --seqs 1024,4096 --dims 128,64 --reps 10 \
    --json $R/attn_$x.json 2>&1 | grep -vE "$F" | grep -E "x|us" | tail -14 | cut -c1-150
done
lanes_finish
