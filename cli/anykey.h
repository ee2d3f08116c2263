/* A key file of any algorithm the commands take (RSA, EC, ML-KEM, ML-DSA; private or public;
 * encrypted PKCS#8 with a passphrase), read by the module's fm_key_decode (key.h), which tries
 * each decoder in turn and names the algorithm of a key it does not take. */
#ifndef FIPSMOD_CLI_ANYKEY_H
#define FIPSMOD_CLI_ANYKEY_H

#include <stddef.h>
#include <stdint.h>

#include "fipsmod/fipsmod.h"

typedef enum {
  CLI_KEY_RSA = 1,
  CLI_KEY_EC = 2,
  CLI_KEY_MLKEM = 3,
  CLI_KEY_MLDSA = 4,
} cli_key_type;

typedef struct {
  cli_key_type type;
  int is_private;
  fm_rsa_key *rsa;      /* CLI_KEY_RSA */
  fm_ec_key *ec;        /* CLI_KEY_EC */
  fm_ec_curve curve;    /* CLI_KEY_EC */
  fm_mlkem_param kem;   /* CLI_KEY_MLKEM */
  fm_mldsa_param dsa;   /* CLI_KEY_MLDSA */
  uint8_t *priv;        /* ML-KEM dk or ML-DSA sk (secret; NULL for a public key) */
  size_t priv_len;
  uint8_t *pub;         /* ML-KEM ek or ML-DSA pk */
  size_t pub_len;
  fm_key *handle;       /* a loaded key: owns rsa, ec, priv and pub (NULL: they are owned here) */
} cli_key;

/* cli_key_load reads the key file |path| for the command |cmd| into |*key| (free it with
 * cli_key_free). |want| is the type the command needs (0: any). |passin| (NULL: none) names the
 * passphrase of an encrypted PKCS#8 key (cli/pass.h). A file that is not a key the module takes,
 * or a key of another type than |want|, is named for what it is ("an EC key (P-256), not an
 * ML-DSA key", "an encrypted PKCS#8 key, and no --passin") on stderr. Returns 0, 1 when the
 * module refused (the reason is printed) or 2 for an unreadable file, a wrong passphrase or a
 * key the command cannot use. */
int cli_key_load(const char *cmd, const char *path, cli_key_type want, const char *passin,
                 cli_key *key);

/* cli_key_load_flags is cli_key_load with fm_key_decode_ex's |flags|. */
int cli_key_load_flags(const char *cmd, const char *path, cli_key_type want, const char *passin,
                       unsigned flags, cli_key *key);

/* cli_key_free frees |key|'s parts and wipes its secrets. */
void cli_key_free(cli_key *key);

/* cli_key_what writes what |key| is ("an EC key (P-256)", "an ML-KEM-768 key") to out. */
void cli_key_what(const cli_key *key, char *out, size_t cap);

/* cli_key_type_name is "an RSA key", "an EC key", "an ML-KEM key" or "an ML-DSA key". */
const char *cli_key_type_name(cli_key_type type);

/* cli_curve_name is "P-256" and so on; cli_curve_from_name reads P-224, P-256, P-384, P-521
 * (any case; also prime256v1, secp384r1, secp521r1, secp224r1). Returns 0, or -1. */
const char *cli_curve_name(fm_ec_curve curve);
int cli_curve_from_name(const char *name, fm_ec_curve *curve);

#endif
