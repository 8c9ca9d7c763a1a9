#!/bin/bash
# GPU call K (2026-11-26, seventh session): call J's comparison again with a regex
# that matches the split variants (J's left them out): m = 128, n 8K-14K.
cd "$(dirname "$0")/../.." || exit 1
tar -C build -xJf build/carry/packs.tar.xz
chmod +x build/bin/* build/tests/* 2>/dev/null
export KP_PACK_DIR=$PWD/build/packs KP_TEMPLATE_DIR=$PWD/templates PYTHONUNBUFFERED=1 CUDA_CACHE_DISABLE=1
R=$OUT/r; mkdir -p $R
nvidia-smi -L
CUDA_VISIBLE_DEVICES=0 timeout 60 python3 bench/gemm_bench.py --variants --only 'wg_(64x256_s5|128x256_s4_k[23])_nk' --dtypes bf16 --reps 20 --shapes '128,11008,4096;128,14336,4096;128,8192,4096;128,11008,4096' --json $R/m128.json > $R/m128.log 2>&1; echo "m128 rc=$?"
python3 - $R/m128.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for v in d["variants"]:
    print(v["m"], v["n"], v["k"], v["variant"].replace("gemm_bf16_", ""), f'{v["us"]:.1f}', f'{v["cublas_us"]:.1f}')
PY
grep -E "^bfloat16|best" $R/m128.log
tar -C $OUT -cJf $OUT/r.tar.xz r && rm -rf $R
