# bench/lanes.sh -- shared prelude of the GPU call scripts (source it):
#
#     cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
#     lane0() { GPU=0; el "suite"; gpu_suite tests.log 330; ... }
#     old_pack && ab ab rmsnorm bf16 131072x1001,65536x1001 2 400   # in turns
#     lane1() { GPU=1; san racecheck attention_gpu _dec_ san_dec.log 480; }
#     lane0 > $R/lane0.log 2>&1 & lane1 > $R/lane1.log 2>&1 & wait
#     lanes_finish
#
# A call script lives in build/carry/ (git-ignored; carried with build/lib,
# build/bin, build/tests and the packs as build/carry/packs.tar.xz: the
# whole ones, sm_90a's every variant (make packs-whole), under the name packs,
# `tar -C build -chf - --transform 's,^packs-whole,packs,' packs-whole |
# xz -T2 -3 > build/carry/packs.tar.xz`; 14 MB, of which sm_90a's is 4:
# the device tool carries at most 64 MiB with the tracked tree's ~16 (the
# old sessions' logs archived, bench/results/README.md) and the build's ~6;
# a benchmark-only call may carry sm_90a's alone: `tar -C build -chf -
# --transform 's,^packs-whole,packs,' packs-whole/sm_90a.kpk | xz ...`); the
# results go to $OUT/r and come back as one file, $OUT/r.tar.xz (the device
# tool returns only a few files).  Copy the script as run, and its results,
# to bench/results/<date>-<name>/ afterwards.

