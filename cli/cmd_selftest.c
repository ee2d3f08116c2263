/* `fipsmod selftest [--json]`: the module's self-test report.
 *
 * Prints the version, the module state, the CPU paths chosen at load, the integrity status and
 * every self-test (power-on tests, tests that run before first use, then conditional tests
 * recorded so far) with its kind, result, duration, and whether and when it first ran (at
 * power-on or at first use, in milliseconds since the module's power-on entry). Exit status 0
 * only when the module is OPERATIONAL, 1 otherwise, 2 on a usage error. The report is the one of the load-time run of this process (the library was
 * loaded, and its self-tests run, before main). */
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/io.h"
#include "cli/options.h"
#include "fipsmod/module.h"
#include "fipsmod/selftest.h"
#include "fipsmod/status.h"

/* ran_text describes when a test first ran: "not yet run", or its trigger and the time since
 * the module's power-on entry began ("first use +12.345 ms"). */
static void ran_text(char *buf, size_t len, fm_selftest_trigger trigger, uint64_t at_ns) {
  if (trigger == FM_SELFTEST_RAN_NOT_YET || at_ns == 0) {
    snprintf(buf, len, "%s", fm_selftest_trigger_name(trigger));
  } else {
    snprintf(buf, len, "%s +%.3f ms", fm_selftest_trigger_name(trigger), (double)at_ns / 1e6);
  }
}

/* times_of returns the times of the test named |name| in |t| (n entries), or "not yet run". */
static fm_selftest_times times_of(const fm_selftest_times *t, size_t n, const char *name) {
  for (size_t i = 0; i < n; i++)
    if (strcmp(t[i].name, name) == 0) return t[i];
  return (fm_selftest_times){.name = name};
}

static void print_text(const fm_selftest_summary *s, const fm_selftest_entry *e, size_t n,
                       const fm_selftest_times *t, size_t nt) {
  printf("%s\n", fm_module_version());
  printf("state:      %s\n", fm_module_state_name(s->state));
  if (s->error_reason) printf("error:      %s\n", s->error_reason);
  printf("cpu paths:  %s\n", fm_module_cpu_paths());
  printf("integrity:  %s\n", s->integrity_text);
  printf("self-tests: %zu tests, %zu passed, %zu failed; power-on run %.1f us\n", s->tests,
         s->passed, s->failed, (double)s->power_on_ns / 1000.0);
  printf("\n  %-34s %-9s %-11s %-15s %11s  %-24s %s\n", "TEST", "KIND", "WHEN", "RESULT", "TIME",
         "FIRST RUN", "ALGORITHM");
  for (size_t i = 0; i < n; i++) {
    char result[64];
    if (e[i].result == FM_SELFTEST_FAILED)
      snprintf(result, sizeof result, "FAILED");
    else
      snprintf(result, sizeof result, "%s", fm_selftest_result_name(e[i].result));
    char when[32];
    snprintf(when, sizeof when, "%s",
             e[i].when == FM_SELFTEST_BEFORE_FIRST_USE ? "first-use"
                                                       : fm_selftest_when_name(e[i].when));
    char ran[48];
    const fm_selftest_times ti = times_of(t, nt, e[i].name);
    ran_text(ran, sizeof ran, ti.first_trigger, ti.first_at_ns);
    if (e[i].when == FM_SELFTEST_CONDITIONAL)
      printf("  %-34s %-9s %-11s %-15s %8" PRIu64 " x   %-24s %s\n", e[i].name,
             fm_selftest_kind_name(e[i].kind), when, result, e[i].runs, ran, e[i].algorithm);
    else
      printf("  %-34s %-9s %-11s %-15s %8.1f us  %-24s %s\n", e[i].name,
             fm_selftest_kind_name(e[i].kind), when, result, (double)e[i].duration_ns / 1000.0,
             ran, e[i].algorithm);
    if (e[i].result == FM_SELFTEST_FAILED) printf("      -> %s\n", fm_strerror(e[i].status));
  }
}

/* set_or_fail adds |value| under |key|; jansson's *_new functions return NULL on allocation
 * failure, which json_object_set_new reports. */
static int set_or_fail(json_t *obj, const char *key, json_t *value) {
  return json_object_set_new(obj, key, value) == 0 ? 0 : -1;
}

