#!/bin/bash
# fifty-seventh session, call 2: RMSNorm `_ws` with whole 16-byte stores
# (kp_st16; NVRTC split all four of its vectors' stores into 4-byte STG.E,
# ncu at 131072 x 1001: 2.41M store requests, 33.9M L1 sectors against
# aligned 1000's 0.52M / 8.45M) -- float64 over `_ws` (both dtypes) and the
# bf16 persistent entries call 1 did not reach, memcheck / racecheck over two
# `_ws`, then side by side in turns with main's pack (bf16 two rounds).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
mkdir -p build/packs_old && xz -dc build/carry/packs_old.tar.xz | tar -C build/packs_old -xf - || exit 1
for f in build/packs/*.kpk; do [ -e build/packs_old/${f##*/} ] || cp -L $f build/packs_old/; done
GPU=0
el "float64"
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 KP_TEST_TIMES=1 CK_RUN_SUITE=variants_gpu \
  KP_TEST_ONLY="f16_ws_|bf16_warps_|bf16_pers_|rmsnorm_f32_block_t128_v4_n1" \
  timeout $(left 260) build/tests/check_kernpack > $R/var.log 2>&1; echo "var rc=$?"
grep -E "Checks|:[EF]:|cases|ran no|TIME" $R/var.log | head -16 | cut -c1-300
el "ab"
SH=131072x1001,65536x1001,32768x1001,16384x1001,131072x777,131072x513,65536x2001
for round in 1 2; do
  for which in old new; do
    if [ $which = old ]; then PD=$PWD/build/packs_old; else PD=$PWD/build/packs; fi
    KP_PACK_DIR=$PD timeout $(left 420) python3 bench/side_by_side.py --ops rmsnorm --dtypes bf16 \
      --shapes $SH --no-compile --reps 20 --warmup 4 --json $R/ab_${which}_$round.json > $R/ab_${which}_$round.log 2>&1
    echo "ab $which $round rc=$?"
  done
done
for f in $R/ab*.log; do echo "== ${f##*/}"; grep -E "^  ours" $f | cut -c1-24 | tr -s " " | paste -sd" "; done
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,sm__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active,dram__throughput.avg.pct_of_peak_sustained_elapsed
for c in "rmsnorm 131072x1001" "add_rmsnorm 131072x1001" "add_rmsnorm 131072x1000" "rmsnorm_swiglu 16384x4097" "rmsnorm_swiglu 512x199999"; do
  set -- $c
  el "ncu $1 $2"
  timeout $(left 450) ncu --target-processes all --clock-control none --metrics $M -k "regex:^$1_bf16_" -s 3 -c 1 \
    --csv python3 bench/side_by_side.py --ops $1 --shapes $2 --no-compile --reps 4 --warmup 2 > $R/ncu_$1_$2.csv 2> $R/ncu_$1_$2.err
  echo "rc=$?"; grep -oE '"'$1'_bf16_[a-z0-9_]*"' $R/ncu_$1_$2.csv | sort -u | head -2
  grep -E '"(gpu__|dram__|lts__|l1tex__|sm__|smsp__)' $R/ncu_$1_$2.csv | awk -F'","' '{print $(NF-4)" "$(NF-2)" "$(NF-1)" "$NF}' | tr -d '"' | cut -c1-140
done
el "sanitizers"
san memcheck variants_gpu "bf16_ws_v8_n4_r16_p2|f16_ws_v8_n2_r8_p6" memcheck.log 545
san racecheck variants_gpu "bf16_ws_v8_n4_r16_p2|f16_ws_v8_n2_r8_p6" racecheck.log 585
lanes_finish
