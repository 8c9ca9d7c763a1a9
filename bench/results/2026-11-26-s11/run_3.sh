#!/bin/bash
# GPU call 3 of the eleventh session (2026-11-26): the cross-tile FA3
# variants (`_px`, `_psx`: two Q buffers, the next tile's first S issued
# with the last P V, the epilogue under it) and d64 `_ps` in 128-row tiles:
# attention_gpu (all of it: the consumer loop changed for every FA3
# kernel, and the persistent ones now also run on a grid for 2 SMs),
# memcheck / synccheck / racecheck over the new ones (bf16), then
# every persistent variant pinned on the prefill table; GEMM: ncu of the
# m = 128 64x64 kernels with and without the cluster's multicast, and the
# GEMM table with 64x64 ranked first at m <= 128, n <= 4352.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
NEW='_psx|_px|d64_wg_128x128_s3_ps'
NEWB='bf16_d128_wg_128x128_s2_psx|bf16_d128_wg_128x128_s2_px|bf16_d64_wg_192x128_s3_psx|bf16_d64_wg_192x128_s3_px|bf16_d64_wg_128x128_s3_ps'
lane0() {
  GPU=0; export CUDA_VISIBLE_DEVICES=0
  el "lane0: attention_gpu"; gpu_suite att_new.log 240 attention_gpu
  while [ ! -e $R/san.done ] && [ $(left 340) -gt 5 ]; do sleep 2; done
  el "lane0: prefill pinned"
  timeout $(left 520) python3 bench/attn_bench.py --no-decode --reps 20 --variants '_p[cs]?x?$' \
    --json $R/prefill_pin.json 2>&1 | grep -vE "$F" > $R/prefill_pin.log; echo "prefill rc=$?"
  el "lane0 done"
}
lane1() {
  GPU=1
  san memcheck attention_gpu "$NEWB" san_memcheck.log 120
  san synccheck attention_gpu "$NEWB" san_synccheck.log 220
  san racecheck attention_gpu "$NEWB" san_racecheck.log 340
  touch $R/san.done
  for v in gemm_bf16_wg_64x64_s13_nk gemm_bf16_wg_64x64_s13_c2_nk; do
    CUDA_VISIBLE_DEVICES=1 KP_VARIANT=$v timeout $(left 390) ncu --clock-control none --section SpeedOfLight --section WarpStateStats \
      --metrics lts__t_bytes.sum,dram__bytes_read.sum,launch__cluster_dim_x -k 'regex:gemm_' -c 2 \
      python3 bench/ncu_gemm.py 128 4096 4096 > $R/ncu_$v.log 2>&1; echo "ncu $v rc=$?"
  done
  el "lane1: gemm table"
  CUDA_VISIBLE_DEVICES=1 timeout $(left 520) python3 bench/gemm_bench.py --json $R/gemm.json 2>&1 | grep -vE "$F" > $R/gemm.log; echo "gemm rc=$?"
  el "lane1 done"
}
lane0 > $R/lane0.log 2>&1 &
lane1 > $R/lane1.log 2>&1 &
wait
cat $R/lane0.log $R/lane1.log
grep -hE "_p[sc]?x?: [0-9]+ cases|Checks|:[EF]:|TIME" $R/att_new.log | cut -c1-250 | head -40
grep -E "True|False" $R/prefill_pin.log | head -80
grep -E "^(bf16|f16)|copy rate" $R/gemm.log | head -40
for v in gemm_bf16_wg_64x64_s13_nk gemm_bf16_wg_64x64_s13_c2_nk; do grep -E "Duration|lts__t|dram__bytes|Throughput|Warp Cycles|stalled|represents" $R/ncu_$v.log | cut -c1-150 | head -14; done
lanes_finish
