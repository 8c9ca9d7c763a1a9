#!/bin/bash
# Call 4 (twenty-seventh session): every row family's cluster kernels sum
# over the cluster by st.async (kp_cluster_gather, kp_device.cuh; the
# staged ones begin the exchange under their copies): every row variant
# against float64, ops_gpu, graph_gpu; kp tune over long odd rows with the
# new packs and with call 3's (packs_old.tar.xz: main's for all but
# RMSNorm+SwiGLU's staged kernels), one after the other on this GPU;
# memcheck over three cluster variants (registers, loop, staged).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
gpu_suite t_variants.log 80 variants_gpu
for s in ops_gpu graph_gpu; do gpu_suite t_$s.log 140 $s; done
mkdir -p $OUT/old && tar -C $OUT/old -xJf build/carry/packs_old.tar.xz
el "tune new"
timeout $(left 330) build/bin/kp tune --device 0 --families softmax,rmsnorm,add_rmsnorm,rmsnorm_swiglu \
  --dtypes bf16 --shapes build/carry/shapes_c4.txt -o $R/c4_new.tune > $R/tune_new.log 2>&1
echo "tune rc=$?"; grep -E "default" $R/tune_new.log | cut -c1-200
el "tune old"
KP_PACK_DIR=$OUT/old/packs timeout $(left 520) build/bin/kp tune --device 0 \
  --families softmax,rmsnorm,add_rmsnorm,rmsnorm_swiglu --dtypes bf16 \
  --shapes build/carry/shapes_c4.txt -o $R/c4_old.tune > $R/tune_old.log 2>&1
echo "tune rc=$?"; grep -E "default" $R/tune_old.log | cut -c1-200
el "memcheck"
san memcheck variants_gpu "softmax_bf16_block_t128_v8_n8_c16|rmsnorm_bf16_loop_t256_v8_u4_c8_p|rmsnorm_swiglu_bf16_stage_t512_v8_u2_s50_c2" san_memcheck.log 580
lanes_finish
