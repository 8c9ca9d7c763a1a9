/*
** driver.c -- dlopen libcuda once per process (see driver.h).
*/
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "driver.h"

static pthread_once_t drv_once = PTHREAD_ONCE_INIT;
static kp_driver drv;
static kp_status drv_status = KP_ERR_NO_DRIVER;
static char drv_err[256];

static void drv_load(void) {
  const char *lib = "libcuda.so.1";
  void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    const char *e = dlerror();
    snprintf(drv_err, sizeof drv_err, "dlopen %s: %s", lib, e ? e : "not found");
    return;
  }
#define KP_DRIVER_SYM_(name, sym)                                                  \
  *(void **)&drv.name = dlsym(h, sym);                                            \
  if (!drv.name) {                                                                 \
    snprintf(drv_err, sizeof drv_err, "%s: symbol %s missing (driver too old?)", lib, sym); \
    return;                                                                        \
  }
  KP_DRIVER_FUNCS(KP_DRIVER_SYM_)
#undef KP_DRIVER_SYM_
#define KP_DRIVER_OPT_SYM_(name, sym) *(void **)&drv.name = dlsym(h, sym);
  KP_DRIVER_OPTIONAL_FUNCS(KP_DRIVER_OPT_SYM_)
#undef KP_DRIVER_OPT_SYM_
  CUresult r = drv.cuInit(0);
  if (r != CUDA_SUCCESS) {
    char t[128];
    kp_driver_errtext(&drv, r, t, sizeof t);
    snprintf(drv_err, sizeof drv_err, "cuInit: %s", t);
    drv_status = r == CUDA_ERROR_NO_DEVICE ? KP_ERR_NO_DEVICE : KP_ERR_NO_DRIVER;
    return;
  }
  drv_status = KP_OK;
  /* the handle stays open for the life of the process, like the driver */
}

const kp_driver *kp_driver_load(kp_status *status, char *err, size_t errlen) {
  pthread_once(&drv_once, drv_load);
  if (status) *status = drv_status;
  if (drv_status != KP_OK) {
    if (err && errlen) snprintf(err, errlen, "%s", drv_err);
    return NULL;
  }
  return &drv;
}

void kp_driver_errtext(const kp_driver *d, CUresult r, char *buf, size_t len) {
  const char *name = NULL, *text = NULL;
  if (d && d->cuGetErrorName) d->cuGetErrorName(r, &name);
  if (d && d->cuGetErrorString) d->cuGetErrorString(r, &text);
  snprintf(buf, len, "%s (%s)", name ? name : "CUDA_ERROR_?", text ? text : "no description");
}
