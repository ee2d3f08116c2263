/* The self-test runner and report, in the internal (static) library: the power-on set (and only
 * it) ran and passed at start-up, the integrity check says "not applicable (static build)", the
 * other CASTs run at their algorithm's first use, a group at a time, and a failure there means
 * ERROR; on-demand runs rerun everything and deliver callbacks, conditional tests join the
 * report, the report's argument checks, and an on-demand failure leaves the module in ERROR with
 * keys made before it refused. */
#define _GNU_SOURCE
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fipsmod/fipsmod.h"
#include "fipsmod/rand.h"
#include "fipsmod/rsa.h"
#include "fipsmod/selftest.h"
#include "module/aes/internal.h"
#include "module/internal.h"
#include "selftest/internal.h"
#include "tests/common/test_util.h"

/* The self-tests' own RSA key (a published test key) serves as a key made before a failure. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-const-variable"
#include "module/rsa/rsa_kat_vectors.h"
#pragma GCC diagnostic pop

/* The report lists the table's rows in id order (the entropy source's own failure, recorded only
 * when it happens, is not listed before it does). */
#define NLISTED (FM_ST_COUNT - 1)

/* is_power_on_set: the tests that run at load, and only they (FIPS 140-3 IG 10.3.A): the integrity
 * check with the HMAC-SHA-256 KAT it rests on, and what the DRBG needs (its KATs, AES-256
 * encryption as it uses it, the entropy start-up test). */
static bool is_power_on_set(size_t id) {
  switch (id) {
    case FM_ST_HMAC_SHA256_KAT:
    case FM_ST_INTEGRITY:
    case FM_ST_AES256_ECB_ENC_KAT:
    case FM_ST_AES256_CTR_ENC_KAT:
    case FM_ST_AES256_CTR_BULK_KAT:
    case FM_ST_CTR_DRBG_DF_KAT:
    case FM_ST_CTR_DRBG_NODF_KAT:
    case FM_ST_CTR_DRBG_BULK_KAT:
    case FM_ST_CTR_DRBG_UNINSTANTIATE_KAT:
    case FM_ST_ENTROPY_STARTUP: return true;
  }
  return false;
}