# Unpack the carried packs, set the environment, start the clock.  Fails
# (status 1, a line saying why) where the archive did not arrive whole: once
# (thirty-fifth session, call 2) it came cut short although it tested whole
# before the call, and a script without `|| exit 1` ran its suites with no
# packs.
lanes_setup() {
  if ! tar -C build -xJf build/carry/packs.tar.xz; then
    echo "lanes_setup: build/carry/packs.tar.xz is not whole here: run the call again"
    return 1
  fi
  chmod +x build/bin/* build/tests/* 2>/dev/null
  export KP_PACK_DIR=$PWD/build/packs KP_TEMPLATE_DIR=$PWD/templates
  export PYTHONUNBUFFERED=1 CUDA_CACHE_DISABLE=1 KP_CACHE_DIR=$OUT/cache
  R=$OUT/r
  mkdir -p "$R"
  T0=$(date +%s)
  nvidia-smi -L
}

# el TEXT: TEXT after the seconds since lanes_setup
el() { echo "[$(($(date +%s) - T0))s] $*"; }

# left DEADLINE: seconds until DEADLINE (seconds after lanes_setup), at least 5
left() {
  local l=$((${1:-540} - ($(date +%s) - T0)))
  ((l < 5)) && l=5
  echo "$l"
}

# gpu_suite LOG DEADLINE [SUITE]: the GPU test suite (or one suite of it) on $GPU
gpu_suite() {
  # (CK_RUN_SUITE set but empty runs no suite at all: only when one is named)
  # (the TAP log, $R/LOG.tap, is written test by test: a run cut at its
  # deadline still tells what passed, where the summary never came)
  CUDA_VISIBLE_DEVICES=${GPU:-0} KP_REQUIRE_GPU=1 KP_TEST_TIMES=1 env ${3:+CK_RUN_SUITE=$3} \
    CK_TAP_LOG_FILE_NAME="$R/$1.tap" timeout "$(left "$2")" build/tests/check_kernpack \
    >"$R/$1" 2>&1
  echo "$1 rc=$? $(grep -E '^[0-9]+%: Checks' "$R/$1")" \
    "tap: $(grep -c '^ok' "$R/$1.tap" 2>/dev/null) ok, $(grep -c '^not ok' "$R/$1.tap" 2>/dev/null) not ok"
  # (the failures: the TAP log's, which the summary's :F: / :E: lines repeat)
  grep '^not ok' "$R/$1.tap" 2>/dev/null | head -8 | cut -c1-300
}

# f64 ONLY DEADLINE: the every-variant float64 case (variants_gpu) over the
# variants whose name holds ONLY (KP_TEST_ONLY: substrings between '|'; each
# dtype must match one -- add a filler such as rmsnorm_f32_block_t128_v4_n1_w;
# not ..._n1 alone, which also names the 16-CTA `_n16_c16`, a variant
# synccheck cannot run: bench/NOTES.md 105), on $GPU; $R/var.log, then its
# summary lines.  SUITE (attention_gpu or gemm_gpu): that suite's
# every-variant case instead, into $R/SUITE.f64.log
f64() {
  local suite=${3:-variants_gpu} tc='' log=var.log
  case $suite in attention_gpu | gemm_gpu) tc=${suite%_gpu} log=$suite.f64.log ;; esac
  CUDA_VISIBLE_DEVICES=${GPU:-0} KP_REQUIRE_GPU=1 KP_TEST_TIMES=1 CK_RUN_SUITE=$suite \
    env ${tc:+CK_RUN_CASE=$tc} KP_TEST_ONLY=$1 timeout "$(left "$2")" build/tests/check_kernpack \
    >"$R/$log" 2>&1
  echo "${log%.log} rc=$?"
  grep -E "Checks|:[EF]:|cases|ran no" "$R/$log" | head -8 | cut -c1-300
}

# san TOOL SUITE ONLY LOG DEADLINE: compute-sanitizer's TOOL over SUITE's GPU
# tests of the variants whose name holds ONLY, on $GPU (attention_gpu and
# gemm_gpu: their every-variant case alone, not the selection's).  ONLY is
# KP_TEST_ONLY: plain substrings between '|', not a regex -- "x(a|b)" is the
# two substrings "x(a" and "b)"; the log's "N cases" lines name what ran.
# SAN_OPTS: more options for the tool (synccheck over the RMSNorm+SwiGLU
# `_blk` variants needs --num-cuda-barriers 65536: its own count of their
# mbarriers overflows and the run aborts; thirty-third session).
san() {
  local tc=
  case $2 in attention_gpu | gemm_gpu) tc=${2%_gpu} ;; esac
  CUDA_VISIBLE_DEVICES=${GPU:-0} KP_REQUIRE_GPU=1 CK_FORK=no CK_RUN_SUITE=$2 KP_TEST_ONLY=$3 \
    env ${tc:+CK_RUN_CASE=$tc} timeout "$(left "$5")" compute-sanitizer --tool "$1" $SAN_OPTS --error-exitcode 3 \
    build/tests/check_kernpack >"$R/$4" 2>&1
  echo "$4 rc=$? $(grep -hE 'ERROR SUMMARY|RACECHECK SUMMARY' "$R/$4" | head -2)" \
    "$(grep -E '^[0-9]+%: Checks' "$R/$4")"
}

# pdl NAME PIN OPS TOKENS DEADLINE: bench/pdl_bench.py's chain of OPS (a
# comma list of rmsnorm,swiglu,rope; all three: the whole chain, with eager
# beside it) at TOKENS, with and without PDL, on $GPU, PIN (a variant name,
# or "") forced through KP_VARIANT; one line: per token count, us a call
# with PDL / without, and the share saved (the whole chain: eager's us)
pdl() {
  el "$1"
  CUDA_VISIBLE_DEVICES=${GPU:-0} KP_VARIANT=$2 timeout "$(left "$5")" python3 bench/pdl_bench.py \
    --no-compile --ops "$3" --tokens "$4" --json "$R/$1.json" >"$R/$1.log" 2>&1
  echo "$1 ($2) rc=$? $(grep -E '^ *[0-9]+ \|' "$R/$1.log" |
    awk '{printf "T%s %s/%s %s | ", $1, $3, $5, $7}')"
}

# old_pack: unpack build/carry/packs_old.tar.xz (main's sm_90a pack before
# the change, `tar -C build/packs-whole -chf - sm_90a.kpk | xz`) into
# build/packs_old, the other targets' packs copied from build/packs
old_pack() {
  mkdir -p build/packs_old && xz -dc build/carry/packs_old.tar.xz | tar -C build/packs_old -xf - || return 1
  for f in build/packs/*.kpk; do [ -e build/packs_old/${f##*/} ] || cp -L "$f" build/packs_old/; done
}

