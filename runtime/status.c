/*
** status.c -- status names and texts (from the one list in kernpack.h),
** dtype names, and the library version.
*/
#include "kernpack.h"

const char *kp_version(void) { return KP_VERSION_STRING; }

const char *kp_status_name(kp_status s) {
  switch (s) {
#define KP_STATUS_NAME_(name, text) case name: return #name;
    KP_STATUS_LIST(KP_STATUS_NAME_)
#undef KP_STATUS_NAME_
    default: return "KP_UNKNOWN";
  }
}

const char *kp_strerror(kp_status s) {
  switch (s) {
#define KP_STATUS_TEXT_(name, text) case name: return text;
    KP_STATUS_LIST(KP_STATUS_TEXT_)
#undef KP_STATUS_TEXT_
    default: return "unknown status";
  }
}

const char *kp_dtype_name(kp_dtype dt) {
  switch (dt) {
    case KP_F32: return "f32";
    case KP_F16: return "f16";
    case KP_BF16: return "bf16";
    default: return NULL;
  }
}

size_t kp_dtype_size(kp_dtype dt) {
  switch (dt) {
    case KP_F32: return 4;
    case KP_F16: case KP_BF16: return 2;
    default: return 0;
  }
}