static void test_power_on_report(void) {
  fm_selftest_entry e[FM_SELFTEST_MAX_ENTRIES];
  size_t n = 0;
  fm_selftest_summary s0;
  CHECK_EQ_INT(fm_selftest_get_summary(&s0), FM_OK);
  CHECK_EQ_INT(fm_module_state(), FM_STATE_OPERATIONAL);
  CHECK_EQ_INT(fm_selftest_report(e, FM_SELFTEST_MAX_ENTRIES, &n), FM_OK);
  CHECK_EQ_INT(n, NLISTED);
  CHECK(FM_ST_COUNT >= 39);
  fm_selftest_times t[FM_SELFTEST_MAX_ENTRIES];
  size_t nt = 0;
  CHECK_EQ_INT(fm_selftest_report_times(t, FM_SELFTEST_MAX_ENTRIES, &nt), FM_OK);
  CHECK_EQ_INT(nt, n);
  /* The run's order: the HMAC-SHA-256 KAT, then the integrity check. */
  CHECK(strcmp(e[0].name, "hmac-sha256-kat") == 0);
  CHECK_EQ_INT(e[1].kind, FM_SELFTEST_KIND_INTEGRITY);
  for (size_t i = 0; i < n; i++) {
    CHECK(strcmp(e[i].name, fm_selftest_defs[i].name) == 0);
    CHECK(strcmp(e[i].algorithm, fm_selftest_defs[i].algorithm) == 0);
    CHECK_EQ_INT(e[i].kind, fm_selftest_defs[i].kind);
    CHECK_EQ_INT(e[i].when, fm_selftest_defs[i].when);
    CHECK(strcmp(t[i].name, e[i].name) == 0);
    if (e[i].when != FM_SELFTEST_CONDITIONAL)
      CHECK_EQ_INT(e[i].when == FM_SELFTEST_AT_POWER_ON, is_power_on_set(i));
    if (i == FM_ST_INTEGRITY) {
      CHECK_EQ_INT(e[i].result, FM_SELFTEST_NOT_APPLICABLE);
      CHECK_EQ_INT(e[i].runs, 0);
      continue;
    }
    if (e[i].when == FM_SELFTEST_CONDITIONAL) {
      CHECK(e[i].result == FM_SELFTEST_NOT_RUN || e[i].result == FM_SELFTEST_PASSED);
      continue;
    }
    if (e[i].when == FM_SELFTEST_BEFORE_FIRST_USE) {
      /* Nothing has been used yet: no CAST has run. */
      CHECK_EQ_INT(e[i].result, FM_SELFTEST_NOT_RUN);
      CHECK_EQ_INT(e[i].runs, 0);
      CHECK_EQ_INT(t[i].first_trigger, FM_SELFTEST_RAN_NOT_YET);
      CHECK_EQ_INT(t[i].last_trigger, FM_SELFTEST_RAN_NOT_YET);
      CHECK_EQ_INT(t[i].first_at_ns, 0);
      continue;
    }
    CHECK_EQ_INT(t[i].first_trigger, FM_SELFTEST_RAN_AT_POWER_ON);
    CHECK_EQ_INT(t[i].last_trigger, FM_SELFTEST_RAN_AT_POWER_ON);
    CHECK(t[i].first_at_ns > 0 && t[i].first_at_ns < s0.power_on_ns);
    if (e[i].result != FM_SELFTEST_PASSED) fprintf(stderr, "  not passed: %s\n", e[i].name);
    CHECK_EQ_INT(e[i].result, FM_SELFTEST_PASSED);
    CHECK_EQ_INT(e[i].status, FM_OK);
    CHECK_EQ_INT(e[i].runs, 1);
    CHECK_EQ_INT(e[i].failures, 0);
    CHECK(e[i].duration_ns > 0);
  }
  CHECK_EQ_INT(e[FM_ST_RSA_SIGN_KAT].when, FM_SELFTEST_BEFORE_FIRST_USE);
  CHECK(strcmp(e[FM_ST_RSA_PCT].name, "RSA-PCT") == 0);
  CHECK(strcmp(e[FM_ST_ENTROPY_HEALTH].name, "SP800-90B RCT/APT") == 0);
  /* Names are unique. */
  for (size_t i = 0; i < FM_ST_COUNT; i++)
    for (size_t j = i + 1; j < FM_ST_COUNT; j++)
      CHECK(strcmp(fm_selftest_defs[i].name, fm_selftest_defs[j].name) != 0);

  fm_selftest_summary s;
  CHECK_EQ_INT(fm_selftest_get_summary(&s), FM_OK);
  CHECK_EQ_INT(s.state, FM_STATE_OPERATIONAL);
  CHECK_EQ_INT(s.integrity, FM_SELFTEST_NOT_APPLICABLE);
  CHECK(strcmp(s.integrity_text, "not applicable (static build)") == 0);
  CHECK(s.power_on_ns > 0);
  CHECK_EQ_INT(s.failed, 0);
  CHECK_EQ_INT(s.tests, n);
  CHECK(s.error_reason == NULL);
}

/* The self-test table holds no pointer (so it lies in .rodata, which the integrity MAC covers):
 * a row's strings are inside the row. */
static void test_table_is_self_contained(void) {
  const char *lo = (const char *)&fm_selftest_defs[0];
  const char *hi = (const char *)&fm_selftest_defs[FM_ST_COUNT];
  for (size_t i = 0; i < FM_ST_COUNT; i++) {
    CHECK(fm_selftest_defs[i].name >= lo && fm_selftest_defs[i].name < hi);
    CHECK(memchr(fm_selftest_defs[i].name, 0, SELFTEST_NAME_LEN) != NULL);
    CHECK(memchr(fm_selftest_defs[i].algorithm, 0, SELFTEST_NAME_LEN) != NULL);
    CHECK(fm_selftest_defs[i].name[0] != 0 && fm_selftest_defs[i].algorithm[0] != 0);
  }
}

