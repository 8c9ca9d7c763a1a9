#!/bin/bash
# Thirty-seventh session, call 2: prologue_both.patch A/B in one run.  Call 1
# (fresh host) put RoPE's own chain without PDL at 2.85 us a call at 128
# tokens against item 70's 2.71-2.77 (another host): same-host A/B here,
# the packs of the code before the patch (fa4b33b, build/carry/old.tar.xz ->
# build/packs_old) against the patched ones, alternated twice; then the whole
# chain with torch.compile beside it (the bar's other half), and racecheck
# over every RoPE and SwiGLU variant (call 1's ran out of time).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
mkdir -p build/packs_old && tar -C build/packs_old -xJf build/carry/old.tar.xz || exit 1
GPU=0
NEW=$KP_PACK_DIR OLD=$PWD/build/packs_old
for i in 1 2; do
  KP_PACK_DIR=$OLD pdl rope_old$i "" rope 16,128 $((20 + 80 * i - 80))
  KP_PACK_DIR=$NEW pdl rope_new$i "" rope 16,128 $((40 + 80 * i - 80))
  KP_PACK_DIR=$OLD pdl swi_old$i "" swiglu 16,64,128 $((60 + 80 * i - 80))
  KP_PACK_DIR=$NEW pdl swi_new$i "" swiglu 16,64,128 $((80 + 80 * i - 80))
done
for p in old new; do
  el "chain_$p (with torch.compile)"
  d=$OLD; [ $p = new ] && d=$NEW
  KP_PACK_DIR=$d timeout $(left $([ $p = old ] && echo 230 || echo 300)) python3 bench/pdl_bench.py \
    --tokens 1,16,128 --json $R/chain_$p.json > $R/chain_$p.log 2>&1
  echo "chain_$p rc=$?"; grep -A5 "^tokens |" $R/chain_$p.log | cut -c1-130
done
san racecheck variants_gpu "rope_|swiglu_" race.log 560
lanes_finish
