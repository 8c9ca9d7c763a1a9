#!/bin/bash
# GPU call 1 of the thirteenth session: branch s13 = main + tmap-cache +
# gemm-256x128 + fa3-d64-bc64 (all written in the twelfth session, never run
# on a GPU).  The whole GPU suite over both GPUs (the map cache sees every
# GEMM and attention case), the Python GPU tests, sanitizers over the new
# variants, the new variants pinned beside cuBLAS / cuDNN, host overhead.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
lane0() {
  GPU=0; export CUDA_VISIBLE_DEVICES=0
  el "lane0: attention_gpu"; gpu_suite att.log 150 attention_gpu
  el "lane0: python"; (cd python && timeout $(left 250) python3 tests/run_tests.py > $R/python_gpu.log 2>&1; echo "python rc=$? $(tail -1 $R/python_gpu.log)")
  el "lane0: attention d64 pinned"
  timeout $(left 320) python3 bench/attn_bench.py --reps 20 --no-decode --dims 64 --seqs 1024,4096 \
    --variants 'd64_wg_128x(64|128)_s[35]_pc?$' --table-peers \
    --json $R/attn.json 2>&1 | grep -vE "$F" > $R/attn.log; echo "attn rc=$?"
  el "lane0: gemm pinned"
  timeout $(left 470) python3 bench/gemm_bench.py --variants --only 'wg_(256x128|128x256)_s' \
    --shapes '4096,4096,4096;4096,11008,4096;4096,4096,11008;4096,14336,4096;8192,8192,8192' \
    --json $R/gemm.json 2>&1 | grep -vE "$F" > $R/gemm_pinned.log; echo "gemm rc=$?"
  el "lane0: kpbench overhead"
  timeout $(left 540) build/bin/kpbench --op rmsnorm --shape small --dtype bf16 --overhead-n 10000 \
    > $R/kpbench.log 2>&1; echo "kpbench rc=$?"
  el "lane0 done"
}
lane1() {
  GPU=1; export CUDA_VISIBLE_DEVICES=1
  for s in gemm_gpu graph_gpu api ops_gpu jit concurrency variants_gpu regen; do gpu_suite t_$s.log 260 $s; done
  san memcheck gemm_gpu 'wg_256x128' san_memcheck.log 330
  san memcheck attention_gpu 'd64_wg_128x64_s5' san_memcheck_att.log 380
  san racecheck gemm_gpu 'bf16_wg_256x128' san_racecheck.log 470
  san racecheck attention_gpu 'bf16_d64_wg_128x64_s5_pc' san_racecheck_att.log 540
  el "lane1 done"
}
lane0 > $R/lane0.log 2>&1 &
lane1 > $R/lane1.log 2>&1 &
wait
cat $R/lane0.log $R/lane1.log
grep -hE ":[EF]:" $R/*.log | head
grep -E "True|False" $R/attn.log | head -8
grep -E "^  attention|best at" $R/attn.log | cut -c1-150
grep -E "^(bfloat16|float16)|wg_|best" $R/gemm_pinned.log | head -40
grep -A12 "^host overhead" $R/kpbench.log
lanes_finish
