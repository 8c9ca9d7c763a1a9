#!/usr/bin/env bash
# run_gpu.sh -- the one script run on the GPU machine, from the repository root,
# with the build/ directory (lib, bin, tests, packs) carried over from the
# development machine.  Steps, each logged under $OUT:
#
#   tests         KP_REQUIRE_GPU=1 build/tests/check_kernpack      -> tests.log
#   kpbench       build/bin/kpbench $KPBENCH_ARGS                  -> kpbench.log
#   side_by_side  python3 bench/side_by_side.py $SIDE_ARGS         -> side_by_side.log, .json
#   pdl           python3 bench/pdl_bench.py $PDL_ARGS               -> pdl.log, pdl.json
#   gemm          python3 bench/gemm_bench.py --variants $GEMM_ARGS -> gemm.log, gemm.json
#   sanitizer     only if KP_SANITIZE is set ("1" = memcheck, or a list such as
#                 "memcheck racecheck"): compute-sanitizer on kpbench --quick (bf16),
#                 the GEMM GPU suite, the attention variants named by KP_SANITIZE_ATTN
#                 (default _dec_) and the row families' cluster variants
#                 -> sanitizer_{,gemm_,attention_,rows_cluster_}<tool>.log
#
# A failing step never stops the others; each exit status is recorded.  Every
# step runs under `timeout`, sized so that the whole script ends within
# KP_DEADLINE_S seconds (default 570, under a 600 s command limit) and the
# summary at the end -- test counts, the kpbench summary table and the
# side-by-side table -- is always printed (only the last 12,000 characters of
# output may come back).
#
# Environment: OUT (default ./build/gpu-out), KP_DEADLINE_S, KPBENCH_ARGS
# (default --keep-going), SIDE_ARGS, KP_SANITIZE, KP_SKIP (step names to
# leave out, space-separated, e.g. "regen tune"), KP_LARGE_SHAPES, KP_TUNE_LARGE_S,
# KP_TUNE_REPS (the large-shape tuning step's shapes, seconds, repetitions).
# Everything it needs is built on the development machine first: `make all bench`.
set -u
cd "$(dirname "$0")/.." || exit 1
ROOT=$PWD
OUT=${OUT:-$ROOT/build/gpu-out}
mkdir -p "$OUT"
export KP_PACK_DIR=$ROOT/build/packs KP_TEMPLATE_DIR=$ROOT/templates
export PYTHONUNBUFFERED=1
T0=$(date +%s)
DEADLINE=${KP_DEADLINE_S:-570}
KPBENCH_ARGS=${KPBENCH_ARGS:---keep-going}
SIDE_ARGS=${SIDE_ARGS:-}

NAMES=()
RCS=()
SECS=()

# budget WANT: seconds a step may take, leaving 20 s for the summary
budget() {
  local left=$((DEADLINE - ($(date +%s) - T0) - 20)) want=$1
  ((left < want)) && want=$left
  ((want < 5)) && want=5
  echo "$want"
}

# step NAME LOG WANT_SECONDS CMD...: run CMD under timeout, tee its output to LOG
step() {
  local name=$1 log=$2 tmo s rc
  case " ${KP_SKIP:-} " in *" $name "*) echo "==== [$name] skipped (KP_SKIP)"; return 0 ;; esac
  tmo=$(budget "$3")
  shift 3
  echo
  echo "==== [$name] $* (timeout ${tmo}s) ===="
  s=$(date +%s)
  timeout -k 10 "$tmo" "$@" 2>&1 | tee "$log"
  rc=${PIPESTATUS[0]}
  if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
    echo "[$name] TIMED OUT after ${tmo}s" | tee -a "$log"
  fi
  echo "==== [$name] exit $rc after $(($(date +%s) - s))s ===="
  NAMES+=("$name")
  RCS+=("$rc")
  SECS+=("$(($(date +%s) - s))")
}

echo "==== run_gpu.sh on $(hostname), $(date -u '+%Y-%m-%d %H:%M:%S UTC'), OUT=$OUT"
nvidia-smi -L || echo "nvidia-smi -L failed"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem \
  --format=csv,noheader 2>/dev/null
date
# shellcheck disable=SC2012
ls -l build/lib/libkernpack.so build/bin/kpbench build/tests/check_kernpack build/packs 2>&1 | head -20
for f in build/bin/kp build/bin/kpbench build/tests/check_kernpack; do
  [ -x "$f" ] || echo "run_gpu.sh: $f is missing: run 'make all bench' before carrying build/"
