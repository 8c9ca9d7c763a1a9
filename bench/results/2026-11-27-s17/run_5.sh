#!/bin/bash
# GPU call 5 of the seventeenth session, on main after the tile decode
# moved into the GEMM epilogue's terms and the staged norms' pass 1 read
# raw image chunks (kp_stage_chunk / kp_stage_edges): (lane 0) the GEMM,
# attention, graph, api, jit, concurrency and regen suites, racecheck over
# the GEMM `_e` variants, 4096^3 variants; (lane 1) ops_gpu, variants_gpu
# (every row variant, every residue), racecheck and synccheck over the
# stage variants, the odd sweep side by side.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
lane0() {
  GPU=0; export CUDA_VISIBLE_DEVICES=0
  for s in gemm_gpu attention_gpu graph_gpu api jit concurrency regen; do gpu_suite t_$s.log 300 $s; done
  san racecheck gemm_gpu "_e" san_racecheck_gemm.log 380
  el "gemm variants"
  timeout $(left 460) python3 bench/gemm_bench.py --variants --only 'wg_128x256_s(3|4_e128_nk)' \
    --shapes "4096,4096,4096;4096,4096,4096;8192,8192,8192" --dtypes bf16,f16 --reps 30 2>&1 | grep -vE "$F" > $R/gemm_var.log; echo "gemm var rc=$?"
  el "lane0 done"
}
lane1() {
  GPU=1; export CUDA_VISIBLE_DEVICES=1
  for s in ops_gpu variants_gpu; do gpu_suite t_$s.log 200 $s; done
  san racecheck variants_gpu "_stage_" san_racecheck_stage.log 300
  san synccheck variants_gpu "_stage_" san_synccheck_stage.log 380
  el "odd sweep"
  timeout $(left 520) python3 bench/side_by_side.py --shapes-file bench/shapes_odd.txt \
    --json $R/side_odd.json 2>&1 | grep -vE "$F" > $R/side_odd.log; echo "odd rc=$?"
  el "lane1 done"
}
lane0 > $R/lane0.log 2>&1 &
lane1 > $R/lane1.log 2>&1 &
wait
cat $R/lane0.log $R/lane1.log
grep -hE ":[EF]:" $R/t_*.log $R/san*.log | head
grep -E "^(bfloat16|float16)|^ +gemm_|best:" $R/gemm_var.log | cut -c1-130
grep -E "^(softmax|rmsnorm|add_)" $R/side_odd.log | cut -c1-160
lanes_finish
