/* libFuzzer target: fm_mlkem_key_decode and fm_mldsa_key_decode on arbitrary bytes (PEM or DER;
 * SubjectPublicKeyInfo, OneAsymmetricKey with the seed, expandedKey or both form). Properties:
 * the status is FM_OK or one of the statuses keyfile.h lists, and on error every output is wiped
 * (parameter set and format 0, buffers zero); a decoded key encodes again in the form it was read
 * in; for DER input that encoding is the input exactly (DER is canonical, and the decoder takes
 * nothing else); for PEM input it decodes to the same public key. At most one of the two
 * decoders takes any input (their identifiers differ). */
#include <string.h>

#include "tests/fuzz/fuzz_util.h"

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  fuzz_require_operational();
  return 0;
}

#define MAX_PRIV FM_MLDSA_87_PRIVATE_KEY_LEN
#define MAX_PUB FM_MLDSA_87_PUBLIC_KEY_LEN

static uint8_t g_seed[64], g_priv[MAX_PRIV], g_pub[MAX_PUB], g_pub2[MAX_PUB], g_out[16384];

static int all_zero(const uint8_t *p, size_t n) {
  uint8_t acc = 0;
  for (size_t i = 0; i < n; i++) acc |= p[i];
  return acc == 0;
}

static int decode(int kem, const uint8_t *in, size_t n, int *param, fm_key_format *format,
                  uint8_t *pub) {
  if (kem) {
    fm_mlkem_param p = FM_MLKEM_512;
    int st = fm_mlkem_key_decode(in, n, &p, format, g_seed, sizeof g_seed, g_priv, sizeof g_priv,
                                 pub, MAX_PUB);
    *param = (int)p;
    return st;
  }
  fm_mldsa_param p = FM_MLDSA_44;
  int st = fm_mldsa_key_decode(in, n, &p, format, g_seed, sizeof g_seed, g_priv, sizeof g_priv,
                               pub, MAX_PUB);
  *param = (int)p;
  return st;
}

/* check_one runs one decoder and, for a key it takes, the re-encoding properties. */
static int check_one(int kem, const uint8_t *data, size_t size) {
  int param = -1;
  fm_key_format format = FM_KEY_PKCS1_PUBLIC; /* must be overwritten */
  int st = decode(kem, data, size, &param, &format, g_pub);
  FUZZ_ASSERT(st == FM_OK || st == FM_ERR_PARSE || st == FM_ERR_UNSUPPORTED ||
              st == FM_ERR_LENGTH || st == FM_ERR_BAD_KEY || st == FM_ERR_NO_MEMORY ||
              st == FM_ERR_KEYGEN);
  if (st != FM_OK) {
    FUZZ_ASSERT(param == 0 && format == 0);
    FUZZ_ASSERT(all_zero(g_seed, sizeof g_seed) && all_zero(g_priv, sizeof g_priv) &&
                all_zero(g_pub, sizeof g_pub));
    return 0;
  }
  size_t seed_len = kem ? 64 : 32, priv_len = 0, pub_len = 0;
  if (kem) {
    FUZZ_ASSERT(fm_mlkem_sizes((fm_mlkem_param)param, &pub_len, &priv_len, NULL) == FM_OK);
  } else {
    pub_len = fm_mldsa_public_key_len((fm_mldsa_param)param);
    priv_len = fm_mldsa_private_key_len((fm_mldsa_param)param);
    FUZZ_ASSERT(pub_len != 0);
  }
  const uint8_t *key = format == FM_KEY_SPKI_PUBLIC      ? g_pub
                       : format == FM_KEY_PKCS8_EXPANDED ? g_priv
                                                         : g_seed;
  const size_t key_len = format == FM_KEY_SPKI_PUBLIC      ? pub_len
                         : format == FM_KEY_PKCS8_EXPANDED ? priv_len
                                                           : seed_len;
  const int pem = size > 0 && data[0] != 0x30;
  size_t len = 0;
  int est = kem ? fm_mlkem_key_encode((fm_mlkem_param)param, format, key, key_len,
                                      pem ? FM_KEY_PEM : FM_KEY_DER, g_out, sizeof g_out, &len)
                : fm_mldsa_key_encode((fm_mldsa_param)param, format, key, key_len,
                                      pem ? FM_KEY_PEM : FM_KEY_DER, g_out, sizeof g_out, &len);
  FUZZ_ASSERT(est == FM_OK);
  if (!pem) {
    FUZZ_ASSERT(len == size && memcmp(g_out, data, size) == 0);
  } else {
    int param2 = 0;
    fm_key_format format2 = (fm_key_format)0;
    FUZZ_ASSERT(decode(kem, g_out, len, &param2, &format2, g_pub2) == FM_OK);
    FUZZ_ASSERT(param2 == param && format2 == format && memcmp(g_pub, g_pub2, pub_len) == 0);
  }
  (void)fm_cleanse(g_out, sizeof g_out);
  (void)fm_cleanse(g_seed, sizeof g_seed);
  (void)fm_cleanse(g_priv, sizeof g_priv);
  return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const int taken = check_one(1, data, size) + check_one(0, data, size);
  FUZZ_ASSERT(taken <= 1);
  fuzz_require_operational();
  return 0;
}
