#!/bin/bash
# s66 calls 8+: on whichever H200 is lent, the m = 128 pick against cuBLAS's
# own shape in ours (128x96 s7 over 4-CTA clusters sharing A: at most 16 CTAs
# a GPC) and its neighbours, the plain twins pinned in turns with cuBLAS,
# bf16, each over five allocations (gemm_bench --allocs 5).  Some GPUs run
# the pick at 0.90-0.93x cuBLAS at n = 11008, others 0.96-0.99x (calls 4-7).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
nvidia-smi --query-gpu=name,uuid --format=csv,noheader
el "pins"
timeout "$(left 400)" python3 bench/gemm_bench.py --dtypes bf16 --allocs 5 \
  --shapes "128,11008,4096;128,14336,4096" --variants \
  --only 'wg_128x(88_s6_e88|96_s7_a4_e96|96_s7_a2_e96|96_s7_e96|112_s6_e112)_pl' \
  --json "$R/pins.json" >"$R/pins.log" 2>&1
echo "pins rc=$?"; grep -E "^bfloat16| us |failed" "$R/pins.log" | cut -c1-175
lanes_finish
