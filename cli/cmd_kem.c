/* `fipsmod derive` (ECDH), `encap` and `decap` (ML-KEM): shared secrets, as openssl pkeyutl
 * -derive, -encap and -decap make them. A shared secret is written as a private file (mode 0600,
 * replaced by a rename) and wiped from memory. Exit status: 0 done, 1 the operation failed or the
 * module is not operational (the reason is printed), 2 usage error, an unreadable input, a key
 * of the wrong kind or an unwritable output. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/anykey.h"
#include "cli/commands.h"
#include "cli/io.h"
#include "cli/options.h"
#include "cli/pass.h"
#include "fipsmod/fipsmod.h"

static const char k_derive_usage[] =
    "usage: fipsmod derive --key KEY [--passin SRC] --peer PEER [--out FILE]\n"
    "  ECDH (SP 800-56A ECC CDH): the shared secret Z of the private EC KEY and the peer's EC\n"
    "  key PEER (public or private, PEM or DER, on the same curve), raw, as openssl pkeyutl\n"
    "  -derive writes it, to FILE (mode 0600) or standard output. --passin: the passphrase of\n"
    "  an encrypted PKCS#8 KEY.\n" CLI_PASS_LINES
    "  Exit status: 0 written, 1 the derivation failed or the module is not\n"
    "  operational (the reason is printed), 2 usage error, unreadable key or unwritable file.\n";

/* write_secret writes the secret |s| to |path| as a private file and wipes it. */
static int write_secret(const char *cmd, uint8_t *s, size_t n, const char *path) {
  const int rc = cli_write_all(path, s, n, 1);
  fm_cleanse(s, n);
  if (rc != 0) {
    fprintf(stderr, "fipsmod %s: cannot write %s\n", cmd, path ? path : "standard output");
    return CLI_EXIT_USAGE;
  }
  return CLI_EXIT_OK;
}

int cmd_derive(int argc, char **argv) {
  if (cli_wants_help(argc, argv)) return cli_print_help(k_derive_usage);
  static const char *const valued[] = {"key", "peer", "out", "passin", NULL};
  const char *key_path = NULL, *peer_path = NULL, *out = NULL, *passin = NULL;
  for (int i = 1; i < argc; i++) {
    if (cli_opt_is(argv[i], "key") && i + 1 < argc) {
      key_path = argv[++i];
    } else if (cli_opt_is(argv[i], "passin") && i + 1 < argc) {
      passin = argv[++i];
    } else if (cli_opt_is(argv[i], "peer") && i + 1 < argc) {
      peer_path = argv[++i];
    } else if (cli_opt_is(argv[i], "out") && i + 1 < argc) {
      out = argv[++i];
    } else {
      return cli_bad_arg("derive", k_derive_usage, argv[i], valued);
    }
  }
  if (key_path == NULL) return cli_bad_usage("derive", k_derive_usage, "--key KEY is required");
  if (peer_path == NULL)
    return cli_bad_usage("derive", k_derive_usage, "--peer PEER is required");
  cli_key key, peer;
  int rc = cli_key_load("derive", key_path, CLI_KEY_EC, passin, &key);
  if (rc != 0) return rc;
  if (!key.is_private) {
    fprintf(stderr, "fipsmod derive: %s is a public key: deriving needs the private key\n",
            key_path);
    cli_key_free(&key);
    return CLI_EXIT_USAGE;
  }
  rc = cli_key_load("derive", peer_path, CLI_KEY_EC, NULL, &peer);
  if (rc != 0) {
    cli_key_free(&key);
    return rc;
  }
  if (peer.curve != key.curve) {
    fprintf(stderr, "fipsmod derive: %s is on %s, %s on %s: both keys must be on one curve\n",
            peer_path, cli_curve_name(peer.curve), key_path, cli_curve_name(key.curve));
    cli_key_free(&key);
    cli_key_free(&peer);
    return CLI_EXIT_USAGE;
  }
  uint8_t point[FM_EC_MAX_POINT_BYTES], z[FM_EC_MAX_BYTES];
  size_t point_len = 0, z_len = 0;
  int st = fm_ec_key_export_public(peer.ec, 0, point, sizeof point, &point_len);
  if (st == FM_OK) st = fm_ecdh(key.ec, point, point_len, z, sizeof z, &z_len);
  cli_key_free(&key);
  cli_key_free(&peer);
  if (st != FM_OK) {
    fm_cleanse(z, sizeof z);
    cli_report_status("derive", st);
    return CLI_EXIT_FAILED;
  }
  return write_secret("derive", z, z_len, out);
}

static const char k_encap_usage[] =
    "usage: fipsmod encap --key KEY [--passin SRC] --out CT --secret SS\n"
    "  ML-KEM.Encaps (FIPS 203) to the ML-KEM key KEY (public or private, PEM or DER): writes\n"
    "  the ciphertext to CT and the 32-byte shared secret, raw, to SS (mode 0600), as openssl\n"
    "  pkeyutl -encap does. --passin: the passphrase of an encrypted PKCS#8 KEY.\n" CLI_PASS_LINES
    "  Exit status: 0 written, 1 encapsulation failed or the module is not\n"
    "  operational (the reason is printed), 2 usage error, unreadable key or unwritable file.\n";