static int print_json(const fm_selftest_summary *s, const fm_selftest_entry *e, size_t n,
                      const fm_selftest_times *tt, size_t nt) {
  json_t *root = json_object();
  json_t *tests = json_array();
  int bad = root == NULL || tests == NULL;
  bad |= set_or_fail(root, "version", json_string(fm_module_version()));
  bad |= set_or_fail(root, "state", json_string(fm_module_state_name(s->state)));
  bad |= set_or_fail(root, "operational", json_boolean(s->state == FM_STATE_OPERATIONAL));
  bad |= set_or_fail(root, "error_reason",
                     s->error_reason ? json_string(s->error_reason) : json_null());
  bad |= set_or_fail(root, "cpu_paths", json_string(fm_module_cpu_paths()));
  bad |= set_or_fail(root, "integrity", json_string(s->integrity_text));
  bad |= set_or_fail(root, "power_on_ns", json_integer((json_int_t)s->power_on_ns));
  bad |= set_or_fail(root, "tests_passed", json_integer((json_int_t)s->passed));
  bad |= set_or_fail(root, "tests_failed", json_integer((json_int_t)s->failed));
  for (size_t i = 0; i < n && !bad; i++) {
    json_t *t = json_object();
    bad |= t == NULL;
    bad |= set_or_fail(t, "name", json_string(e[i].name));
    bad |= set_or_fail(t, "algorithm", json_string(e[i].algorithm));
    bad |= set_or_fail(t, "kind", json_string(fm_selftest_kind_name(e[i].kind)));
    bad |= set_or_fail(t, "when", json_string(fm_selftest_when_name(e[i].when)));
    bad |= set_or_fail(t, "result", json_string(fm_selftest_result_name(e[i].result)));
    bad |= set_or_fail(t, "status", json_string(fm_strerror(e[i].status)));
    bad |= set_or_fail(t, "duration_ns", json_integer((json_int_t)e[i].duration_ns));
    bad |= set_or_fail(t, "runs", json_integer((json_int_t)e[i].runs));
    bad |= set_or_fail(t, "failures", json_integer((json_int_t)e[i].failures));
    /* When it ran: the trigger ("not yet run", "power-on", "first use", "on demand", "in
     * service") and the time since the power-on entry began (null when not yet run). */
    const fm_selftest_times ti = times_of(tt, nt, e[i].name);
    bad |= set_or_fail(t, "first_run", json_string(fm_selftest_trigger_name(ti.first_trigger)));
    bad |= set_or_fail(t, "first_run_at_ns", ti.first_at_ns == 0
                                                 ? json_null()
                                                 : json_integer((json_int_t)ti.first_at_ns));
    bad |= set_or_fail(t, "last_run", json_string(fm_selftest_trigger_name(ti.last_trigger)));
    bad |= set_or_fail(t, "last_run_at_ns", ti.last_at_ns == 0
                                                ? json_null()
                                                : json_integer((json_int_t)ti.last_at_ns));
    bad |= json_array_append_new(tests, t) != 0;
  }
  if (!bad) {
    bad |= json_object_set(root, "tests", tests) != 0;
    char *text = bad ? NULL : json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    if (text) {
      printf("%s\n", text);
      free(text);
    } else {
      bad = 1;
    }
  }
  json_decref(tests);
  json_decref(root);
  if (bad) fprintf(stderr, "fipsmod selftest: cannot build the JSON report\n");
  return bad ? -1 : 0;
}

static const char k_selftest_usage[] =
    "usage: fipsmod selftest [--json]\n"
    "  The module's self-test report: version, state (and why, in the ERROR state), CPU paths,\n"
    "  integrity check, and every self-test (power-on, before first use, conditional) with its\n"
    "  result, duration, and whether and when it first ran (ms since the module's power-on);\n"
    "  --json: the same as one JSON object.\n"
    "Exit status: 0 the module is OPERATIONAL; 1 it is not (the report says why), or the report\n"
    "cannot be read; 2 usage error or unwritable output.\n";

int cmd_selftest(int argc, char **argv) {
  if (cli_wants_help(argc, argv)) return cli_print_help(k_selftest_usage);
  int json = 0;
  for (int i = 1; i < argc; i++) {
    if (cli_opt_is(argv[i], "json")) {
      json = 1;
    } else {
      return cli_bad_arg("selftest", k_selftest_usage, argv[i], NULL);
    }
  }
  fm_selftest_summary s;
  fm_selftest_entry e[FM_SELFTEST_MAX_ENTRIES];
  fm_selftest_times t[FM_SELFTEST_MAX_ENTRIES];
  size_t n = 0, nt = 0;
  if (fm_selftest_get_summary(&s) != FM_OK ||
      fm_selftest_report(e, FM_SELFTEST_MAX_ENTRIES, &n) != FM_OK ||
      fm_selftest_report_times(t, FM_SELFTEST_MAX_ENTRIES, &nt) != FM_OK) {
    fprintf(stderr, "fipsmod selftest: cannot read the self-test report\n");
    return 1;
  }
  if (json) {
    if (print_json(&s, e, n, t, nt) != 0) return 1;
  } else {
    print_text(&s, e, n, t, nt);
  }
  return cli_stdout_done("selftest", s.state == FM_STATE_OPERATIONAL ? 0 : 1);
}