done

# ---- 1. GPU test suite ----------------------------------------------------------------
step tests "$OUT/tests.log" 240 \
  env KP_REQUIRE_GPU=1 KP_TEST_TIMES=1 CK_VERBOSITY=normal build/tests/check_kernpack

# ---- 1b. CLI, JIT at first use (a pack without cubins for this GPU), tuning ---------------
step info "$OUT/info.log" 30 build/bin/kp info
JITPACKS=$(mktemp -d) && cp build/packs/sm_80.kpk "$JITPACKS/"
printf 'softmax 4096 8192\nrmsnorm 4096 4096\nadd_rmsnorm 4096 4096\nswiglu 4096 11008\ngeglu 4096 11008\nrmsnorm_swiglu 4096 11008\nrope 16384 128\n' >"$OUT/shapes.txt"
export KP_CACHE_DIR=$OUT/jitcache
# CUDA_CACHE_DISABLE=1: NVRTC 12.9+ keeps its own cache of results in the
# driver's compute cache, so a source the tests above compiled would come
# back in ~15 ms; a first use on a fresh machine compiles for real.
step warmup-cold "$OUT/warmup_cold.log" 60 env KP_PACK_DIR="$JITPACKS" KP_LOG=info \
  CUDA_CACHE_DISABLE=1 build/bin/kp warmup "$OUT/shapes.txt" --dtypes bf16 -j 1
step warmup-cold-parallel "$OUT/warmup_cold_parallel.log" 60 env KP_PACK_DIR="$JITPACKS" \
  CUDA_CACHE_DISABLE=1 KP_CACHE_DIR="$OUT/jitcache2" build/bin/kp warmup "$OUT/shapes.txt" \
  --dtypes bf16
step warmup-hot "$OUT/warmup_hot.log" 30 env KP_PACK_DIR="$JITPACKS" \
  build/bin/kp warmup "$OUT/shapes.txt" --dtypes bf16
# first use from the PTX pack alone: on sm_80..sm_9x the driver compiles the
# pack's PTX (runtime/jit.h; per-call times in the log), cold (the driver's
# cache off), then twice with its cache (the second run is the cache hit)
PTXPACKS=$(mktemp -d) && cp build/packs/compute_80.kpk "$PTXPACKS/"
step warmup-ptx-cold "$OUT/warmup_ptx_cold.log" 60 env KP_PACK_DIR="$PTXPACKS" KP_LOG=info \
  CUDA_CACHE_DISABLE=1 build/bin/kp warmup "$OUT/shapes.txt" --dtypes bf16
step warmup-ptx-fill "$OUT/warmup_ptx_fill.log" 60 env KP_PACK_DIR="$PTXPACKS" \
  CUDA_CACHE_PATH="$OUT/nvcache" build/bin/kp warmup "$OUT/shapes.txt" --dtypes bf16
step warmup-ptx-hot "$OUT/warmup_ptx_hot.log" 30 env KP_PACK_DIR="$PTXPACKS" KP_LOG=info \
  CUDA_CACHE_PATH="$OUT/nvcache" build/bin/kp warmup "$OUT/shapes.txt" --dtypes bf16
step warmup-pack "$OUT/warmup_pack.log" 30 build/bin/kp warmup "$OUT/shapes.txt" --dtypes bf16
# every variant at the benchmark's large shapes (default vs best per shape)
step tune-large "$OUT/tune_large.log" "${KP_TUNE_LARGE_S:-150}" build/bin/kp tune \
  --shapes "${KP_LARGE_SHAPES:-bench/shapes_large.txt}" --dtypes bf16 --reps "${KP_TUNE_REPS:-15}" \
  -o "$OUT/large.tune"
# several GPUs of one host: kp tune shards over them and merges the tables
NGPU=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ')
if [ "${NGPU:-0}" -ge 2 ]; then
  step tune-devices "$OUT/tune_devices.log" 90 build/bin/kp tune --devices 0,1 --dtypes bf16 \
    --families rmsnorm,swiglu --time-budget 30 --reps 9 -o "$OUT/multi.tune"
