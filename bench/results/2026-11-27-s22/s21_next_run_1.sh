#!/bin/bash
# For a later session's first GPU call, on main after the twenty-first
# session, with bench/results/next/l2hint.patch applied (git apply; then
# make -j2 all; make KP_SUB=1 build/tests/check_kernpack build/bin/kp
# build/bin/kpbench; carry the packs as bench/lanes.sh says).  The patch
# adds `_pf` twins of the split-KV decode and of the 16-CTA clusters whose
# K and V loads carry L2's prefetch size hint (cp.async ... .L2::256B at
# d128, .L2::128B at d64: a key row a miss; SASS LDGSTS...LTC256B.128),
# as CUTLASS's cp.async atoms do (.L2::128B) -- FA2's split-KV reads K and
# V 1-2% faster than `_sk` at batch 8 (bench/NOTES.md 52).  (lane 0, 1)
# correctness of the twins first, then `_sk` / `_sk_pf` / `_c16` /
# `_c16_pf` pinned, batch 16 .. 1, d128 / d64, two rounds a GPU; then ncu
# (lane 1) of `_sk`, `_sk_pf` and SDPA's kernels at batch 8 d128: DRAM
# bytes and throughput, L2 hit rate -- where flash's 1-2% over `_sk` is.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
lane() {
  GPU=$1; export CUDA_VISIBLE_DEVICES=$1
  if [ $1 = 0 ]; then
    export KP_TEST_ONLY='_pf'; gpu_suite att_pf.log 150 attention_gpu; unset KP_TEST_ONLY
  else
    san memcheck attention_gpu _pf san_mem.log 150
  fi
  for rd in 1 2; do
    timeout $(left 400) python3 bench/attn_bench.py --reps 30 --decode-only --decode-dims 128,64 \
      --decode-batches 16,8,4,2,1 --variants 'dec_w4x16_s3_(sk|c16)(_pf)?$' \
      --json $R/pf_g${1}_$rd.json 2>&1 | grep -vE "$F" > $R/pf_g${1}_$rd.log
  done
  if [ $1 = 1 ]; then
    for v in sk sk_pf; do
      KP_VARIANT=attention_bf16_d128_dec_w4x16_s3_$v timeout $(left 560) ncu --section SpeedOfLight \
        --section MemoryWorkloadAnalysis -k regex:'attention_|flash|fmha|cudnn' -c 16 \
        python3 bench/ncu_attn.py 8 32 8 1 32768 128 --sdpa > $R/ncu_b8_$v.log 2>&1
    done
  fi
  el "lane $1 done"
}
lane 0 > $R/lane0.log 2>&1 &
lane 1 > $R/lane1.log 2>&1 &
wait
cat $R/lane*.log
grep -hE ":[EF]:" $R/att_pf.log $R/san_mem.log | head -5 | cut -c1-300
for f in $R/pf_g*.log; do echo "== $f"; grep -E "^bfloat16|  attention" $f | cut -c1-112; done
grep -hE "^  [a-z_]+.*\(|DRAM Throughput|Memory Throughput|L2 Hit Rate|Duration" $R/ncu_b8_sk.log | head -40
lanes_finish
