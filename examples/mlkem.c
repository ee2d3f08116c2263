/* ML-KEM (FIPS 203): the receiver generates an ML-KEM-768 key pair; the sender encapsulates to
 * the public (encapsulation) key and gets a ciphertext and a 32-byte shared secret; the receiver
 * decapsulates the ciphertext with the private (decapsulation) key and gets the same secret. A
 * changed ciphertext gives an unrelated secret (implicit rejection), not an error. */
#include <string.h>

#include "example.h"

int main(void) {
  example_require_operational();
  static uint8_t ek[FM_MLKEM768_EK_LEN], dk[FM_MLKEM768_DK_LEN], ct[FM_MLKEM768_CT_LEN];
  uint8_t ss_sender[FM_MLKEM_SHARED_SECRET_LEN], ss_receiver[FM_MLKEM_SHARED_SECRET_LEN];

  /* Receiver: the key pair (pairwise-tested inside the call). No seed output asked for. */
  TRY(fm_mlkem_keygen(FM_MLKEM_768, ek, sizeof ek, dk, sizeof dk, NULL, 0));
  /* Sender: encapsulate to ek (checked as FIPS 203 7.2 says). */
  TRY(fm_mlkem_encaps(FM_MLKEM_768, ek, sizeof ek, ct, sizeof ct, ss_sender, sizeof ss_sender));
  /* Receiver: decapsulate. */
  TRY(fm_mlkem_decaps(FM_MLKEM_768, dk, sizeof dk, ct, sizeof ct, ss_receiver,
                      sizeof ss_receiver));
  EXPECT(memcmp(ss_sender, ss_receiver, sizeof ss_sender) == 0, "the same shared secret");
  printf("ML-KEM-768: ek %zu bytes, ciphertext %zu bytes, the same %d-byte secret on both sides\n",
         sizeof ek, sizeof ct, FM_MLKEM_SHARED_SECRET_LEN);

  ct[0] ^= 1;
  TRY(fm_mlkem_decaps(FM_MLKEM_768, dk, sizeof dk, ct, sizeof ct, ss_receiver,
                      sizeof ss_receiver));
  EXPECT(memcmp(ss_sender, ss_receiver, sizeof ss_sender) != 0,
         "a changed ciphertext to give another secret");
  fm_cleanse(dk, sizeof dk);
  fm_cleanse(ss_sender, sizeof ss_sender);
  fm_cleanse(ss_receiver, sizeof ss_receiver);
  return 0;
}
