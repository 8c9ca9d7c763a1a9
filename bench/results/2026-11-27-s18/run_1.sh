#!/bin/bash
# GPU call 1 of the eighteenth session, on branch gemm-streamk (8e7d7e2,
# rebased on main 10a72f2): the seventeenth session's next-call script
# (stream-K with the fence and divisions gone: gemm_gpu with test_stream_k,
# the three sanitizers over `_w0`; the large shapes with and without a
# workspace; ncu source counters of 2048 x 4096 x 4096 with one), plus
# memcheck over the stage row variants (the gap the seventeenth left) and
# ncu source counters of the d64 causal attention pick at 16 x 16 heads,
# Lq 1K against Lk 1K and 16K (bench/ncu_segments.py: per-tile code).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
lane0() {
  GPU=0; export CUDA_VISIBLE_DEVICES=0
  gpu_suite t_gemm_gpu.log 120 gemm_gpu
  san racecheck gemm_gpu "_w0" san_racecheck.log 200
  san synccheck gemm_gpu "_w0" san_synccheck.log 270
  san memcheck gemm_gpu "_w0" san_memcheck.log 340
  san memcheck variants_gpu "_stage_" san_memcheck_stage.log 500
  el "lane0 done"
}
lane1() {
  GPU=1; export CUDA_VISIBLE_DEVICES=1
  S="4096,4096,4096;4096,4096,4096;8192,8192,8192;4096,11008,4096;4096,4096,11008;4096,14336,4096;2048,4096,4096;128,4096,4096"
  for ws in "" --workspace; do
    el "gemm $ws"
    timeout $(left 220) python3 bench/gemm_bench.py --shapes "$S" --dtypes bf16,f16 --reps 30 $ws 2>&1 \
      | grep -vE "$F" > $R/gemm${ws:+_ws}.log; echo "gemm $ws rc=$?"
  done
  el "ncu source"
  timeout $(left 320) ncu --section SourceCounters --section WarpStateStats -k 'regex:gemm_' --launch-skip 3 -c 1 \
    -o $R/src python3 bench/ncu_gemm.py 2048 4096 4096 --workspace > $R/ncu_src.log 2>&1; echo "ncu src rc=$?"
  ncu -i $R/src.ncu-rep --page source --csv --print-source sass > $R/sass.csv 2>&1
  rm -f $R/src.ncu-rep
  python3 bench/ncu_segments.py $R/sass.csv > $R/segments.txt 2>&1
  for lk in 1024 16384; do
    el "ncu attention lk $lk"
    timeout $(left $((lk == 1024 ? 420 : 520))) ncu --section SourceCounters --section SpeedOfLight -k 'regex:attention_' \
      --launch-skip 2 -c 1 -o $R/a$lk python3 bench/ncu_attn.py 16 16 16 1024 $lk 64 --causal > $R/ncu_a$lk.log 2>&1
    echo "ncu attention $lk rc=$?"
    ncu -i $R/a$lk.ncu-rep --page source --csv --print-source sass > $R/a$lk.csv 2>&1
    ncu -i $R/a$lk.ncu-rep --page details > $R/a${lk}_details.txt 2>&1
    rm -f $R/a$lk.ncu-rep
  done
  python3 bench/ncu_segments.py $R/a1024.csv $R/a16384.csv > $R/a_segments.txt 2>&1
  el "lane1 done"
}
lane0 > $R/lane0.log 2>&1 &
lane1 > $R/lane1.log 2>&1 &
wait
cat $R/lane0.log $R/lane1.log
grep -hE ":[EF]:" $R/t_*.log $R/san*.log | head
grep -hE "^(bfloat16|float16)|failed|workspace of" $R/gemm.log $R/gemm_ws.log | cut -c1-110
head -30 $R/segments.txt
grep -E "Duration|attention_" $R/a*_details.txt | head
head -40 $R/a_segments.txt
lanes_finish
