/* The module's self-test standing, as an operator would check it at start-up: the state, the
 * integrity check, and each test's outcome. */
#include "example.h"

int main(void) {
  fm_selftest_summary s;
  TRY(fm_selftest_get_summary(&s));
  printf("state: %s\nintegrity: %s\n%zu tests, %zu passed, %zu failed; power-on %.1f us\n",
         fm_module_state_name(s.state), s.integrity_text, s.tests, s.passed, s.failed,
         s.power_on_ns / 1000.0);
  EXPECT(s.state == FM_STATE_OPERATIONAL, "OPERATIONAL");
  EXPECT(s.failed == 0, "no failed test");

  fm_selftest_entry entries[FM_SELFTEST_MAX_ENTRIES];
  size_t n = 0;
  TRY(fm_selftest_report(entries, FM_SELFTEST_MAX_ENTRIES, &n));
  for (size_t i = 0; i < n; i++) {
    printf("  %-34s %-12s %s\n", entries[i].name, fm_selftest_when_name(entries[i].when),
           fm_selftest_result_name(entries[i].result));
  }
  return 0;
}
