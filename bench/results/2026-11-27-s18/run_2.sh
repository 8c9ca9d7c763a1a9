#!/bin/bash
# GPU call 2 of the eighteenth session, on main + the FA3 tile handed over by
# the producer (the consumers no longer work out the next tile's
# coordinates: call 1's ncu put ~7% of d64 1K causal's warp samples there).
# (lane 0) attention_gpu (every variant; the persistent ones also on a grid
# for 2 SMs), racecheck, synccheck and memcheck over the FA3 variants;
# (lane 1) the attention table with the pack before the change (build/old,
# 10a72f2) and after, in turns, then ncu source counters of the new d64 1K
# causal pick.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
lane0() {
  GPU=0; export CUDA_VISIBLE_DEVICES=0
  gpu_suite t_attention_gpu.log 150 attention_gpu
  san racecheck attention_gpu "d64_wg_128x128_s3_pc|d128_wg_128x128_s2_p$|d64_wg_192x128_s3$|d128_wg_128x128_s2_pp" san_racecheck.log 300
  san synccheck attention_gpu "_wg_" san_synccheck.log 420
  san memcheck attention_gpu "_wg_" san_memcheck.log 540
  el "lane0 done"
}
lane1() {
  GPU=1; export CUDA_VISIBLE_DEVICES=1
  for rnd in 1 2; do
    for p in old packs; do
      el "attention table $p $rnd"
      KP_PACK_DIR=$PWD/build/$p KP_CACHE_DIR=$OUT/cache_$p timeout $(left $((rnd == 1 ? 170 : 330))) \
        python3 bench/attn_bench.py --reps 20 --no-decode --json $R/attn_${p}_$rnd.json 2>&1 \
        | grep -vE "$F" > $R/attn_${p}_$rnd.log; echo "attn $p rc=$?"
    done
  done
  el "ncu attention"
  timeout $(left 460) ncu --section SourceCounters --section SpeedOfLight -k 'regex:attention_' \
    --launch-skip 2 -c 1 -o $R/a1024 python3 bench/ncu_attn.py 16 16 16 1024 1024 64 --causal > $R/ncu_a1024.log 2>&1
  echo "ncu rc=$?"
  ncu -i $R/a1024.ncu-rep --page source --csv --print-source sass > $R/a1024.csv 2>&1
  ncu -i $R/a1024.ncu-rep --page details > $R/a1024_details.txt 2>&1
  rm -f $R/a1024.ncu-rep
  python3 bench/ncu_segments.py $R/a1024.csv > $R/a_segments.txt 2>&1
  el "lane1 done"
}
lane0 > $R/lane0.log 2>&1 &
lane1 > $R/lane1.log 2>&1 &
wait
cat $R/lane0.log $R/lane1.log
grep -hE ":[EF]:" $R/t_*.log $R/san*.log | head
for f in $R/attn_*_[12].log; do echo "== $f"; head -1 $f | cut -c1-120; grep -E "^bfloat16" $f | cut -c20-150; done
grep -E "Duration" $R/a1024_details.txt
head -24 $R/a_segments.txt
lanes_finish
