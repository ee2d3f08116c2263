/* The approval rules of the services (approval.h), each written as the security policy states
 * it. policy/approval.tsv lists them; a rule changed here without its row fails the policy ctest
 * (the indicator probe calls each service on both sides of the row's bound). */
#include "module/approval.h"

/* 112 bits: the weakest security strength approved for use (SP 800-131Ar2). */
#define MIN_KEY_BYTES 14

bool fm_approval_hmac(size_t key_len) { return key_len >= MIN_KEY_BYTES; }

bool fm_approval_gcm(size_t tag_len) { return tag_len >= 12 && tag_len <= 16; }

bool fm_approval_hkdf_extract(size_t ikm_len) { return ikm_len >= MIN_KEY_BYTES; }

bool fm_approval_hkdf_expand(size_t out_len) { return out_len >= MIN_KEY_BYTES; }

bool fm_approval_hkdf(size_t ikm_len, size_t out_len) {
  return fm_approval_hkdf_extract(ikm_len) && fm_approval_hkdf_expand(out_len);
}

bool fm_approval_kbkdf(size_t key_len, size_t out_len) {
  return key_len >= MIN_KEY_BYTES && out_len >= MIN_KEY_BYTES;
}

bool fm_approval_pbkdf2(size_t password_len, size_t salt_len, uint64_t iterations,
                        size_t out_len) {
  return password_len >= 8 && salt_len >= 16 && iterations >= 1000 && out_len >= MIN_KEY_BYTES;
}

bool fm_approval_pkcs8(size_t pass_len, size_t salt_len, uint64_t iterations) {
  /* The AES key PBKDF2 derives is 128 bits or more, above the PBKDF2 rule's floor. */
  return fm_approval_pbkdf2(pass_len, salt_len, iterations, 16);
}

bool fm_approval_rsa_sign(size_t n_bits) {
  return n_bits == 2048 || n_bits == 3072 || n_bits == 4096;
}

bool fm_approval_rsa_verify_pkcs1v15(size_t n_bits) { return n_bits >= 2048; }

bool fm_approval_rsa_public_key(size_t n_bits) { return n_bits >= 2048; }

bool fm_approval_rsa_verify_pss(size_t n_bits, size_t hash_len, size_t salt_len) {
  return fm_approval_rsa_verify_pkcs1v15(n_bits) && salt_len <= hash_len;
}
