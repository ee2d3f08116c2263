/* What every fipsmod subcommand shares: one option style (-out and --out alike, as openssl users
 * type them), --help on stdout, and status messages that say why the module refused. */
#ifndef FIPSMOD_CLI_OPTIONS_H
#define FIPSMOD_CLI_OPTIONS_H

#include <stdio.h>

/* The exit statuses of every command (documented in each --help and in fipsmod(1)). */
#define CLI_EXIT_OK 0
#define CLI_EXIT_FAILED 1 /* the operation failed, a check did not pass, the module refused */
#define CLI_EXIT_USAGE 2  /* a usage error, an unreadable input or an unwritable output */

/* The lines every usage text ends with. */
#define CLI_EXIT_TEXT                                                                      \
  "Exit status: 0 success; 1 the operation failed or the module is not operational (the\n" \
  "reason is printed); 2 usage error, unreadable input or unwritable output.\n"

/* cli_opt_is is true when |arg| is the long option |name| written with one dash or two
 * ("-hex" or "--hex"). */
int cli_opt_is(const char *arg, const char *name);

/* cli_is_help is true for -h, -help and --help. */
int cli_is_help(const char *arg);

/* cli_wants_help is true when any of argv[1..argc-1] asks for help. */
int cli_wants_help(int argc, char **argv);

/* cli_print_help writes |usage| to stdout and returns the exit status: 0, or CLI_EXIT_USAGE
 * (with a message on stderr) when stdout cannot be written. */
int cli_print_help(const char *usage);

/* cli_usage_error writes |usage| to stderr and returns CLI_EXIT_USAGE. */
int cli_usage_error(const char *usage);

/* cli_bad_usage names a usage mistake first, in one line ("fipsmod CMD: unknown option --foo"),
 * then the synopsis of |usage| (its "usage:" line and the lines that continue it) and where the
 * whole text is, all on stderr. Returns CLI_EXIT_USAGE. */
int cli_bad_usage(const char *cmd, const char *usage, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* cli_bad_arg is cli_bad_usage for the argument |arg| a command does not take: one of the
 * options in |valued| (NULL-terminated, names without dashes) left without its value, an unknown
 * option, or an extra operand. */
int cli_bad_arg(const char *cmd, const char *usage, const char *arg, const char *const *valued);

/* cli_report_status prints "fipsmod CMD: <status text>" to stderr and, when the module is not
 * OPERATIONAL, why: the state, its error reason and every self-test that failed. */
void cli_report_status(const char *cmd, int status);

#endif
