/* Constant-time check of ML-KEM and ML-DSA key-file decoding (fm_mlkem_key_decode,
 * fm_mldsa_key_decode), run under valgrind memcheck against the test-hooks build: each private
 * key file, in each of its three forms (seed, expandedKey, both) in DER and PEM, is marked secret
 * (undefined) as a whole, and the module declassifies exactly what its secrecy model calls public
 * (module/pqkey.h, module/der.h: DER tags and lengths, the version, the object identifier, the
 * PEM armour and line structure; module/mlkem/mlkem_keyfile.c and module/mldsa/mldsa_keyfile.c:
 * the embedded ek, rho, t1 and the verdicts of the key checks and of the seed / expanded-key
 * comparison). Any branch or memory index on the seed or the expanded key is reported and fails
 * the test. The keys are generated here from fixed seeds. Outside valgrind it is a plain
 * decoding test. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fipsmod/fipsmod.h"
#include "module/internal.h"
#include "tests/common/test_util.h"

static uint8_t g_file[16384];

/* decode_secret decodes g_file[0..n) with the file marked secret and checks what came out. */
static void decode_secret(bool kem, size_t n, int want_param, fm_key_format want_format,
                          const uint8_t *want_pub, size_t pub_len) {
  static uint8_t seed[64], priv[FM_MLDSA_87_PRIVATE_KEY_LEN], pub[FM_MLDSA_87_PUBLIC_KEY_LEN];
  fm_key_format f = (fm_key_format)0;
  int param = 0, st;
  fm_mark_secret_for_testing(g_file, n);
  if (kem) {
    fm_mlkem_param p;
    st = fm_mlkem_key_decode(g_file, n, &p, &f, seed, sizeof seed, priv, sizeof priv, pub,
                             sizeof pub);
    param = (int)p;
  } else {
    fm_mldsa_param p;
    st = fm_mldsa_key_decode(g_file, n, &p, &f, seed, sizeof seed, priv, sizeof priv, pub,
                             sizeof pub);
    param = (int)p;
  }
  /* The outputs are secret-derived: release them to compare. */
  fm_declassify(&st, sizeof st);
  fm_declassify(&param, sizeof param);
  fm_declassify(&f, sizeof f);
  fm_declassify(pub, sizeof pub);
  CHECK_EQ_INT(st, FM_OK);
  CHECK_EQ_INT(param, want_param);
  CHECK_EQ_INT(f, want_format);
  CHECK_MEM(pub, want_pub, pub_len);
}

static const fm_key_format k_forms[] = {FM_KEY_PKCS8_PRIVATE, FM_KEY_PKCS8_EXPANDED,
                                        FM_KEY_PKCS8_BOTH};

static void mlkem_forms(fm_mlkem_param param, size_t ek_len, size_t dk_len) {
  uint8_t seed[64], ek[FM_MLKEM_MAX_EK_LEN], dk[FM_MLKEM_MAX_DK_LEN];
  for (size_t i = 0; i < sizeof seed; i++) seed[i] = (uint8_t)(i * 7 + 1);
  CHECK_EQ_INT(fm_mlkem_keygen_from_seed(param, seed, 64, ek, ek_len, dk, dk_len), FM_OK);
  for (size_t f = 0; f < 3; f++) {
    for (int enc = FM_KEY_DER; enc <= FM_KEY_PEM; enc++) {
      const bool expanded = k_forms[f] == FM_KEY_PKCS8_EXPANDED;
      size_t n = 0;
      CHECK_EQ_INT(fm_mlkem_key_encode(param, k_forms[f], expanded ? dk : seed,
                                       expanded ? dk_len : 64, (fm_key_encoding)enc, g_file,
                                       sizeof g_file, &n),
                   FM_OK);
      decode_secret(true, n, param, k_forms[f], ek, ek_len);
    }
  }
}

static void mldsa_forms(fm_mldsa_param param, size_t pk_len, size_t sk_len) {
  static uint8_t pk[FM_MLDSA_87_PUBLIC_KEY_LEN], sk[FM_MLDSA_87_PRIVATE_KEY_LEN];
  uint8_t seed[32];
  for (size_t i = 0; i < sizeof seed; i++) seed[i] = (uint8_t)(i * 5 + 3);
  CHECK_EQ_INT(fm_mldsa_keygen_from_seed(param, seed, pk, pk_len, sk, sk_len), FM_OK);
  for (size_t f = 0; f < 3; f++) {
    /* DER for every form, PEM for one (the armour is the same code for both schemes). */
    for (int enc = FM_KEY_DER; enc <= (f == 2 ? FM_KEY_PEM : FM_KEY_DER); enc++) {
      const bool expanded = k_forms[f] == FM_KEY_PKCS8_EXPANDED;
      size_t n = 0;
      CHECK_EQ_INT(fm_mldsa_key_encode(param, k_forms[f], expanded ? sk : seed,
                                       expanded ? sk_len : 32, (fm_key_encoding)enc, g_file,
                                       sizeof g_file, &n),
                   FM_OK);
      decode_secret(false, n, param, k_forms[f], pk, pk_len);
    }
  }
}

int main(void) {
  mlkem_forms(FM_MLKEM_768, FM_MLKEM768_EK_LEN, FM_MLKEM768_DK_LEN);
  mlkem_forms(FM_MLKEM_512, FM_MLKEM512_EK_LEN, FM_MLKEM512_DK_LEN);
  mldsa_forms(FM_MLDSA_44, FM_MLDSA_44_PUBLIC_KEY_LEN, FM_MLDSA_44_PRIVATE_KEY_LEN);
  mldsa_forms(FM_MLDSA_87, FM_MLDSA_87_PUBLIC_KEY_LEN, FM_MLDSA_87_PRIVATE_KEY_LEN);
  return test_main_result("test_pq_keyfile_ct");
}