fi
# regenerate around the large-shape winners: neighbours built, tuned, kept if faster
if [ -f "$OUT/large.tune" ]; then
  step regen "$OUT/regen.log" 170 build/bin/kp regen "$OUT/large.tune" \
    --pack build/packs/sm_90a.kpk -o "$OUT/regen/sm_90a.kpk" --rounds 3 --time-budget 150
  step regen-verify "$OUT/regen_verify.log" 20 build/bin/kp verify "$OUT/regen/sm_90a.kpk"
fi
step tune "$OUT/tune.log" 60 build/bin/kp tune --dtypes bf16 --time-budget 40 --reps 9 \
  -o "$OUT/h.tune"
step explain "$OUT/explain.log" 20 build/bin/kp explain softmax 4096x8192 bf16 --tune "$OUT/h.tune"
# the benchmarks below run with both tables merged (tuned kernpack; the
# ranking's own picks are the "default" column of the tune logs)
TABLES=()
for t in "$OUT/h.tune" "$OUT/large.tune"; do [ -f "$t" ] && TABLES+=("$t"); done
if [ "${#TABLES[@]}" -gt 0 ] && build/bin/kp merge -o "$OUT/all.tune" "${TABLES[@]}"; then
  export KP_TUNE_FILE=$OUT/all.tune
fi

# ---- 2. kpbench -------------------------------------------------------------------------
# shellcheck disable=SC2086  # word splitting of the flags is intended
step kpbench "$OUT/kpbench.log" 150 build/bin/kpbench $KPBENCH_ARGS

# ---- 3. side by side with PyTorch ---------------------------------------------------------
# first with the ranking alone (no table), then tuned
# shellcheck disable=SC2086
step side_by_side_ranked "$OUT/side_by_side_ranked.log" 100 env -u KP_TUNE_FILE \
  KP_CACHE_DIR="$OUT/empty-cache" python3 -u bench/side_by_side.py \
  --json "$OUT/side_by_side_ranked.json" $SIDE_ARGS
# shellcheck disable=SC2086
step side_by_side "$OUT/side_by_side.log" 200 \
  python3 -u bench/side_by_side.py --json "$OUT/side_by_side.json" $SIDE_ARGS

# ---- 3a. a decode chain from CUDA graphs, with and without PDL, next to PyTorch -----------
# shellcheck disable=SC2086
step pdl "$OUT/pdl.log" 150 python3 -u bench/pdl_bench.py --json "$OUT/pdl.json" ${PDL_ARGS:-}

# ---- 3b. GEMM next to torch.matmul (cuBLAS): checks, then every variant per shape -----------
# shellcheck disable=SC2086
step gemm "$OUT/gemm.log" "${KP_GEMM_S:-240}" python3 -u bench/gemm_bench.py --variants \
  --json "$OUT/gemm.json" ${GEMM_ARGS:-}

# ---- 4. optional compute-sanitizer on a quick subset ---------------------------------------
if [ -n "${KP_SANITIZE:-}" ]; then
  CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  tools=$KP_SANITIZE
  [ "$tools" = 1 ] && tools=memcheck
  for tool in $tools; do
    step "sanitizer-$tool" "$OUT/sanitizer_$tool.log" 180 \
      "$CS" --tool "$tool" --error-exitcode 3 \
      build/bin/kpbench --quick --dtype bf16 --overhead-n 0 --keep-going
    # every GEMM variant at the test suite's small odd shapes (TMA/mbarrier pipelines)
    step "sanitizer-gemm-$tool" "$OUT/sanitizer_gemm_$tool.log" 180 \
      env CK_RUN_SUITE=gemm_gpu CK_FORK=no KP_REQUIRE_GPU=1 \
      "$CS" --tool "$tool" --error-exitcode 3 build/tests/check_kernpack
    # attention variants whose name has $KP_SANITIZE_ATTN (default _dec_: the
    # split-KV decode over clusters; _wg_: the Hopper prefill; each with its
    # varlen and paged cases), and the row families' cluster variants (_c)
    step "sanitizer-attention-$tool" "$OUT/sanitizer_attention_$tool.log" 150 \
      env CK_RUN_SUITE=attention_gpu CK_FORK=no KP_REQUIRE_GPU=1 \
      KP_TEST_ONLY="${KP_SANITIZE_ATTN:-_dec_}" \
      "$CS" --tool "$tool" --error-exitcode 3 build/tests/check_kernpack
    step "sanitizer-rows-cluster-$tool" "$OUT/sanitizer_rows_cluster_$tool.log" 120 \
      env CK_RUN_SUITE=variants_gpu CK_FORK=no KP_REQUIRE_GPU=1 KP_TEST_ONLY=_c \
      "$CS" --tool "$tool" --error-exitcode 3 build/tests/check_kernpack
  done
