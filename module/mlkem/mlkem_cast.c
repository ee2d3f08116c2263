/* mlkem_selftest_kat: the ML-KEM CAST (FIPS 140-3 IG 10.3.A), run by selftest/ before the first
 * use of any ML-KEM service. One parameter set (ML-KEM-768) covers the code every set shares;
 * the test goes through the public services, so it covers the kernels the CPU path uses:
 *   - KeyGen_internal from a fixed seed: SHA3-256 of ek and of dk against known values;
 *   - Encaps_internal with a fixed m: SHA3-256 of the ciphertext and K;
 *   - Decaps of that ciphertext: K again;
 *   - Decaps of the ciphertext with one bit flipped: the implicit-rejection key J(z || c').
 * The known values (mlkem_known_values.h) come from Wycheproof's vectors and Python's hashlib. */
#include "fipsmod/mlkem.h"
#include "module/internal.h"
#include "module/mlkem/internal.h"
#include "module/mlkem/mlkem_known_values.h"
#include "module/sha3/internal.h"

#define CALL(expr)           \
  do {                       \
    st = (expr);             \
    if (st != FM_OK) goto done; \
  } while (0)

int mlkem_selftest_kat(void) {
  uint8_t ek[FM_MLKEM768_EK_LEN], dk[FM_MLKEM768_DK_LEN], ct[FM_MLKEM768_CT_LEN];
  uint8_t k[32], digest[32];
  int st;
  CALL(fm_mlkem_keygen_from_seed(FM_MLKEM_768, mlkem768_kat_seed, sizeof mlkem768_kat_seed, ek,
                                 sizeof ek, dk, sizeof dk));
  sha3_digest(256, ek, sizeof ek, digest);
  CALL(fm_selftest_expect(digest, mlkem768_kat_ek_sha3, sizeof digest));
  sha3_digest(256, dk, sizeof dk, digest);
  CALL(fm_selftest_expect(digest, mlkem768_kat_dk_sha3, sizeof digest));

  CALL(fm_mlkem_encaps_internal(FM_MLKEM_768, ek, sizeof ek, mlkem768_kat_m,
                                sizeof mlkem768_kat_m, ct, sizeof ct, k, sizeof k));
  sha3_digest(256, ct, sizeof ct, digest);
  CALL(fm_selftest_expect(digest, mlkem768_kat_ct_sha3, sizeof digest));
  CALL(fm_selftest_expect(k, mlkem768_kat_k, sizeof k));

  CALL(fm_mlkem_decaps(FM_MLKEM_768, dk, sizeof dk, ct, sizeof ct, k, sizeof k));
  CALL(fm_selftest_expect(k, mlkem768_kat_k, sizeof k));

  ct[0] ^= 1;
  CALL(fm_mlkem_decaps(FM_MLKEM_768, dk, sizeof dk, ct, sizeof ct, k, sizeof k));
  CALL(fm_selftest_expect(k, mlkem768_kat_kbar, sizeof k));
done:
  fm_zeroize(ek, sizeof ek);
  fm_zeroize(dk, sizeof dk);
  fm_zeroize(ct, sizeof ct);
  fm_zeroize(k, sizeof k);
  fm_zeroize(digest, sizeof digest);
  return st;
}