/* entry returns the report's entry |id| (every id but the last is listed). */
static fm_selftest_entry entry(fm_selftest_id id) {
  fm_selftest_entry e[FM_SELFTEST_MAX_ENTRIES];
  size_t n = 0;
  fm_selftest_entry none = {0};
  if (fm_selftest_report(e, FM_SELFTEST_MAX_ENTRIES, &n) != FM_OK || (size_t)id >= n) return none;
  return e[id];
}

/* times returns when test |id| ran (fm_selftest_report_times, in the report's order). */
static fm_selftest_times times(fm_selftest_id id) {
  fm_selftest_times t[FM_SELFTEST_MAX_ENTRIES];
  size_t n = 0;
  fm_selftest_times none = {0};
  if (fm_selftest_report_times(t, FM_SELFTEST_MAX_ENTRIES, &n) != FM_OK || (size_t)id >= n)
    return none;
  return t[id];
}

/* A test that runs before first use has not run at load; the first fm_selftest_ensure runs it
 * once (at first use, timed after the power-on run), later calls do nothing. Ensuring a power-on
 * or conditional test only checks the state. */
static void test_before_first_use(void) {
  CHECK_EQ_INT(entry(FM_ST_RSA_SIGN_KAT).result, FM_SELFTEST_NOT_RUN);
  CHECK_EQ_INT(entry(FM_ST_SHA256_KAT).result, FM_SELFTEST_NOT_RUN);
  CHECK_EQ_INT(fm_selftest_ensure(FM_ST_HMAC_SHA256_KAT), FM_OK);
  CHECK_EQ_INT(fm_selftest_ensure(FM_ST_RSA_PCT), FM_OK);
  CHECK_EQ_INT(entry(FM_ST_HMAC_SHA256_KAT).runs, 1);
  CHECK_EQ_INT(fm_selftest_ensure(FM_ST_SHA256_KAT), FM_OK);
  CHECK_EQ_INT(fm_selftest_ensure(FM_ST_SHA256_KAT), FM_OK);
  fm_selftest_entry e = entry(FM_ST_SHA256_KAT);
  CHECK_EQ_INT(e.result, FM_SELFTEST_PASSED);
  CHECK_EQ_INT(e.runs, 1);
  CHECK(e.duration_ns > 0);
  CHECK_EQ_INT(times(FM_ST_SHA256_KAT).first_trigger, FM_SELFTEST_RAN_AT_FIRST_USE);
  fm_selftest_summary s;
  CHECK_EQ_INT(fm_selftest_get_summary(&s), FM_OK);
  CHECK(times(FM_ST_SHA256_KAT).first_at_ns >= s.power_on_ns);
  CHECK_EQ_INT(entry(FM_ST_RSA_SIGN_KAT).result, FM_SELFTEST_NOT_RUN);
  CHECK_EQ_INT(fm_selftest_ensure(FM_ST_RSA_SIGN_KAT), FM_OK);
  CHECK_EQ_INT(entry(FM_ST_RSA_SIGN_KAT).result, FM_SELFTEST_PASSED);
  CHECK_EQ_INT(entry(FM_ST_RSA_SIGN_KAT).runs, 1);
}

