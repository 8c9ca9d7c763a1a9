#!/bin/bash
# GPU call 2 of the thirteenth session: main after the merges (tmap-cache,
# gemm-256x128) plus the launch with the parameters as one buffer
# (runtime/launch.c, the layout from cuFuncGetParamInfo): every GPU suite
# (graph_gpu checks the loaded functions use the buffer), the Python GPU
# tests, host overhead against raw launches with the families' parameter
# lists, then the tables: attention (prefill + decode beside SDPA), GEMM
# (beside cuBLAS), PDL chain, odd rows beside torch (eager, compile).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
lane0() {
  GPU=0; export CUDA_VISIBLE_DEVICES=0
  el "lane0: kpbench overhead"
  timeout $(left 60) build/bin/kpbench --op rmsnorm --shape small --dtype bf16 --overhead-n 10000 \
    > $R/kpbench.log 2>&1; echo "kpbench rc=$?"
  el "lane0: attention_gpu"; gpu_suite att.log 180 attention_gpu
  el "lane0: python"; (cd python && timeout $(left 260) python3 tests/run_tests.py > $R/python_gpu.log 2>&1; echo "python rc=$? $(tail -1 $R/python_gpu.log)")
  el "lane0: attention table"
  timeout $(left 330) python3 bench/attn_bench.py --reps 30 --json $R/attn.json 2>&1 | grep -vE "$F" > $R/attn.log; echo "attn rc=$?"
  el "lane0: pdl"
  timeout $(left 450) python3 bench/pdl_bench.py --json $R/pdl.json > $R/pdl.log 2>&1; echo "pdl rc=$?"
  el "lane0 done"
}
lane1() {
  GPU=1; export CUDA_VISIBLE_DEVICES=1
  for s in graph_gpu gemm_gpu api ops_gpu jit concurrency variants_gpu regen; do gpu_suite t_$s.log 260 $s; done
  el "lane1: gemm table"
  timeout $(left 360) python3 bench/gemm_bench.py --json $R/gemm.json 2>&1 | grep -vE "$F" > $R/gemm.log; echo "gemm rc=$?"
  el "lane1: odd rows"
  timeout $(left 540) python3 bench/side_by_side.py --shapes-file bench/shapes_odd.txt \
    --json $R/side_odd.json 2>&1 | grep -vE "$F" > $R/side_odd.log; echo "odd rc=$?"
  el "lane1 done"
}
lane0 > $R/lane0.log 2>&1 &
lane1 > $R/lane1.log 2>&1 &
wait
cat $R/lane0.log $R/lane1.log
grep -hE ":[EF]:" $R/*.log | head
grep -A16 "^host overhead" $R/kpbench.log | cut -c1-220
grep -E "^(bfloat16)|decode" $R/attn.log | cut -c1-160
grep -E "^(bfloat16|float16)" $R/gemm.log | cut -c1-140
tail -12 $R/pdl.log
sed -n '/^==== side-by-side/,$p' $R/side_odd.log | head -40 | cut -c1-200
lanes_finish
