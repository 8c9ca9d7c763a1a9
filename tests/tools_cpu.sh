#!/usr/bin/env bash
# tools_cpu.sh BINDIR PACKDIR TEMPLATEDIR WORKDIR -- run the paths of kp and
# kpgen that need no GPU, checking exit statuses; `make sanitize` runs it
# with the ASan/UBSan builds so that these paths are checked too.  kpgen
# compiles two small variants with NVRTC.  Exit status 0 when every
# invocation exits as expected.
set -uo pipefail
bin=$1 packs=$2 tpl=$3 work=$4
rm -rf "$work" && mkdir -p "$work/src" "$work/obj"
export KP_PACK_DIR=$packs KP_CACHE_DIR=$work/cache
passed=0 failed=0

# expect STATUS CMD...: CMD must exit with STATUS (its output goes to a log)
expect() {
  local want=$1 log="$work/log.$((passed + failed))"
  shift
  "$@" >"$log" 2>&1
  local got=$?
  if [ "$got" = "$want" ]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL (exit $got, expected $want): $*"
    tail -20 "$log"
  fi
}

kp=$bin/kp kpgen=$bin/kpgen pack=$packs/sm_90a.kpk
expect 0 "$kp" --help
expect 2 "$kp"
expect 2 "$kp" no-such-command
expect 0 "$kp" info
expect 0 "$kp" list "$pack"
expect 0 "$kp" list "$pack" --json
expect 2 "$kp" list
expect 1 "$kp" list /nonexistent.kpk
expect 0 "$kp" verify "$packs"/*.kpk
expect 0 "$kp" explain softmax 4096x8192 bf16 --pack "$pack"
expect 0 "$kp" explain gemm 4096x4096x4096 bf16 --pack "$pack"
expect 0 "$kp" explain attention 4096x4096x32x128 bf16 --pack "$pack" --form 1
expect 1 "$kp" explain attention 4096x4096x32x300 bf16 --pack "$pack"
# a decode call with a workspace (form + 16) runs the split-KV variant, without one the clusters
expect 0 sh -c "'$kp' explain attention 1x32768x32x128x4 bf16 --pack '$pack' --form 16 | grep -q 'runs attention_bf16_d128_dec_.*_sk '"
expect 0 sh -c "'$kp' explain attention 1x32768x32x128x4 bf16 --pack '$pack' --form 20 | grep -q 'runs attention_bf16_d128_dec_.*_sk '"
expect 0 sh -c "'$kp' explain attention 1x32768x32x128x4 bf16 --pack '$pack' | grep -q 'runs attention_bf16_d128_dec_w4x16_s3_c16 '"
# the workspace form by name, and a table's "+ws" row steering it (here to the clusters)
expect 0 sh -c "'$kp' explain attention 1x32768x32x128x4 bf16 --pack '$pack' --form full+ws | grep -q 'runs attention_bf16_d128_dec_.*_sk '"
printf 'kernpack-tune 2\ndevice = NVIDIA H200\nsm = 90\nsm_count = 132\n%s\n%s\n' \
  'attention bf16 1x32768x32x128x4 16 attention_bf16_d128_dec_w4x16_s3_c16 47.6 full+ws' \
  'attention bf16 1x32768x32x128x4 16 attention_bf16_d128_dec_w4x16_s3_sk 48.3 full+ws' >"$work/ws.tune"
expect 0 sh -c "'$kp' explain attention 1x32768x32x128x4 bf16 --pack '$pack' --form full+ws --tune '$work/ws.tune' | grep -q 'runs attention_bf16_d128_dec_w4x16_s3_c16 '"
# a variant ranked for rows off the 16-byte grid (max_align) runs an aligned
# call too: explain marks it 't', and a table's row picks it
expect 0 sh -c "'$kp' explain rmsnorm_swiglu 8192x11008 bf16 --pack '$pack' | grep -q '^    t rmsnorm_swiglu_bf16_warps_r3_p1_u4_12k_img_w16_blk_k8 '"
printf 'kernpack-tune 2\ndevice = NVIDIA H200\nsm = 90\nsm_count = 132\n%s\n%s\n' \
  'rmsnorm_swiglu bf16 8192x11008 16 rmsnorm_swiglu_bf16_warps_r3_p1_u4_12k_img_w16_blk_k8 100.0' \
  'rmsnorm_swiglu bf16 8192x11008 16 rmsnorm_swiglu_bf16_block_t512_v8_n3 128.8' >"$work/ma.tune"
expect 0 sh -c "'$kp' explain rmsnorm_swiglu 8192x11008 bf16 --pack '$pack' --tune '$work/ma.tune' | grep -q 'runs rmsnorm_swiglu_bf16_warps_r3_p1_u4_12k_img_w16_blk_k8 '"
expect 0 sh -c "'$kp' explain rmsnorm_swiglu 8192x11008 bf16 --pack '$pack' | grep -q 'runs rmsnorm_swiglu_bf16_block_t512_v8_n3 '"
# a form by name: B as (k, n) must pick a (k, n) variant; an unknown name is a usage error
expect 0 sh -c "'$kp' explain gemm 128x4096x4096 bf16 --pack '$pack' --form kn | grep -q 'runs gemm_bf16_.*_kn '"
# a GLU over contiguous odd rows runs reshaped (ops.c glu_flatten): one row (16-bit), rows of a power of two (f32)
expect 0 sh -c "'$kp' explain swiglu 512x151937 bf16 --align 2 --pack '$pack' | grep -q 'this call as 1x77791744 align 16'"
expect 0 sh -c "'$kp' explain geglu 64x20001 f32 --align 4 --pack '$pack' | grep -q 'this call as 20001x64 align 16'"
expect 2 "$kp" explain gemm 128x4096x4096 bf16 --pack "$pack" --form xx
expect 0 "$kp" explain rmsnorm 100x4096 f16 --pack "$pack" --tune tests/data/h200.tune
# kp tune --queue (what --devices gives its processes): two processes sharing
# the counter take every task exactly once between them
echo 0 >"$work/queue"
"$kp" tune --list --queue "$work/queue" >"$work/q1" 2>/dev/null &
"$kp" tune --list --queue "$work/queue" >"$work/q2" 2>/dev/null
wait
"$kp" tune --list >"$work/q0" 2>/dev/null
grep -h ' key ' "$work/q1" "$work/q2" | sort >"$work/q12"
grep -h ' key ' "$work/q0" | sort >"$work/q00"
expect 0 test -s "$work/q00"
expect 0 cmp "$work/q12" "$work/q00"
expect 1 "$kp" tune --list --queue "$work/no-such-queue"
# with a queue the largest tasks go first (so that the processes end together):
# the first task one process takes alone is the largest GEMM shape
echo 0 >"$work/queue1"
expect 0 sh -c "'$kp' tune --list --queue '$work/queue1' --families gemm | head -1 | grep -q ' 8192x8192x8192x1 '"
# a decode row's key: the SMs on which it takes +wave (8 packed tiles of 16-CTA
# clusters at batch 1, 32 / 8 heads); none for a prefill row
printf 'attention/full+ws 1 32768 32 128 4\nattention/full 1024 1024 16 128 1\n' >"$work/dec.shapes"
expect 0 sh -c "'$kp' tune --list --shapes '$work/dec.shapes' --dtypes bf16 | grep -q 'full+ws (+wave on >= 128 SMs)\$'"
expect 1 sh -c "'$kp' tune --list --shapes '$work/dec.shapes' --dtypes bf16 | grep '1024x1024' | grep -q wave"
expect 0 "$kp" merge -o "$work/merged.tune" tests/data/h200.tune tests/data/h200.tune
expect 0 "$kp" prune tests/data/h200.tune "$pack" -o "$work/pruned.kpk"
expect 0 "$kp" verify "$work/pruned.kpk"
for c in info list verify tune explain prune merge warmup regen; do expect 0 "$kp" "$c" --help; done

expect 2 "$kpgen"
expect 0 "$kpgen" mk "$work/src" "$tpl/softmax.lua" "$tpl/gemm.lua"
expect 0 "$kpgen" emit "$tpl/softmax.lua" "$work/src"
v=$(cd "$work/src" && ls softmax_f32_block_t128_* 2>/dev/null | head -1)
v=${v%.cu}
if [ -n "$v" ]; then
  expect 0 "$kpgen" compile "$work/src/$v.cu" sm_80 "$work/obj/$v"
  expect 0 "$kpgen" neighbours "$tpl/softmax.lua" "$v" "$work/nsrc"
  n=$(ls "$work/nsrc"/*.cu 2>/dev/null | head -1)
  [ -n "$n" ] && expect 0 "$kpgen" extend "$packs/sm_80.kpk" "$work/extended.kpk" "$tpl" "$work/obj" "$n"
  [ -n "$n" ] && expect 0 "$kp" verify "$work/extended.kpk"
  # the sm_8x cubins' route (gen/ptxas.c): ptxas on compute_80's PTX
  ptxas=${CUDA_HOME:-/usr/local/cuda}/bin/ptxas
  expect 0 "$kpgen" compile "$work/src/$v.cu" compute_80 "$work/obj/ptx_$v"
  expect 1 "$kpgen" assemble "$work/nonexistent/ptxas" "$work/obj/ptx_$v.bin" sm_86 "$work/obj/x"
  expect 1 "$kpgen" assemble "$ptxas" "$work/src/$v.cu" sm_86 "$work/obj/x"
  expect 1 "$kpgen" assemble "$ptxas" "$work/obj/$v.bin" sm_86 "$work/obj/x"
  expect 2 "$kpgen" assemble "$ptxas" "$work/obj/ptx_$v.bin"
  if [ -x "$ptxas" ]; then
    expect 0 "$kpgen" assemble "$ptxas" "$work/obj/ptx_$v.bin" sm_86 "$work/obj/asm_$v"
    expect 0 grep -q "^options=ptxas -arch=sm_86 on the PTX of --gpu-architecture=compute_80" \
      "$work/obj/asm_$v.info"
  fi
else
  failed=$((failed + 1))
  echo "FAIL: kpgen emit wrote no softmax_f32_block_t128_* source"
fi
echo "tools_cpu: $((passed + failed)) invocations, $failed not as expected"
[ "$failed" = 0 ]