fi

# ---- summary ----------------------------------------------------------------------------------
echo
echo "==================== run_gpu.sh summary: $(date -u '+%Y-%m-%d %H:%M:%S UTC'), $(($(date +%s) - T0)) s ===================="
nvidia-smi -L 2>/dev/null | head -4
fails=0
for i in "${!NAMES[@]}"; do
  printf '  %-22s exit %3s  %4s s\n' "${NAMES[$i]}" "${RCS[$i]}" "${SECS[$i]}"
  [ "${RCS[$i]}" = 0 ] || fails=$((fails + 1))
done

echo "-- tests ($OUT/tests.log):"
if [ -f "$OUT/tests.log" ]; then
  grep -E '^GPU:|^SKIPPED|^KP_REQUIRE_GPU' "$OUT/tests.log" | head -3
  grep -E '^[0-9]+%: Checks: ' "$OUT/tests.log" || { echo "  (no Check summary line; last lines:)"; tail -5 "$OUT/tests.log"; }
  echo "  slowest GPU tests (KP_TEST_TIMES):"
  grep -E '^TIME ' "$OUT/tests.log" | sort -k3,3 -rn | head -8 | sed 's/^/    /'
  nf=$(grep -cE ':[EF]:' "$OUT/tests.log")
  if [ "$nf" -gt 0 ]; then
    echo "  failing checks ($nf, first 15, each cut to 300 chars):"
    grep -E ':[EF]:' "$OUT/tests.log" | head -15 | cut -c1-300
  fi
fi

for f in warmup_cold warmup_cold_parallel warmup_hot warmup_pack tune_large tune_devices regen regen_verify tune explain; do
  echo "-- $f:"
  tail -12 "$OUT/$f.log" 2>/dev/null | cut -c1-200
done
echo "-- kpbench ($OUT/kpbench.log):"
grep -h "kp_ctx_create" "$OUT/kpbench.log" 2>/dev/null
if grep -q '^==== kpbench summary' "$OUT/kpbench.log" 2>/dev/null; then
  sed -n '/^==== kpbench summary/,$p' "$OUT/kpbench.log"
else
  echo "  (no summary table; last lines:)"
  tail -8 "$OUT/kpbench.log" 2>/dev/null | cut -c1-300
fi

if [ -n "${KP_SANITIZE:-}" ]; then
  for f in "$OUT"/sanitizer_*.log; do
    [ -f "$f" ] || continue
    echo "-- $(basename "$f"):"
    grep -E 'ERROR SUMMARY|LEAK SUMMARY|RACECHECK SUMMARY' "$f" | head -3
    grep -E '^========= (Invalid|Race|Error|Program hit)' "$f" | head -5 | cut -c1-300
    grep -qE 'ERROR SUMMARY|RACECHECK SUMMARY' "$f" || tail -3 "$f" | cut -c1-300
  done
fi

echo "-- gemm ($OUT/gemm.log):"
grep -E '^(bfloat16|float16) |best:|check\(s\) failed|^copy rate' "$OUT/gemm.log" 2>/dev/null | cut -c1-200 | head -60
echo "-- PDL decode chain ($OUT/pdl.log):"
grep -E '^PDL takes effect' "$OUT/pdl.log" 2>/dev/null
sed -n '/^==== pdl_bench: us per call/,$p' "$OUT/pdl.log" 2>/dev/null | cut -c1-300
echo "-- side by side, ranking only ($OUT/side_by_side_ranked.log):"
sed -n '/^==== side-by-side/,$p' "$OUT/side_by_side_ranked.log" 2>/dev/null | cut -c1-400 | head -12
echo "-- side by side ($OUT/side_by_side.log):"
if grep -q '^==== side-by-side' "$OUT/side_by_side.log" 2>/dev/null; then
  sed -n '/^==== side-by-side/,$p' "$OUT/side_by_side.log" | cut -c1-400
else
  echo "  (no table; last lines:)"
  tail -12 "$OUT/side_by_side.log" 2>/dev/null | cut -c1-300
fi
echo "steps failed: $fails of ${#NAMES[@]}; logs in $OUT"
[ "$fails" = 0 ]
