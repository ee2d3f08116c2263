/* acvp_rsa_private_exponent computes d = e^-1 mod lcm(p-1, q-1) (FIPS 186-5 5.1) for a test
 * key given in CRT form without d (ACVP signaturePrimitive 2.0 and decryptionPrimitive
 * Sp800-56Br2 "crt" keys), for an odd e >= 3 of any size. Writes d (minimal big-endian, at most
 * d_cap bytes) and returns 0, or -1 when the inputs are inconsistent (e even, gcd(e, lambda)
 * != 1, p or q below 3), d does not fit, or memory runs out. Not constant time: public test
 * keys; every intermediate is wiped before it is freed. */
#ifndef FIPSMOD_CLI_VECTORS_ACVP_BN_H
#define FIPSMOD_CLI_VECTORS_ACVP_BN_H

#include <stddef.h>
#include <stdint.h>

int acvp_rsa_private_exponent(const uint8_t *e, size_t e_len, const uint8_t *p, size_t p_len,
                              const uint8_t *q, size_t q_len, uint8_t *d, size_t d_cap,
                              size_t *d_len);

#endif
