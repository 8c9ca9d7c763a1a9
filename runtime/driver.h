/*
** driver.h -- the CUDA Driver API, loaded at run time with dlopen.
**
** Linking libcuda directly would stop the library (and every program that
** uses it) from even starting on a machine without a driver; dlopen lets the
** same binary run everywhere and report KP_ERR_NO_DRIVER.  The table is
** filled once per process and never changes afterwards, so it may be read
** from any thread.  Tests and the benchmark use it too (memory, events).
*/
#ifndef KP_DRIVER_H
#define KP_DRIVER_H

#include <cuda.h>

#include "kernpack.h"

/* name in this table, exported symbol in libcuda */
#define KP_DRIVER_FUNCS(X)                                   \
  X(cuInit, "cuInit")                                        \
  X(cuDriverGetVersion, "cuDriverGetVersion")                \
  X(cuGetErrorName, "cuGetErrorName")                        \
  X(cuGetErrorString, "cuGetErrorString")                    \
  X(cuDeviceGetCount, "cuDeviceGetCount")                    \
  X(cuDeviceGet, "cuDeviceGet")                              \
  X(cuDeviceGetName, "cuDeviceGetName")                      \
  X(cuDeviceGetAttribute, "cuDeviceGetAttribute")            \
  X(cuDeviceTotalMem, "cuDeviceTotalMem_v2")                 \
  X(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain")    \
  X(cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2") \
  X(cuCtxGetCurrent, "cuCtxGetCurrent")                      \
  X(cuCtxSetCurrent, "cuCtxSetCurrent")                      \
  X(cuCtxGetDevice, "cuCtxGetDevice")                        \
  X(cuCtxPushCurrent, "cuCtxPushCurrent_v2")                 \
  X(cuCtxPopCurrent, "cuCtxPopCurrent_v2")                   \
  X(cuCtxSynchronize, "cuCtxSynchronize")                    \
  X(cuModuleLoadData, "cuModuleLoadData")                    \
  X(cuModuleLoadDataEx, "cuModuleLoadDataEx")                \
  X(cuModuleUnload, "cuModuleUnload")                        \
  X(cuModuleGetFunction, "cuModuleGetFunction")              \
  X(cuFuncSetAttribute, "cuFuncSetAttribute")                \
  X(cuFuncGetAttribute, "cuFuncGetAttribute")                \
  X(cuLaunchKernel, "cuLaunchKernel")                        \
  X(cuMemAlloc, "cuMemAlloc_v2")                             \
  X(cuMemFree, "cuMemFree_v2")                               \
  X(cuMemcpyHtoD, "cuMemcpyHtoD_v2")                         \
  X(cuMemcpyDtoH, "cuMemcpyDtoH_v2")                         \
  X(cuMemcpyDtoDAsync, "cuMemcpyDtoDAsync_v2")               \
  X(cuMemsetD8, "cuMemsetD8_v2")                             \
  X(cuMemsetD8Async, "cuMemsetD8Async")                      \
  X(cuStreamCreate, "cuStreamCreate")                        \
  X(cuStreamDestroy, "cuStreamDestroy_v2")                   \
  X(cuStreamSynchronize, "cuStreamSynchronize")              \
  X(cuEventCreate, "cuEventCreate")                          \
  X(cuEventDestroy, "cuEventDestroy_v2")                     \
  X(cuEventRecord, "cuEventRecord")                          \
  X(cuEventSynchronize, "cuEventSynchronize")                \
  X(cuEventElapsedTime, "cuEventElapsedTime")

/* Newer entry points (CUDA 12.0 drivers): NULL in the table when the driver
** lacks them; the variants that need them (clusters, TMA) then do not run,
** and PDL has no effect.  The graph calls are for the tests (capture; the
** edges' types: cuGraphGetEdges_v2, CUDA 12.3); the library makes none. */
#define KP_DRIVER_OPTIONAL_FUNCS(X)                          \
  X(cuLaunchKernelEx, "cuLaunchKernelEx")                    \
  X(cuTensorMapEncodeTiled, "cuTensorMapEncodeTiled")          \
  X(cuOccupancyMaxActiveClusters, "cuOccupancyMaxActiveClusters") \
  X(cuOccupancyMaxActiveBlocksPerMultiprocessor,               \
    "cuOccupancyMaxActiveBlocksPerMultiprocessor")             \
  X(cuFuncGetParamInfo, "cuFuncGetParamInfo")                \
  X(cuStreamBeginCapture, "cuStreamBeginCapture_v2")         \
  X(cuStreamEndCapture, "cuStreamEndCapture")                \
  X(cuGraphInstantiate, "cuGraphInstantiateWithFlags")       \
  X(cuGraphLaunch, "cuGraphLaunch")                          \
  X(cuGraphExecDestroy, "cuGraphExecDestroy")                \
  X(cuGraphDestroy, "cuGraphDestroy")                        \
  X(cuGraphGetEdges, "cuGraphGetEdges_v2")

typedef struct kp_driver {
#define KP_DRIVER_FIELD_(name, sym) __typeof__(&name) name;
  KP_DRIVER_FUNCS(KP_DRIVER_FIELD_)
  KP_DRIVER_OPTIONAL_FUNCS(KP_DRIVER_FIELD_)
#undef KP_DRIVER_FIELD_
} kp_driver;

/*
** Load libcuda.so.1 and call cuInit(0), once per process.  Returns the table,
** or NULL with *status and a message in err (e.g. "dlopen libcuda.so.1:
** ...", "cuInit: CUDA_ERROR_NO_DEVICE").
*/
const kp_driver *kp_driver_load(kp_status *status, char *err, size_t errlen);

/* "CUDA_ERROR_INVALID_VALUE (invalid argument)" for a result code. */
void kp_driver_errtext(const kp_driver *d, CUresult r, char *buf, size_t len);

#endif /* KP_DRIVER_H */