# ab TAG OPS DTYPE SHAPES ROUNDS DEADLINE: side by side in turns, main's
# pack (old_pack) then this build's, ROUNDS rounds of OPS at SHAPES (a comma
# list of ROWSxCOLS) in DTYPE; $R/TAG_{old,new}_N.{json,log}, then one line a
# file of our us a shape
ab() {
  local round which pd
  for ((round = 1; round <= $5; round++)); do
    for which in old new; do
      if [ $which = old ]; then pd=$PWD/build/packs_old; else pd=$PWD/build/packs; fi
      KP_PACK_DIR=$pd timeout "$(left "$6")" python3 bench/side_by_side.py --ops "$2" --dtypes "$3" \
        --shapes "$4" --no-compile --reps 20 --warmup 4 --json "$R/$1_${which}_$round.json" \
        >"$R/$1_${which}_$round.log" 2>&1
      echo "$1 $which $round rc=$?"
    done
  done
  for f in "$R/$1"_*.log; do
    echo "== ${f##*/} $(grep -E '^  ours' "$f" | cut -c1-24 | tr -s ' ' | paste -sd' ')"
  done
}

# ab_attn TAG ROUNDS STEP ARGS...: bench/attn_bench.py with ARGS in turns,
# main's pack (old_pack) then this build's, ROUNDS rounds, each run given
# STEP seconds more of deadline than the one before (from now); $R/TAG_{old,
# new}_N.{json,log}, then each run's causal rows
ab_attn() {
  local tag=$1 rounds=$2 step=$3 round which pd n=0 t=$(($(date +%s) - T0))
  shift 3
  for ((round = 1; round <= rounds; round++)); do
    for which in old new; do
      n=$((n + 1))
      if [ $which = old ]; then pd=$PWD/build/packs_old; else pd=$PWD/build/packs; fi
      KP_PACK_DIR=$pd timeout "$(left $((t + step * n)))" python3 bench/attn_bench.py "$@" \
        --json "$R/${tag}_${which}_$round.json" >"$R/${tag}_${which}_$round.log" 2>&1
      echo "$tag $which $round rc=$?"
      grep -E "^bfloat16.*True" "$R/${tag}_${which}_$round.log" | cut -c1-100
    done
  done
}

# pins TAG OPS DTYPE SHAPES ROUNDS DEADLINE VARIANT...: side by side in
# turns, each VARIANT forced through KP_VARIANT (every OPS call in DTYPE
# runs it: each must apply to every shape), ROUNDS rounds; $R/TAG_VARIANT_N
# .{json,log}, then one line a file of our us a shape
pins() {
  local round v tag=$1 ops=$2 dt=$3 shapes=$4 rounds=$5 dl=$6
  shift 6
  for ((round = 1; round <= rounds; round++)); do
    for v in "$@"; do
      KP_VARIANT=$v timeout "$(left "$dl")" python3 bench/side_by_side.py --ops "$ops" --dtypes "$dt" \
        --shapes "$shapes" --no-compile --reps 20 --warmup 4 --json "$R/${tag}_${v}_$round.json" \
        >"$R/${tag}_${v}_$round.log" 2>&1
      echo "$tag $v $round rc=$?"
    done
  done
  for v in "$@"; do
    for f in "$R/${tag}_${v}"_*.log; do
      echo "== ${f##*/} $(grep -E '^  ours' "$f" | cut -c1-24 | tr -s ' ' | paste -sd' ')"
    done
  done
}

# tune SHAPES DEADLINE [DTYPE]: kp tune over the shapes file SHAPES (a
# line `family rows cols`), every applicable variant in one process (the
# whole packs), 10 reps, on $GPU; $R/t.tune and tune.log, then the five
# fastest variants a shape (the form the sixtieth session's calls wrote out)
tune() {
  CUDA_VISIBLE_DEVICES=${GPU:-0} timeout "$(left "$2")" stdbuf -oL build/bin/kp tune -o "$R/t.tune" \
    --dtypes "${3:-bf16}" --shapes "$1" --reps 10 >"$R/tune.log" 2>&1
  echo "tune rc=$?"
  local f r c
  grep -v '^#' "$1" | while read -r f r c; do
    echo "== $f $r x $c"
    grep "^$f ${3:-bf16} ${r}x$c " "$R/t.tune" | sort -k6 -g | head -5 | awk '{printf "%s %s | ", $5, $6}'
    echo
  done
}

# Python's warnings and torch's chatter, left out of the benchmark logs
F='Warning|warn\(|return F\.|utcnow|f"\{'

# Pack $R into $OUT/r.tar.xz (what comes back).
lanes_finish() {
  tar -C "$OUT" -cJf "$OUT/r.tar.xz" r && rm -rf "$R"
  el end
}
