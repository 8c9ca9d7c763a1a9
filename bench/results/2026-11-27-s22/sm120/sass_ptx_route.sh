#!/bin/bash
# sass_ptx_route.sh VARIANT: SASS of NVRTC-from-source $ARCH (default sm_120) against ptxas $ARCH of the $PACK (default compute_120) PTX
export PATH=$PATH:/root/.pyenv/versions/3.11.7/lib/python3.11/site-packages/nvidia/cu13/bin
v=$1; A=${ARCH:-sm_120}; P=${PACK:-compute_120}; d=/tmp/s120/w_${A}_$v; mkdir -p $d; cd /work/main
build/bin/kpgen compile build/src/$v.cu $A $d/n >/dev/null 2>&1 || { echo "NVRTCFAIL $v"; exit; }
tr -d '\000' < build/obj/$P/$v.bin > $d/v.ptx
/usr/local/cuda/bin/ptxas -arch $A $d/v.ptx -o $d/p.cubin 2>/dev/null || { echo "PTXASFAIL $v"; exit; }
a=$(cuobjdump -sass $d/n.bin | grep -E '^\s+/\*[0-9a-f]{4,5}\*/' | sed -E 's/^\s+\/\*[0-9a-f]{4,5}\*\///' | md5sum)
b=$(cuobjdump -sass $d/p.cubin | grep -E '^\s+/\*[0-9a-f]{4,5}\*/' | sed -E 's/^\s+\/\*[0-9a-f]{4,5}\*\///' | md5sum)
[ "$a" = "$b" ] && echo "same $v" || echo "DIFF $v"
rm -rf $d
