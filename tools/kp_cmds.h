/*
** kp_cmds.h -- the subcommands of `kp` that live outside kp.c.
** Each takes argv with argv[0] = the subcommand and returns the exit status.
*/
#ifndef KP_CMDS_H
#define KP_CMDS_H

#include "internal.h"
#include "jit.h"

int kp_cmd_tune(int argc, char **argv);    /* kp_tune.c */
int kp_cmd_explain(int argc, char **argv); /* kp_workflow.c */
int kp_cmd_prune(int argc, char **argv);
int kp_cmd_warmup(int argc, char **argv);
int kp_cmd_merge(int argc, char **argv);

/* Is name one of the comma-separated items of list (NULL: everything)? */
int kp_in_list(const char *list, const char *name);

#endif
