/* Hash a file with SHA-256, streaming it through an incremental context, and print the digest
 * the way sha256sum does ("<hex>  <name>").
 *
 *   usage: hash_file FILE... */
#include "example.h"

static int hash_one(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    perror(path);
    return 1;
  }
  fm_sha_ctx ctx;
  uint8_t buf[16384], digest[FM_SHA256_DIGEST_LEN];
  TRY(fm_sha_init(&ctx, FM_HASH_SHA256));
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) TRY(fm_sha_update(&ctx, buf, n));
  int read_error = ferror(f);
  fclose(f);
  if (read_error) {
    fm_sha_wipe(&ctx); /* an abandoned context is wiped, not left half-used */
    fprintf(stderr, "%s: read error\n", path);
    return 1;
  }
  TRY(fm_sha_final(&ctx, digest, sizeof digest)); /* final wipes the context */
  for (size_t i = 0; i < sizeof digest; i++) printf("%02x", digest[i]);
  printf("  %s\n", path);
  return 0;
}

int main(int argc, char **argv) {
  example_require_operational();
  if (argc < 2) {
    fprintf(stderr, "usage: hash_file FILE...\n");
    return 2;
  }
  int rc = 0;
  for (int i = 1; i < argc; i++) rc |= hash_one(argv[i]);
  return rc;
}
