#!/bin/bash
# fifty-third session, call 5: the issue tables on the default build's packs
# (sm_90a the ranking's picks alone since 714d9e8): GEMM bf16 against
# cuBLAS (issue 12), attention prefill and decode bf16 against SDPA (issue 13)
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
mkdir -p build/packs_ranked
xz -dc build/carry/packs_ranked.tar.xz | tar -C build/packs_ranked -xf - || exit 1
for f in build/packs/*.kpk; do [ -e build/packs_ranked/${f##*/} ] || cp $f build/packs_ranked/; done
export KP_PACK_DIR=$PWD/build/packs_ranked
el "gemm"
timeout $(left 200) python3 bench/gemm_bench.py --dtypes bf16 --reps 15 --json $R/gemm.json > $R/gemm.log 2>&1
echo "gemm rc=$?"; grep -E "^bfloat16" $R/gemm.log | cut -c1-110
el "attention"
timeout $(left 390) python3 bench/attn_bench.py --reps 15 --json $R/attn.json > $R/attn.log 2>&1
echo "attn rc=$?"; grep -vE "^check|^ *$" $R/attn.log | tail -22 | cut -c1-150
lanes_finish
