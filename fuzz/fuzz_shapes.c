/*
** fuzz_shapes.c -- libFuzzer target for the shape files of `kp tune` and
** `kp warmup` (tools/kp_shapes.c): any bytes must give shapes or a message
** naming file:line, never a crash; every shape read must have its table key
** and its call (the paths kp tune --list takes).
**
**   make fuzz
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "kp_cmds.h"
#include "tune.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static char path[64];
  static FILE *quiet;
  if (!path[0]) { /* one file, rewritten per input; kp_read_shapes's messages to /dev/null */
    snprintf(path, sizeof path, "/tmp/kp_fuzz_shapes_%ld", (long)getpid());
    quiet = fopen("/dev/null", "w");
  }
  FILE *f = fopen(path, "wb");
  if (!f) return 0;
  if (size) fwrite(data, 1, size, f);
  fclose(f);
  static kp_shape shapes[256];
  FILE *saved = stderr;
  if (quiet) stderr = quiet;
  const int n = kp_read_shapes(path, shapes, 256);
  stderr = saved;
  for (int i = 0; i < n; i++) {
    char text[128];
    kp_tune_row row;
    kp_shape_key(&shapes[i], KP_BF16, &row);
    kp_shape_text(&shapes[i], text, sizeof text);
    (void)kp_shape_elems(&shapes[i]);
  }
  return 0;
}
