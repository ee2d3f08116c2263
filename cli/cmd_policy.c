/* `fipsmod policy [--json]`: what a testing lab compares with the security policy
 * (policy/security-policy.md).
 *
 * Prints the module version, the path of the libfipsmod.so this process loaded, the integrity
 * MAC injected into that file, the CPU paths chosen at load, the module state, the integrity
 * self-test outcome, and whether the module is in the approved mode of operation: OPERATIONAL
 * with the integrity test passed. Exit status 0 in the approved mode, 1 otherwise, 2 on a usage
 * error.
 *
 * The MAC is read from the library file, not from the module: the placeholder the injector
 * fills is a 16-byte marker followed by the 32-byte MAC (integrity/internal.h, included for the
 * marker bytes and lengths only; nothing of the module's internals is called). The file is
 * found with dladdr on a public function, so it is the library actually loaded. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/io.h"
#include "cli/options.h"
#include "fipsmod/module.h"
#include "fipsmod/selftest.h"
#include "fipsmod/status.h"
#include "integrity/internal.h"

static const uint8_t k_marker[FM_INTEGRITY_MARKER_LEN] = FM_INTEGRITY_MARKER_BYTES;

static void usage(FILE *out) {
  fprintf(out,
          "usage: fipsmod policy [--json]\n"
          "  the module version, the loaded library and its injected integrity MAC, the CPU\n"
          "  paths, the module state and whether the module is in the approved mode\n"
          "  (OPERATIONAL with the integrity test passed). Exit 0 in the approved mode, 1 if not,\n"
          "  2 usage error or unwritable output.\n");
}

/* read_mac finds the placeholder in the file at |path| and writes the MAC that follows the
 * marker as hex to |hex|. Returns NULL, or why it could not (the marker must occur once). */
static const char *read_mac(const char *path, char hex[2 * FM_INTEGRITY_MAC_LEN + 1]) {
  FILE *f = fopen(path, "rb");
  if (f == NULL) return "cannot open the library file";
  size_t cap = 1 << 20, len = 0;
  uint8_t *buf = malloc(cap);
  const char *why = NULL;
  while (buf != NULL) {
    if (len == cap) {
      uint8_t *bigger = realloc(buf, cap * 2);
      if (bigger == NULL) break;
      buf = bigger;
      cap *= 2;
    }
    size_t n = fread(buf + len, 1, cap - len, f);
    len += n;
    if (n == 0) break;
  }
  if (buf == NULL || ferror(f) || !feof(f)) why = "cannot read the library file";
  fclose(f);
  size_t found = 0, at = 0;
  for (size_t i = 0; why == NULL && i + FM_INTEGRITY_MARKER_LEN + FM_INTEGRITY_MAC_LEN <= len; i++) {
    if (buf[i] == k_marker[0] && memcmp(buf + i, k_marker, FM_INTEGRITY_MARKER_LEN) == 0) {
      found++;
      at = i + FM_INTEGRITY_MARKER_LEN;
    }
  }
  if (why == NULL && found != 1) {
    why = found == 0 ? "no integrity placeholder in the library file"
                     : "more than one integrity placeholder in the library file";
  }
  if (why == NULL) {
    for (size_t i = 0; i < FM_INTEGRITY_MAC_LEN; i++) snprintf(hex + 2 * i, 3, "%02x", buf[at + i]);
  }
  free(buf);
  return why;
}

int cmd_policy(int argc, char **argv) {
  bool json = false;
  for (int i = 1; i < argc; i++) {
    if (cli_opt_is(argv[i], "json")) {
      json = true;
    } else if (cli_opt_is(argv[i], "help") || strcmp(argv[i], "-h") == 0) {
      usage(stdout);
      return 0;
    } else {
      fprintf(stderr, "fipsmod policy: unknown option %s\n", argv[i]);
      usage(stderr);
      return 2;
    }
  }

  Dl_info info;
  const char *lib = NULL;
  if (dladdr((const void *)fm_module_version, &info) != 0 && info.dli_fname != NULL &&
      info.dli_fname[0] != '\0') {
    lib = info.dli_fname;
  }
  char mac[2 * FM_INTEGRITY_MAC_LEN + 1] = "";
  const char *mac_error = lib != NULL ? read_mac(lib, mac) : "the library's path is unknown";

  fm_selftest_summary s;
  if (fm_selftest_get_summary(&s) != FM_OK) {
    fprintf(stderr, "fipsmod policy: no self-test summary\n");
    return 1;
  }
  const fm_state state = fm_module_state();
  const bool approved = state == FM_STATE_OPERATIONAL && s.integrity == FM_SELFTEST_PASSED;

  if (json) {
    json_t *root = json_object();
    if (root == NULL) return 1;
    json_object_set_new(root, "version", json_string(fm_module_version()));
    json_object_set_new(root, "library", lib != NULL ? json_string(lib) : json_null());
    json_object_set_new(root, "integrity_mac", mac_error == NULL ? json_string(mac) : json_null());
    if (mac_error != NULL) json_object_set_new(root, "integrity_mac_error", json_string(mac_error));
    json_object_set_new(root, "integrity", json_string(s.integrity_text));
    json_object_set_new(root, "cpu_paths", json_string(fm_module_cpu_paths()));
    json_object_set_new(root, "state", json_string(fm_module_state_name(state)));
    json_object_set_new(root, "approved_mode", json_boolean(approved));
    char *text = json_dumps(root, JSON_INDENT(2));
    json_decref(root);
    if (text == NULL) return 1;
    printf("%s\n", text);
    free(text);
  } else {
    printf("version:       %s\n", fm_module_version());
    printf("library:       %s\n", lib != NULL ? lib : "(unknown)");
    if (mac_error == NULL) {
      printf("integrity MAC: %s\n", mac);
    } else {
      printf("integrity MAC: (%s)\n", mac_error);
    }
    printf("integrity:     %s\n", s.integrity_text);
    printf("cpu paths:     %s\n", fm_module_cpu_paths());
    printf("state:         %s\n", fm_module_state_name(state));
    printf("approved mode: %s\n", approved ? "yes" : "no");
  }
  return cli_stdout_done("policy", approved ? 0 : 1);
}
