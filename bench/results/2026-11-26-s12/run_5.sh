#!/bin/bash
# GPU call 5 of the twelfth session: main as it lands (the TMA-store epilogue
# for the persistent FA3 kernels; the cross-tile code and `_psx` gone --
# every other FA3 variant's SASS unchanged by that, checked on the CPU --
# d128 `_ps` first above 1K; a 128-row d64 `_pc` to compare at 1K causal):
# the whole GPU suite over both GPUs, the Python GPU tests, memcheck and
# synccheck over the new `_pc`, then the attention table with the masked
# persistent variants pinned.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
lane0() {
  GPU=0; export CUDA_VISIBLE_DEVICES=0
  el "lane0: attention_gpu"; gpu_suite att.log 200 attention_gpu
  el "lane0: python"; (cd python && timeout $(left 290) python3 tests/run_tests.py > $R/python_gpu.log 2>&1; echo "python rc=$? $(tail -1 $R/python_gpu.log)")
  while [ ! -e $R/tests1.done ] && [ $(left 330) -gt 5 ]; do sleep 2; done
  el "lane0: attention table, masked persistent pinned"
  timeout $(left 480) python3 bench/attn_bench.py --reps 20 --variants '_p[cs]$' --table-peers \
    --json $R/attn.json 2>&1 | grep -vE "$F" > $R/attn.log; echo "attn rc=$?"
  el "lane0 done"
}
lane1() {
  GPU=1; export CUDA_VISIBLE_DEVICES=1
  for s in ops_gpu jit concurrency variants_gpu gemm_gpu regen graph_gpu api; do
    gpu_suite t_$s.log 260 $s
  done
  san memcheck attention_gpu "f16_d64_wg_128x128_s3_pc|f16_d128_wg_128x128_s2_ps" san_memcheck.log 300
  san synccheck attention_gpu "f16_d64_wg_128x128_s3_pc" san_synccheck.log 330
  touch $R/tests1.done
  el "lane1 done"
}
lane0 > $R/lane0.log 2>&1 &
lane1 > $R/lane1.log 2>&1 &
wait
cat $R/lane0.log $R/lane1.log
grep -hE ":[EF]:" $R/att.log $R/t_*.log | head
grep -E "True|False" $R/attn.log | head -16
grep -E "^  attention|best at" $R/attn.log | cut -c1-150
lanes_finish
