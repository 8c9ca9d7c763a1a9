#!/bin/bash
# s66 call 4: the GEMM ring's mbarrier waits with a suspend-time hint (`_sh`)
# against the same tiles without, pinned in turns with cuBLAS, bf16, two
# rounds: 128 x 11008 / 14336 / 4096 x 4096 and 4096^3.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
for r in 1 2; do
  el "pins $r"
  timeout "$(left $((200 * r)))" python3 bench/gemm_bench.py --dtypes bf16 --reps 20 \
    --shapes "128,11008,4096;128,14336,4096;128,4096,4096;4096,4096,4096" --variants \
    --only 'wg_(128x88_s6_e88_|128x112_s6_e112_|128x256_s3_e256_w0_|64x64_s12_kp_)' \
    --json "$R/pins$r.json" >"$R/pins$r.log" 2>&1
  echo "pins $r rc=$?"; grep -E "^bfloat16| us |FAIL|failed" "$R/pins$r.log" | grep -v "does not apply" | cut -c1-100
done
lanes_finish
