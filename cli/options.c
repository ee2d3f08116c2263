/* The option style and messages every subcommand shares (see options.h). */
#include "cli/options.h"

#include <errno.h>
#include <stdarg.h>
#include <string.h>

#include "fipsmod/module.h"
#include "fipsmod/selftest.h"
#include "fipsmod/status.h"

int cli_opt_is(const char *arg, const char *name) {
  if (arg[0] != '-') return 0;
  arg += arg[1] == '-' ? 2 : 1;
  return strcmp(arg, name) == 0;
}

int cli_is_help(const char *arg) { return strcmp(arg, "-h") == 0 || cli_opt_is(arg, "help"); }

int cli_wants_help(int argc, char **argv) {
  for (int i = 1; i < argc; i++)
    if (cli_is_help(argv[i])) return 1;
  return 0;
}

int cli_print_help(const char *usage) {
  errno = 0;
  if (fputs(usage, stdout) != EOF && fflush(stdout) == 0) return CLI_EXIT_OK;
  fprintf(stderr, "fipsmod: cannot write standard output: %s\n", strerror(errno ? errno : EIO));
  return CLI_EXIT_USAGE;
}

int cli_usage_error(const char *usage) {
  fputs(usage, stderr);
  return CLI_EXIT_USAGE;
}

int cli_bad_usage(const char *cmd, const char *usage, const char *fmt, ...) {
  fprintf(stderr, "fipsmod %s: ", cmd);
  va_list ap;
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  /* The synopsis: the first line and its continuations (indented further than the two spaces
   * of the description). */
  const char *line = usage;
  do {
    const char *end = strchr(line, '\n');
    const size_t len = end ? (size_t)(end - line) + 1 : strlen(line);
    fwrite(line, 1, len, stderr);
    line += len;
  } while (strncmp(line, "    ", 4) == 0);
  fprintf(stderr, "`fipsmod %s --help` describes every option.\n", cmd);
  return CLI_EXIT_USAGE;
}

int cli_bad_arg(const char *cmd, const char *usage, const char *arg, const char *const *valued) {
  if (arg[0] != '-' || strcmp(arg, "-") == 0)
    return cli_bad_usage(cmd, usage, "unexpected argument %s", arg);
  for (size_t i = 0; valued != NULL && valued[i] != NULL; i++)
    if (cli_opt_is(arg, valued[i])) return cli_bad_usage(cmd, usage, "%s needs a value", arg);
  return cli_bad_usage(cmd, usage, "unknown option %s", arg);
}

void cli_report_status(const char *cmd, int status) {
  fprintf(stderr, "fipsmod %s: %s\n", cmd, fm_strerror(status));
  fm_state state = fm_module_state();
  if (state == FM_STATE_OPERATIONAL) return;
  /* A refusal in any other state is the module's, not the command's: say what put it there, so
   * that the user need not run `fipsmod selftest` to learn it. */
  fm_selftest_summary s;
  if (fm_selftest_get_summary(&s) != FM_OK) {
    fprintf(stderr, "fipsmod %s: the module is %s\n", cmd, fm_module_state_name(state));
    return;
  }
  fprintf(stderr, "fipsmod %s: the module is in state %s, reason: %s\n", cmd,
          fm_module_state_name(s.state), s.error_reason ? s.error_reason : "no reason recorded");
  if (s.integrity == FM_SELFTEST_FAILED)
    fprintf(stderr, "fipsmod %s: integrity check: %s\n", cmd, s.integrity_text);
  fm_selftest_entry e[FM_SELFTEST_MAX_ENTRIES];
  size_t n = 0;
  if (fm_selftest_report(e, FM_SELFTEST_MAX_ENTRIES, &n) != FM_OK) return;
  for (size_t i = 0; i < n; i++)
    if (e[i].result == FM_SELFTEST_FAILED)
      fprintf(stderr, "fipsmod %s: self-test %s (%s) failed: %s\n", cmd, e[i].name, e[i].algorithm,
              fm_strerror(e[i].status));
}