/* The services reach their CASTs: each first use runs its own family's tests and no other. */
static void test_services_run_their_casts(void) {
  uint8_t out[64];
  CHECK_EQ_INT(fm_sha384("abc", 3, out), FM_OK);
  CHECK_EQ_INT(entry(FM_ST_SHA384_KAT).result, FM_SELFTEST_PASSED);
  CHECK_EQ_INT(entry(FM_ST_SHA512_KAT).result, FM_SELFTEST_NOT_RUN);
  CHECK_EQ_INT(entry(FM_ST_AES128_ECB_ENC_KAT).result, FM_SELFTEST_NOT_RUN);
  static const uint8_t key[32] = {1};
  fm_aes_key ks;
  CHECK_EQ_INT(fm_aes_key_init(&ks, key, 16), FM_OK);
  CHECK_EQ_INT(fm_aes_key_wipe(&ks), FM_OK);
  /* The whole AES group ran, once; GCM's did not. */
  for (int id = 0; id < FM_ST_COUNT; id++) {
    if (fm_selftest_defs[id].when != FM_SELFTEST_BEFORE_FIRST_USE) continue;
    const fm_selftest_entry e = entry((fm_selftest_id)id);
    if (selftest_group_lead((fm_selftest_id)id) == FM_ST_AES128_ECB_ENC_KAT) {
      CHECK_EQ_INT(e.result, FM_SELFTEST_PASSED);
      CHECK_EQ_INT(e.runs, 1);
      CHECK_EQ_INT(times((fm_selftest_id)id).first_trigger, FM_SELFTEST_RAN_AT_FIRST_USE);
    } else if (id != FM_ST_SHA384_KAT) {
      if (e.result != FM_SELFTEST_NOT_RUN) fprintf(stderr, "  ran too: %s\n", e.name);
      CHECK_EQ_INT(e.result, FM_SELFTEST_NOT_RUN);
    }
  }
  CHECK_EQ_INT(entry(FM_ST_AES256_CBC_DEC_BULK_KAT).result, FM_SELFTEST_PASSED);
  fm_gcm_key gk;
  CHECK_EQ_INT(fm_gcm_key_init(&gk, key, 32), FM_OK);
  CHECK_EQ_INT(fm_gcm_key_wipe(&gk), FM_OK);
  CHECK_EQ_INT(entry(FM_ST_AES256_GCM_DEC_KAT).result, FM_SELFTEST_PASSED);
  CHECK_EQ_INT(entry(FM_ST_AES128_GCM_ENC_KAT).runs, 1);
  CHECK_EQ_INT(fm_hmac(FM_HASH_SHA512, key, sizeof key, "abc", 3, out, sizeof out), FM_OK);
  CHECK_EQ_INT(entry(FM_ST_HMAC_SHA512_KAT).result, FM_SELFTEST_PASSED);
  CHECK_EQ_INT(fm_pbkdf2_hmac(FM_HASH_SHA384, key, sizeof key, key, 16, 1000, out, 32), FM_OK);
  CHECK_EQ_INT(entry(FM_ST_PBKDF2_HMAC_SHA256_KAT).result, FM_SELFTEST_PASSED);
  CHECK_EQ_INT(entry(FM_ST_HMAC_SHA384_KAT).result, FM_SELFTEST_PASSED); /* the PRF's test */
  CHECK_EQ_INT(entry(FM_ST_HKDF_SHA256_KAT).result, FM_SELFTEST_NOT_RUN);
  CHECK_EQ_INT(fm_module_state(), FM_STATE_OPERATIONAL);
}

/* The groups: each member runs before first use, its lead is a member of its own group, and
 * every AES and GCM test that runs before first use has a group of several tests. */
static void test_groups_are_consistent(void) {
  for (int id = 0; id < FM_ST_COUNT; id++) {
    const fm_selftest_id lead = selftest_group_lead((fm_selftest_id)id);
    CHECK(lead < FM_ST_COUNT);
    if (lead == (fm_selftest_id)id) continue;
    CHECK_EQ_INT(fm_selftest_defs[id].when, FM_SELFTEST_BEFORE_FIRST_USE);
    CHECK_EQ_INT(fm_selftest_defs[lead].when, FM_SELFTEST_BEFORE_FIRST_USE);
    CHECK_EQ_INT(selftest_group_lead(lead), lead);
  }
  CHECK_EQ_INT(selftest_group_lead(FM_ST_AES256_CTR32_BULK_KAT), FM_ST_AES128_ECB_ENC_KAT);
  CHECK_EQ_INT(selftest_group_lead(FM_ST_AES256_GCM_DEC_KAT), FM_ST_AES128_GCM_ENC_KAT);
}

/* In a child: a test of a group, broken, fails at the group's first use: ERROR, the caller is
 * refused with its output wiped, and the report names the test. */
