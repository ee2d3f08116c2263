/* The case runner of test_util.h (test_run_cases), in an object of its own: a program links it
 * only when its main calls TEST_RUN, which is how the test registration (discover_tests.cmake)
 * tells a program with a case table, to be asked for its cases with --list, from a program that
 * is one test. */
#include <stdio.h>
#include <string.h>

#include "tests/common/test_util.h"

int test_run_cases(int argc, char **argv, const char *program, const test_case *cases, size_t n) {
  if (argc > 2) {
    fprintf(stderr, "usage: %s [--list | <case>]\n", program);
    return 2;
  }
  if (argc == 2 && strcmp(argv[1], "--list") == 0) {
    for (size_t i = 0; i < n; i++) printf("%s\n", cases[i].name);
    return 0;
  }
  if (argc == 2) {
    for (size_t i = 0; i < n; i++) {
      if (strcmp(argv[1], cases[i].name) != 0) continue;
      char label[256];
      snprintf(label, sizeof label, "%s.%s", program, cases[i].name);
      cases[i].fn();
      return test_main_result(label);
    }
    fprintf(stderr, "%s: no case named '%s' (--list prints them)\n", program, argv[1]);
    return 2;
  }
  for (size_t i = 0; i < n; i++) {
    const int before = test_failures;
    cases[i].fn();
    if (test_failures != before)
      fprintf(stderr, "%s.%s: %d checks failed\n", program, cases[i].name, test_failures - before);
  }
  return test_main_result(program);
}
