/* fipsmod: the module's command-line front end. It links libfipsmod.so, the module as users get
 * it, so every command below runs through the public API only. */
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "fipsmod/module.h"

static void usage(FILE *out) {
  fprintf(out,
          "usage: fipsmod <command> [options]\n"
          "commands:\n"
          "  selftest [--json]              power-on self-test report (exit 0 only when OPERATIONAL)\n"
          "  kat [--json] FILE...           run CAVP / ACVP / Wycheproof known-answer files\n"
          "  acvp PROMPT.json [-o OUT]      answer an ACVP vector set (writes the response)\n"
          "  rand N [--hex]                 N random bytes from the module's DRBG\n"
          "  uuid [-n N] [--v7]             N UUIDs (version 4, or 7), one per line\n"
          "  keygen --rsa BITS [--out FILE] a new RSA key, PKCS#8 PEM\n"
          "  pubkey KEY [--out FILE]        the public key of KEY, SubjectPublicKeyInfo PEM\n"
          "  sign --key KEY (--pss|--pkcs1) --hash H [--out SIG] FILE\n"
          "                                 an RSA signature of FILE\n"
          "  verify --key KEY (--pss|--pkcs1) --hash H --sig SIG FILE\n"
          "                                 exit 0 when SIG is a valid signature of FILE, 1 if not\n"
          "  policy [--json]                what a lab compares: version, integrity MAC, CPU paths,\n"
          "                                 state and approved mode (exit 0 only in approved mode)\n"
          "  version                        the module's version\n"
          "  help                           this text\n");
}

int main(int argc, char **argv) {
  if (argc < 2) {
    usage(stderr);
    return 2;
  }
  const char *cmd = argv[1];
  if (strcmp(cmd, "selftest") == 0) return cmd_selftest(argc - 1, argv + 1);
  if (strcmp(cmd, "policy") == 0) return cmd_policy(argc - 1, argv + 1);
  if (strcmp(cmd, "kat") == 0) return cmd_kat(argc - 1, argv + 1);
  if (strcmp(cmd, "acvp") == 0) return cmd_acvp(argc - 1, argv + 1);
  if (strcmp(cmd, "rand") == 0) return cmd_rand(argc - 1, argv + 1);
  if (strcmp(cmd, "uuid") == 0) return cmd_uuid(argc - 1, argv + 1);
  if (strcmp(cmd, "keygen") == 0) return cmd_keygen(argc - 1, argv + 1);
  if (strcmp(cmd, "pubkey") == 0) return cmd_pubkey(argc - 1, argv + 1);
  if (strcmp(cmd, "sign") == 0) return cmd_sign(argc - 1, argv + 1);
  if (strcmp(cmd, "verify") == 0) return cmd_verify(argc - 1, argv + 1);
  if (strcmp(cmd, "version") == 0 || strcmp(cmd, "--version") == 0) {
    if (argc != 2) {
      fprintf(stderr, "fipsmod version: takes no arguments\n");
      return 2;
    }
    printf("%s\n", fm_module_version());
    return 0;
  }
  if (strcmp(cmd, "help") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
    usage(stdout);
    return 0;
  }
  fprintf(stderr, "fipsmod: unknown command \"%s\"\n", cmd);
  usage(stderr);
  return 2;
}
