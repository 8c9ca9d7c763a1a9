/*
** ptxas.c -- a cubin from a variant's PTX by the toolkit's ptxas alone.
**
** NVVM makes the same PTX for sm_80, sm_86 and sm_89 as for compute_80
** (bench/NOTES.md 28, 91), so the build runs NVRTC's front end and NVVM
** once for the four targets -- the compute_80 pack's PTX -- and ptxas for
** each cubin: 70% of a compile saved three times over.  The cubins are
** NVRTC's own, section for section, but for the toolkit's notes
** (tests/check_packs_built.c compares a sample on every build).
*/
#define _GNU_SOURCE /* asprintf */
#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "nvrtc_compile.h"

extern char **environ;

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int kg_ptxas_compile(const char *ptxas, const char *ptx, const char *target, const char *out,
                     kg_compile_info *info, char **log) {
  memset(info, 0, sizeof *info);
  *log = NULL;
  char arch[64];
  snprintf(arch, sizeof arch, "-arch=%s", target);
  int fds[2];
  if (pipe(fds)) return asprintf(log, "pipe: %s", strerror(errno)), -1;
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
  posix_spawn_file_actions_adddup2(&fa, fds[1], 2);
  posix_spawn_file_actions_addclose(&fa, fds[0]);
  char *const argv[] = {(char *)ptxas, arch, "-v", "-o", (char *)out, (char *)ptx, NULL};
  pid_t pid;
  const double t0 = now_ms();
  int rc = posix_spawn(&pid, ptxas, &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  close(fds[1]);
  size_t n = 0, cap = 0;
  char *text = NULL, chunk[4096];
  ssize_t got;
  int oom = 0;
  while ((got = read(fds[0], chunk, sizeof chunk)) > 0 || (got < 0 && errno == EINTR)) {
    if (got <= 0 || oom) continue; /* (read to the end: the child must not block) */
    if (n + (size_t)got + 1 > cap) {
      char *more = realloc(text, cap = 2 * (n + (size_t)got + 1));
      if (!more) { oom = 1; continue; }
      text = more;
    }
    memcpy(text + n, chunk, (size_t)got), n += (size_t)got;
  }
  close(fds[0]);
  int status = 0;
  if (rc == 0) waitpid(pid, &status, 0);
  info->ms = now_ms() - t0;
  if (oom || !(text || (text = malloc(1)))) return free(text), asprintf(log, "out of memory"), -1;
  text[n] = 0;
  *log = text;
  if (rc != 0) {
    free(text);
    return asprintf(log, "cannot run %s: %s", ptxas, strerror(rc)), -1;
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return -1;
  kg_parse_ptxas(text, info);
  return 0;
}
