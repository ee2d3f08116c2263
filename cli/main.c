/* fipsmod: the module's command-line front end. It links libfipsmod.so, the module as users get
 * it, so every command below runs through the public API only. */
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/io.h"
#include "cli/options.h"
#include "fipsmod/module.h"

static const char k_usage[] =
    "usage: fipsmod <command> [options]\n"
    "commands:\n"
    "  selftest [--json]              power-on self-test report (exit 0 only when OPERATIONAL)\n"
    "  kat [--json] FILE|DIR...       run CAVP / ACVP / Wycheproof known-answer files\n"
    "  acvp PROMPT.json [-o OUT]      answer an ACVP vector set (writes the response)\n"
    "  rand N [--hex|--base64] [--out FILE]\n"
    "                                 N random bytes from the module's DRBG\n"
    "  uuid [--count N] [--v4|--v7]   N UUIDs (version 4, or 7), one per line\n"
    "  keygen (--rsa BITS|--ec CURVE|--ml-kem N|--ml-dsa N) [--out FILE]\n"
    "         [--encrypt --passout SRC]\n"
    "                                 a new RSA, EC, ML-KEM or ML-DSA key, PKCS#8 PEM\n"
    "                                 (--encrypt: encrypted PKCS#8, PBES2 with AES-256-CBC)\n"
    "  pubkey KEY [--out FILE]        the public key of KEY, SubjectPublicKeyInfo PEM\n"
    "  sign --key KEY (--pss|--pkcs1|--ecdsa) --hash H [--out SIG] FILE\n"
    "  sign --key KEY --ml-dsa [--context HEX] [--deterministic] [--out SIG] FILE\n"
    "                                 an RSA, ECDSA (DER) or ML-DSA signature of FILE\n"
    "  verify --key KEY (--pss|--pkcs1|--ecdsa) --hash H --sig SIG FILE\n"
    "  verify --key KEY --ml-dsa [--context HEX] --sig SIG FILE\n"
    "                                 exit 0 when SIG is a valid signature of FILE, 1 if not\n"
    "  derive --key KEY --peer PEER [--out FILE]\n"
    "                                 the raw ECDH shared secret of two EC keys\n"
    "  encap --key KEY --out CT --secret SS\n"
    "                                 ML-KEM encapsulation: ciphertext and shared secret\n"
    "  decap --key KEY --in CT --secret SS\n"
    "                                 ML-KEM decapsulation: the shared secret of CT\n"
    "  dgst --hash H [--hmac KEYHEX|--hmac-key FILE] [FILE...]\n"
    "                                 digests or HMAC tags, as sha256sum prints them\n"
    "  kdf hkdf|pbkdf2|kbkdf ...      derive a key with HKDF, PBKDF2 or the SP 800-108 KDF\n"
    "  enc -e|-d --gcm --key FILE [--aad FILE] IN OUT\n"
    "                                 AES-GCM file encryption in a framed format\n"
    "  policy [--json]                what a lab compares: version, integrity MAC, CPU paths,\n"
    "                                 state and approved mode (exit 0 only in approved mode)\n"
    "  version                        the module's version\n"
    "  help                           this text\n"
    "Commands that read a private key take --passin SRC (pass:TEXT, env:VAR, file:PATH, fd:N)\n"
    "for an encrypted PKCS#8 key.\n"
    "`fipsmod COMMAND --help` describes a command. Long options take one dash or two (-hex,\n"
    "--hex). See fipsmod(1).\n" CLI_EXIT_TEXT;

static const char k_version_usage[] =
    "usage: fipsmod version\n"
    "  The module's name and version.\n" CLI_EXIT_TEXT;

static int cmd_version(int argc, char **argv) {
  if (cli_wants_help(argc, argv)) return cli_print_help(k_version_usage);
  if (argc != 1) return cli_bad_usage("version", k_version_usage, "takes no arguments");
  printf("%s\n", fm_module_version());
  return cli_stdout_done("version", CLI_EXIT_OK);
}

int main(int argc, char **argv) {
  if (argc < 2) return cli_usage_error(k_usage);
  const char *cmd = argv[1];
  int sub_argc = argc - 1;
  char **sub_argv = argv + 1;
  if (strcmp(cmd, "selftest") == 0) return cmd_selftest(sub_argc, sub_argv);
  if (strcmp(cmd, "kat") == 0) return cmd_kat(sub_argc, sub_argv);
  if (strcmp(cmd, "acvp") == 0) return cmd_acvp(sub_argc, sub_argv);
  if (strcmp(cmd, "rand") == 0) return cmd_rand(sub_argc, sub_argv);
  if (strcmp(cmd, "uuid") == 0) return cmd_uuid(sub_argc, sub_argv);
  if (strcmp(cmd, "keygen") == 0) return cmd_keygen(sub_argc, sub_argv);
  if (strcmp(cmd, "pubkey") == 0) return cmd_pubkey(sub_argc, sub_argv);
  if (strcmp(cmd, "sign") == 0) return cmd_sign(sub_argc, sub_argv);
  if (strcmp(cmd, "verify") == 0) return cmd_verify(sub_argc, sub_argv);
  if (strcmp(cmd, "derive") == 0) return cmd_derive(sub_argc, sub_argv);
  if (strcmp(cmd, "encap") == 0) return cmd_encap(sub_argc, sub_argv);
  if (strcmp(cmd, "decap") == 0) return cmd_decap(sub_argc, sub_argv);
  if (strcmp(cmd, "dgst") == 0) return cmd_dgst(sub_argc, sub_argv);
  if (strcmp(cmd, "kdf") == 0) return cmd_kdf(sub_argc, sub_argv);
  if (strcmp(cmd, "enc") == 0) return cmd_enc(sub_argc, sub_argv);
  if (strcmp(cmd, "policy") == 0) return cmd_policy(sub_argc, sub_argv);
  if (strcmp(cmd, "version") == 0 || cli_opt_is(cmd, "version")) {
    return cmd_version(sub_argc, sub_argv);
  }
  if (strcmp(cmd, "help") == 0 || cli_is_help(cmd)) {
    if (argc > 3 || (argc == 3 && !cli_is_help(argv[2]))) {
      fprintf(stderr, "fipsmod help: unexpected argument %s\n", argv[2]);
      return cli_usage_error(k_usage);
    }
    return cli_print_help(k_usage);
  }
  fprintf(stderr, "fipsmod: unknown command \"%s\"\n", cmd);
  return cli_usage_error(k_usage);
}