static void test_first_use_failure_in_group(void) {
  pid_t pid = fork();
  if (pid == 0) {
    const char *name = fm_selftest_defs[FM_ST_AES256_CBC_DEC_BULK_KAT].name;
    fm_selftest_break_for_testing(name);
    static const uint8_t key[16] = {1};
    fm_aes_key ks;
    memset(&ks, 0x5a, sizeof ks);
    int ok = fm_aes_key_init(&ks, key, sizeof key) == FM_ERR_NOT_OPERATIONAL;
    ok &= test_is_all_zero(&ks, sizeof ks);
    ok &= fm_module_state() == FM_STATE_ERROR;
    ok &= fm_module_error_reason() != NULL && strcmp(fm_module_error_reason(), name) == 0;
    ok &= entry(FM_ST_AES256_CBC_DEC_BULK_KAT).result == FM_SELFTEST_FAILED;
    ok &= times(FM_ST_AES256_CBC_DEC_BULK_KAT).first_trigger == FM_SELFTEST_RAN_AT_FIRST_USE;
    ok &= fm_selftest_ensure(FM_ST_AES128_ECB_ENC_KAT) == FM_ERR_NOT_OPERATIONAL;
    _exit(ok ? 0 : 1);
  }
  int status = 0;
  CHECK(pid > 0 && waitpid(pid, &status, 0) == pid);
  CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/* In a child: a deferred test that fails moves the module to ERROR and the caller is refused. */
static void test_before_first_use_failure(void) {
  pid_t pid = fork();
  if (pid == 0) {
    fm_selftest_break_for_testing(fm_selftest_defs[FM_ST_RSA_SIGN_KAT].name);
    int ok = fm_selftest_ensure(FM_ST_RSA_SIGN_KAT) == FM_ERR_NOT_OPERATIONAL;
    ok &= fm_module_state() == FM_STATE_ERROR;
    ok &= fm_selftest_ensure(FM_ST_RSA_SIGN_KAT) == FM_ERR_NOT_OPERATIONAL;
    ok &= fm_selftest_ensure(FM_ST_SHA256_KAT) == FM_ERR_NOT_OPERATIONAL;
    _exit(ok ? 0 : 1);
  }
  int status = 0;
  CHECK(pid > 0 && waitpid(pid, &status, 0) == pid);
  CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static void test_report_arguments(void) {
  fm_selftest_entry e[4];
  size_t n = 0;
  CHECK_EQ_INT(fm_selftest_report(NULL, 0, &n), FM_OK);
  CHECK(strcmp(fm_selftest_trigger_name(FM_SELFTEST_RAN_NOT_YET), "not yet run") == 0);
  CHECK(strcmp(fm_selftest_trigger_name(FM_SELFTEST_RAN_AT_FIRST_USE), "first use") == 0);
  CHECK(strcmp(fm_selftest_trigger_name((fm_selftest_trigger)99), "unknown") == 0);
  CHECK_EQ_INT(n, NLISTED);
  CHECK_EQ_INT(fm_selftest_report(e, 4, NULL), FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(fm_selftest_report(NULL, 4, &n), FM_ERR_BAD_ARGUMENT);
  memset(e, 0x5a, sizeof e);
  size_t need = 0;
  CHECK_EQ_INT(fm_selftest_report(e, 4, &need), FM_ERR_BUFFER_TOO_SMALL);
  CHECK_EQ_INT(need, n);
  CHECK(test_is_all_zero(e, sizeof e));
  CHECK_EQ_INT(fm_selftest_get_summary(NULL), FM_ERR_BAD_ARGUMENT);
  fm_selftest_times t[4];
  CHECK_EQ_INT(fm_selftest_report_times(NULL, 0, &need), FM_OK);
  CHECK_EQ_INT(need, n);
  CHECK_EQ_INT(fm_selftest_report_times(t, 4, NULL), FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(fm_selftest_report_times(NULL, 4, &need), FM_ERR_BAD_ARGUMENT);
  memset(t, 0x5a, sizeof t);
  CHECK_EQ_INT(fm_selftest_report_times(t, 4, &need), FM_ERR_BUFFER_TOO_SMALL);
  CHECK(test_is_all_zero(t, sizeof t));
  CHECK(strcmp(fm_selftest_kind_name(FM_SELFTEST_KIND_PAIRWISE), "pairwise") == 0);
  CHECK(strcmp(fm_selftest_result_name(FM_SELFTEST_FAILED), "failed") == 0);
  CHECK(strcmp(fm_selftest_when_name(FM_SELFTEST_CONDITIONAL), "conditional") == 0);
  CHECK(strcmp(fm_selftest_kind_name((fm_selftest_kind)99), "unknown") == 0);
}

/* A callback that records the events of one run and checks that a nested run is refused. */
struct events {
  int begin, pass, fail, nested_status, order_ok;
  size_t next;
  fm_selftest_id order[FM_ST_COUNT]; /* the expected order: power-on tests, then the others */
  size_t count;
};

static void on_event(fm_selftest_event ev, const fm_selftest_entry *e, void *arg) {
  struct events *x = arg;
  if (ev == FM_SELFTEST_EVENT_BEGIN) {
    x->begin++;
    if (x->next >= x->count || strcmp(e->name, fm_selftest_defs[x->order[x->next]].name) != 0)
      x->order_ok = 0;
    x->next++;
    x->nested_status = fm_selftest_run();
  } else if (ev == FM_SELFTEST_EVENT_PASS) {
    x->pass++;
  } else {
    x->fail++;
  }
}

static void test_on_demand_run(void) {
  struct events x = {.order_ok = 1};
  /* Integrity is skipped in a static build; the power-on tests run first, then the others. */
  for (int id = 0; id < FM_ST_COUNT; id++)
    if (id != FM_ST_INTEGRITY && fm_selftest_defs[id].when == FM_SELFTEST_AT_POWER_ON)
      x.order[x.count++] = (fm_selftest_id)id;
  for (int id = 0; id < FM_ST_COUNT; id++)
    if (fm_selftest_defs[id].when == FM_SELFTEST_BEFORE_FIRST_USE)
      x.order[x.count++] = (fm_selftest_id)id;
  CHECK_EQ_INT(fm_set_selftest_callback(on_event, &x), FM_OK);
  CHECK_EQ_INT(fm_selftest_run(), FM_OK);
  CHECK_EQ_INT(fm_set_selftest_callback(NULL, NULL), FM_OK);
  CHECK_EQ_INT(fm_module_state(), FM_STATE_OPERATIONAL);
  /* Every power-on and deferred test but integrity (static build). */
  CHECK_EQ_INT(x.begin, FM_ST_ENTROPY_HEALTH - 1);
  CHECK_EQ_INT(x.pass, FM_ST_ENTROPY_HEALTH - 1);
  CHECK_EQ_INT(x.fail, 0);
  CHECK(x.order_ok);
  CHECK_EQ_INT(x.nested_status, FM_ERR_STATE);

  fm_selftest_entry e[FM_SELFTEST_MAX_ENTRIES];
  size_t n = 0;
  CHECK_EQ_INT(fm_selftest_report(e, FM_SELFTEST_MAX_ENTRIES, &n), FM_OK);
  CHECK_EQ_INT(e[0].runs, 2);
  CHECK_EQ_INT(times(FM_ST_HMAC_SHA256_KAT).last_trigger, FM_SELFTEST_RAN_ON_DEMAND);
  CHECK_EQ_INT(times(FM_ST_HMAC_SHA256_KAT).first_trigger, FM_SELFTEST_RAN_AT_POWER_ON);
  CHECK_EQ_INT(times(FM_ST_SHA512_KAT).first_trigger, FM_SELFTEST_RAN_ON_DEMAND);
  CHECK(times(FM_ST_HMAC_SHA256_KAT).last_at_ns > times(FM_ST_HMAC_SHA256_KAT).first_at_ns);
  fm_selftest_summary s;
  CHECK_EQ_INT(fm_selftest_get_summary(&s), FM_OK);
  CHECK(s.last_run_ns > 0);
  /* Services work again after the run. */
  uint8_t d[32];
  CHECK_EQ_INT(fm_sha256("abc", 3, d), FM_OK);
}

/* The bulk known answers hold on every AES path this CPU has, not only the widest (the load-time
 * run takes the widest): on-demand runs with the bulk width capped at AES-NI, VAES-256 and
 * VAES-512 in turn all pass. */
static void test_on_demand_run_each_aes_path(void) {
  const int widest = aes_ni_path();
  for (int path = AES_PATH_AESNI; path <= widest; path++) {
    aes_limit_path_for_testing(path);
    int st = fm_selftest_run();
    if (st != FM_OK) fprintf(stderr, "on-demand run with the AES path capped at %d: %d\n", path, st);
    CHECK_EQ_INT(st, FM_OK);
  }
  aes_limit_path_for_testing(0);
  CHECK_EQ_INT(fm_module_state(), FM_STATE_OPERATIONAL);
}

static void test_conditional_record(void) {
  fm_selftest_entry before[FM_SELFTEST_MAX_ENTRIES];
  size_t nb = 0;
  CHECK_EQ_INT(fm_selftest_report(before, FM_SELFTEST_MAX_ENTRIES, &nb), FM_OK);
  uint64_t runs0 = 0;
  for (size_t i = 0; i < nb; i++)
    if (strcmp(before[i].name, "RSA-PCT") == 0) runs0 = before[i].runs;
  fm_selftest_record_conditional(FM_ST_RSA_PCT, FM_OK);
  fm_selftest_record_conditional(FM_ST_RSA_PCT, FM_OK);
  fm_selftest_entry e[FM_SELFTEST_MAX_ENTRIES];
  size_t n = 0;
  CHECK_EQ_INT(fm_selftest_report(e, FM_SELFTEST_MAX_ENTRIES, &n), FM_OK);
  int found = 0;
  for (size_t i = 0; i < n; i++) {
    if (strcmp(e[i].name, "RSA-PCT") != 0) continue;
    found++;
    CHECK_EQ_INT(e[i].kind, FM_SELFTEST_KIND_PAIRWISE);
    CHECK_EQ_INT(e[i].when, FM_SELFTEST_CONDITIONAL);
    CHECK_EQ_INT(e[i].result, FM_SELFTEST_PASSED);
    CHECK_EQ_INT(e[i].runs, runs0 + 2);
  }
  CHECK_EQ_INT(found, 1);
  CHECK_EQ_INT(fm_module_state(), FM_STATE_OPERATIONAL);
}

/* In a child: a failed conditional test moves the module to ERROR. */
static void test_conditional_failure_enters_error(void) {
  pid_t pid = fork();
  if (pid == 0) {
    fm_selftest_record_conditional(FM_ST_ENTROPY_HEALTH, FM_ERR_ENTROPY);
    fm_selftest_entry e[FM_SELFTEST_MAX_ENTRIES];
    size_t n = 0;
    int ok = fm_module_state() == FM_STATE_ERROR &&
             fm_selftest_report(e, FM_SELFTEST_MAX_ENTRIES, &n) == FM_OK;
    int seen = 0;
    for (size_t i = 0; i < n; i++)
      if (strcmp(e[i].name, "SP800-90B RCT/APT") == 0)
        seen = e[i].result == FM_SELFTEST_FAILED && e[i].status == FM_ERR_ENTROPY &&
               e[i].kind == FM_SELFTEST_KIND_HEALTH;
    _exit(ok && seen ? 0 : 1);
  }
  int status = 0;
  CHECK(pid > 0 && waitpid(pid, &status, 0) == pid);
  CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/* Counts FAIL events and remembers the failing test's name. */
struct fail_seen {
  int fails;
  char name[64];
};
static void on_fail(fm_selftest_event ev, const fm_selftest_entry *e, void *arg) {
  struct fail_seen *f = arg;
  if (ev != FM_SELFTEST_EVENT_FAIL) return;
  f->fails++;
  snprintf(f->name, sizeof f->name, "%s", e->name);
}

/* In a child: break one test, rerun on demand; the run fails, the module is in ERROR, and a key
 * imported before the failure can no longer sign (output wiped). */
static void test_on_demand_failure(const char *name) {
  pid_t pid = fork();
  if (pid == 0) {
    const fm_rsa_private_components c = {
        kat_rsa2048_n,  sizeof kat_rsa2048_n,  kat_rsa2048_e,  sizeof kat_rsa2048_e,
        kat_rsa2048_d,  sizeof kat_rsa2048_d,  kat_rsa2048_p,  sizeof kat_rsa2048_p,
        kat_rsa2048_q,  sizeof kat_rsa2048_q,  kat_rsa2048_dp, sizeof kat_rsa2048_dp,
        kat_rsa2048_dq, sizeof kat_rsa2048_dq, kat_rsa2048_qinv, sizeof kat_rsa2048_qinv};
    fm_rsa_key *key = NULL;
    uint8_t sig[256];
    size_t sig_len = 0;
    int ok = fm_rsa_key_import_private(&c, &key) == FM_OK;
    ok &= fm_rsa_sign_pkcs1v15(key, FM_HASH_SHA256, (const uint8_t *)"m", 1, sig, sizeof sig,
                               &sig_len) == FM_OK && sig_len == sizeof sig;
    struct fail_seen f = {0};
    ok &= fm_set_selftest_callback(on_fail, &f) == FM_OK;
    fm_selftest_break_for_testing(name);
    int st = fm_selftest_run();
    ok &= st == FM_ERR_SELFTEST && fm_module_state() == FM_STATE_ERROR;
    ok &= f.fails == 1 && strcmp(f.name, name) == 0;
    ok &= fm_module_error_reason() != NULL && strcmp(fm_module_error_reason(), name) == 0;
    memset(sig, 0x33, sizeof sig);
    ok &= fm_rsa_sign_pkcs1v15(key, FM_HASH_SHA256, (const uint8_t *)"m", 1, sig, sizeof sig,
                               &sig_len) == FM_ERR_NOT_OPERATIONAL;
    ok &= test_is_all_zero(sig, sizeof sig) && sig_len == 0;
    ok &= fm_rsa_key_free(key) == FM_OK;
    ok &= fm_selftest_run() == FM_ERR_NOT_OPERATIONAL;
    fm_selftest_entry e[FM_SELFTEST_MAX_ENTRIES];
    size_t n = 0;
    ok &= fm_selftest_report(e, FM_SELFTEST_MAX_ENTRIES, &n) == FM_OK;
    int seen = 0;
    for (size_t i = 0; i < n; i++)
      if (strcmp(e[i].name, name) == 0) seen = e[i].result == FM_SELFTEST_FAILED;
    _exit(ok && seen ? 0 : 1);
  }
  int status = 0;
  CHECK(pid > 0 && waitpid(pid, &status, 0) == pid);
  if (!(WIFEXITED(status) && WEXITSTATUS(status) == 0))
    fprintf(stderr, "on-demand failure of %s not handled\n", name);
  CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static void test_cleanup_refuses_run(void) {
  pid_t pid = fork();
  if (pid == 0) {
    fm_module_cleanup();
    _exit(fm_selftest_run() == FM_ERR_NOT_OPERATIONAL ? 0 : 1);
  }
  int status = 0;
  CHECK(pid > 0 && waitpid(pid, &status, 0) == pid);
  CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static void test_on_demand_failure_sha256_kat(void) { test_on_demand_failure("sha256-kat"); }
static void test_on_demand_failure_aes256_ctr_decrypt_kat(void) {
  test_on_demand_failure("aes256-ctr-decrypt-kat");
}
static void test_on_demand_failure_rsa2048_sha256_pkcs1_verify_kat(void) {
  test_on_demand_failure("rsa2048-sha256-pkcs1-verify-kat");
}

static const test_case cases[] = {
  TEST_CASE(power_on_report),
  TEST_CASE(table_is_self_contained),
  TEST_CASE(before_first_use_failure),
  TEST_CASE(before_first_use),
  TEST_CASE(services_run_their_casts),
  TEST_CASE(groups_are_consistent),
  TEST_CASE(first_use_failure_in_group),
  TEST_CASE(report_arguments),
  TEST_CASE(on_demand_run),
  TEST_CASE(on_demand_run_each_aes_path),
  TEST_CASE(conditional_record),
  TEST_CASE(conditional_failure_enters_error),
  TEST_CASE(on_demand_failure_sha256_kat),
  TEST_CASE(on_demand_failure_aes256_ctr_decrypt_kat),
  TEST_CASE(on_demand_failure_rsa2048_sha256_pkcs1_verify_kat),
  TEST_CASE(cleanup_refuses_run),
};

int main(int argc, char **argv) { return TEST_RUN(argc, argv, "test_selftest_unit", cases); }