static const char k_decap_usage[] =
    "usage: fipsmod decap --key KEY [--passin SRC] --in CT --secret SS\n"
    "  ML-KEM.Decaps (FIPS 203) of the ciphertext CT with the private ML-KEM key KEY (PEM or\n"
    "  DER): writes the 32-byte shared secret, raw, to SS (mode 0600), as openssl pkeyutl\n"
    "  -decap does. A ciphertext that was changed gives another secret (implicit rejection),\n"
    "  not an error. --passin: the passphrase of an encrypted PKCS#8 KEY.\n" CLI_PASS_LINES
    "  Exit status: 0 written, 1 decapsulation failed or the module is not\n"
    "  operational (the reason is printed), 2 usage error, unreadable input, a ciphertext of\n"
    "  the wrong length or unwritable file.\n";

/* kem_opts reads encap's (|decap| 0) or decap's options. */
static int kem_opts(int argc, char **argv, int decap, const char **key, const char **ct,
                    const char **ss, const char **passin) {
  const char *cmd = decap ? "decap" : "encap";
  const char *usage = decap ? k_decap_usage : k_encap_usage;
  static const char *const valued_encap[] = {"key", "out", "secret", "passin", NULL};
  static const char *const valued_decap[] = {"key", "in", "secret", "passin", NULL};
  *key = *ct = *ss = *passin = NULL;
  for (int i = 1; i < argc; i++) {
    if (cli_opt_is(argv[i], "key") && i + 1 < argc) {
      *key = argv[++i];
    } else if (cli_opt_is(argv[i], "passin") && i + 1 < argc) {
      *passin = argv[++i];
    } else if (cli_opt_is(argv[i], decap ? "in" : "out") && i + 1 < argc) {
      *ct = argv[++i];
    } else if (cli_opt_is(argv[i], "secret") && i + 1 < argc) {
      *ss = argv[++i];
    } else {
      return cli_bad_arg(cmd, usage, argv[i], decap ? valued_decap : valued_encap);
    }
  }
  if (*key == NULL) return cli_bad_usage(cmd, usage, "--key KEY is required");
  if (*ct == NULL)
    return cli_bad_usage(cmd, usage, decap ? "--in CT is required" : "--out CT is required");
  if (*ss == NULL) return cli_bad_usage(cmd, usage, "--secret SS is required");
  return 0;
}

int cmd_encap(int argc, char **argv) {
  if (cli_wants_help(argc, argv)) return cli_print_help(k_encap_usage);
  const char *key_path, *ct_path, *ss_path, *passin;
  int rc = kem_opts(argc, argv, 0, &key_path, &ct_path, &ss_path, &passin);
  if (rc != 0) return rc;
  cli_key key;
  rc = cli_key_load("encap", key_path, CLI_KEY_MLKEM, passin, &key);
  if (rc != 0) return rc;
  uint8_t ct[FM_MLKEM_MAX_CT_LEN], ss[FM_MLKEM_SHARED_SECRET_LEN];
  size_t ct_len = 0;
  int st = fm_mlkem_sizes(key.kem, NULL, NULL, &ct_len);
  if (st == FM_OK) st = fm_mlkem_encaps(key.kem, key.pub, key.pub_len, ct, ct_len, ss, sizeof ss);
  cli_key_free(&key);
  if (st != FM_OK) {
    fm_cleanse(ss, sizeof ss);
    cli_report_status("encap", st);
    return CLI_EXIT_FAILED;
  }
  if (cli_write_all(ct_path, ct, ct_len, 0) != 0) {
    fm_cleanse(ss, sizeof ss);
    fprintf(stderr, "fipsmod encap: cannot write %s\n", ct_path);
    return CLI_EXIT_USAGE;
  }
  return write_secret("encap", ss, sizeof ss, ss_path);
}

int cmd_decap(int argc, char **argv) {
  if (cli_wants_help(argc, argv)) return cli_print_help(k_decap_usage);
  const char *key_path, *ct_path, *ss_path, *passin;
  int rc = kem_opts(argc, argv, 1, &key_path, &ct_path, &ss_path, &passin);
  if (rc != 0) return rc;
  cli_key key;
  rc = cli_key_load("decap", key_path, CLI_KEY_MLKEM, passin, &key);
  if (rc != 0) return rc;
  if (!key.is_private) {
    fprintf(stderr, "fipsmod decap: %s is a public key: decapsulation needs the private key\n",
            key_path);
    cli_key_free(&key);
    return CLI_EXIT_USAGE;
  }
  uint8_t *ct = NULL, ss[FM_MLKEM_SHARED_SECRET_LEN];
  size_t ct_len = 0, want = 0;
  if (cli_read_all(ct_path, &ct, &ct_len) != 0) {
    fprintf(stderr, "fipsmod decap: cannot read %s\n", ct_path);
    cli_key_free(&key);
    return CLI_EXIT_USAGE;
  }
  if (fm_mlkem_sizes(key.kem, NULL, NULL, &want) == FM_OK && ct_len != want) {
    fprintf(stderr, "fipsmod decap: %s is %zu bytes: an ML-KEM-%d ciphertext is %zu\n", ct_path,
            ct_len, (int)key.kem, want);
    free(ct);
    cli_key_free(&key);
    return CLI_EXIT_USAGE;
  }
  int st = fm_mlkem_decaps(key.kem, key.priv, key.priv_len, ct, ct_len, ss, sizeof ss);
  free(ct);
  cli_key_free(&key);
  if (st != FM_OK) {
    fm_cleanse(ss, sizeof ss);
    cli_report_status("decap", st);
    return CLI_EXIT_FAILED;
  }
  return write_secret("decap", ss, sizeof ss, ss_path);
}
