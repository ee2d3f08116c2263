/* `fipsmod keygen`, `pubkey`, `sign` and `verify`: RSA keys in PKCS#8/PKCS#1/SPKI files and
 * signatures over files, through rsa.h and keyfile.h.
 *
 * Options take one dash or two (-out or --out), as openssl users type them. Exit status: 0 on
 * success (verify: the signature is valid), 1 when the operation failed (verify: the signature is
 * not valid), 2 on a usage error or an unreadable file. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/options.h"
#include "fipsmod/fipsmod.h"

/* The largest file these commands read: a message to sign, or a key. */
#define MAX_INPUT (UINT64_C(1) << 30)

/* wipe_free zeroizes and frees a buffer that may hold a private key. */
static void wipe_free(uint8_t *p, size_t n) {
  if (p == NULL) return;
  (void)fm_cleanse(p, n);
  free(p);
}

/* read_all reads a whole file ("-" is standard input) into a new buffer. */
static int read_all(const char *path, uint8_t **out, size_t *out_len) {
  FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
  if (f == NULL) return -1;
  size_t cap = 4096, n = 0;
  uint8_t *buf = malloc(cap);
  while (buf != NULL) {
    size_t got = fread(buf + n, 1, cap - n, f);
    n += got;
    if (n < cap) break;
    if (cap >= MAX_INPUT) {
      wipe_free(buf, n);
      buf = NULL;
      break;
    }
    uint8_t *bigger = malloc(cap * 2);
    if (bigger != NULL) memcpy(bigger, buf, n);
    wipe_free(buf, n);
    buf = bigger;
    cap *= 2;
  }
  int bad = buf == NULL || ferror(f);
  if (f != stdin) fclose(f);
  if (bad) {
    wipe_free(buf, n);
    return -1;
  }
  *out = buf;
  *out_len = n;
  return 0;
}

/* write_fd writes |n| bytes to |fd|; 0 when all were written. */
static int write_fd(int fd, const uint8_t *p, size_t n) {
  size_t done = 0;
  while (done < n) {
    ssize_t w = write(fd, p + done, n - done);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return -1;
    done += (size_t)w;
  }
  return 0;
}

/* write_private replaces |path| with a new file of mode 0600 holding |p|: written to a fresh
 * temporary file beside it (O_EXCL, so never an existing file or a symlink's target), made 0600
 * whatever the umask, flushed, then renamed over |path|. A symlink at |path| is replaced, its
 * target left untouched; an existing file's mode is not kept. On failure |path| is unchanged. */
static int write_private(const char *path, const uint8_t *p, size_t n) {
  const size_t len = strlen(path);
  char *tmp = malloc(len + sizeof ".XXXXXX");
  if (tmp == NULL) return -1;
  memcpy(tmp, path, len);
  memcpy(tmp + len, ".XXXXXX", sizeof ".XXXXXX");
  int fd = mkstemp(tmp);
  if (fd < 0) {
    free(tmp);
    return -1;
  }
  int ok = fchmod(fd, 0600) == 0 && write_fd(fd, p, n) == 0 && fsync(fd) == 0;
  ok = close(fd) == 0 && ok;
  ok = ok && rename(tmp, path) == 0;
  if (!ok) {
    const int saved = errno;
    (void)unlink(tmp);
    errno = saved;
  }
  free(tmp);
  return ok ? 0 : -1;
}

/* write_all writes |n| bytes to |path| ("-" or NULL: standard output); |private_file| creates it
 * readable by its owner only (write_private). */
static int write_all(const char *path, const uint8_t *p, size_t n, int private_file) {
  if (path == NULL || strcmp(path, "-") == 0) {
    return fwrite(p, 1, n, stdout) == n && fflush(stdout) == 0 ? 0 : -1;
  }
  if (private_file) return write_private(path, p, n);
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return -1;
  const int ok = write_fd(fd, p, n) == 0;
  return close(fd) == 0 && ok ? 0 : -1;
}

/* load_key reads a key file (PEM or DER; PKCS#1, PKCS#8 or SPKI). */
static int load_key(const char *cmd, const char *path, fm_rsa_key **key) {
  uint8_t *buf = NULL;
  size_t n = 0;
  if (read_all(path, &buf, &n) != 0) {
    fprintf(stderr, "fipsmod %s: cannot read %s: %s\n", cmd, path, strerror(errno ? errno : EIO));
    return 2;
  }
  int st = fm_rsa_key_decode(buf, n, key);
  wipe_free(buf, n);
  if (st == FM_ERR_NOT_OPERATIONAL) {
    /* The module refused, not the file: say why, and exit as every refusal does. */
    cli_report_status(cmd, st);
    return 1;
  }
  if (st != FM_OK) {
    fprintf(stderr, "fipsmod %s: %s: %s\n", cmd, path, fm_strerror(st));
    return 2;
  }
  return 0;
}

/* save_key writes |key| as |format| (PEM unless |der|) to |path|. */
static int save_key(const char *cmd, const fm_rsa_key *key, fm_key_format format, int der,
                    const char *path) {
  fm_key_encoding enc = der ? FM_KEY_DER : FM_KEY_PEM;
  size_t need = 0;
  int st = fm_rsa_key_encode(key, format, enc, NULL, 0, &need);
  uint8_t *out = st == FM_OK ? malloc(need) : NULL;
  if (st == FM_OK && out == NULL) st = FM_ERR_NO_MEMORY;
  if (st == FM_OK) st = fm_rsa_key_encode(key, format, enc, out, need, &need);
  if (st != FM_OK) {
    cli_report_status(cmd, st);
    wipe_free(out, need);
    return 1;
  }
  int private_file = format == FM_KEY_PKCS1_PRIVATE || format == FM_KEY_PKCS8_PRIVATE;
  int rc = write_all(path, out, need, private_file);
  wipe_free(out, need);
  if (rc != 0) {
    fprintf(stderr, "fipsmod %s: cannot write %s\n", cmd, path ? path : "standard output");
    return 2;
  }
  return 0;
}

static const char k_keygen_usage[] =
    "usage: fipsmod keygen --rsa BITS [--out FILE] [--pkcs1] [--der]\n"
    "  Generates an RSA key (BITS = 2048, 3072 or 4096; e = 65537) and writes it as PKCS#8\n"
    "  PEM (--pkcs1: PKCS#1 RSAPrivateKey; --der: DER) to FILE (mode 0600) or standard output.\n"
    "  Exit status: 0 written, 1 generation failed or the module is not\n"
    "  operational (the reason is printed), 2 usage error or unwritable file.\n";

int cmd_keygen(int argc, char **argv) {
  if (cli_wants_help(argc, argv)) return fputs(k_keygen_usage, stdout) == EOF;
  const char *bits = NULL, *out = NULL;
  int pkcs1 = 0, der = 0;
  for (int i = 1; i < argc; i++) {
    if (cli_opt_is(argv[i], "rsa") && i + 1 < argc) {
      bits = argv[++i];
    } else if (cli_opt_is(argv[i], "out") && i + 1 < argc) {
      out = argv[++i];
    } else if (cli_opt_is(argv[i], "pkcs1")) {
      pkcs1 = 1;
    } else if (cli_opt_is(argv[i], "der")) {
      der = 1;
    } else {
      fputs(k_keygen_usage, stderr);
      return 2;
    }
  }
  if (bits == NULL || (strcmp(bits, "2048") != 0 && strcmp(bits, "3072") != 0 &&
                       strcmp(bits, "4096") != 0)) {
    fputs(k_keygen_usage, stderr);
    return 2;
  }
  fm_rsa_key *key = NULL;
  int st = fm_rsa_key_generate((unsigned)atoi(bits), &key);
  if (st != FM_OK) {
    cli_report_status("keygen", st);
    return 1;
  }
  int rc = save_key("keygen", key, pkcs1 ? FM_KEY_PKCS1_PRIVATE : FM_KEY_PKCS8_PRIVATE, der, out);
  (void)fm_rsa_key_free(key);
  return rc;
}

static const char k_pubkey_usage[] =
    "usage: fipsmod pubkey KEY [--out FILE] [--pkcs1] [--der]\n"
    "  Writes the public key of KEY (PEM or DER; PKCS#1, PKCS#8 or SPKI) as SubjectPublicKeyInfo\n"
    "  PEM (--pkcs1: PKCS#1 RSAPublicKey; --der: DER) to FILE or standard output.\n"
    "  Exit status: 0 written, 1 failed or the module is not operational (the\n"
    "  reason is printed), 2 usage error or unreadable key.\n";

int cmd_pubkey(int argc, char **argv) {
  if (cli_wants_help(argc, argv)) return fputs(k_pubkey_usage, stdout) == EOF;
  const char *in = NULL, *out = NULL;
  int pkcs1 = 0, der = 0;
  for (int i = 1; i < argc; i++) {
    if (cli_opt_is(argv[i], "out") && i + 1 < argc) {
      out = argv[++i];
    } else if (cli_opt_is(argv[i], "pkcs1")) {
      pkcs1 = 1;
    } else if (cli_opt_is(argv[i], "der")) {
      der = 1;
    } else if (in == NULL && (argv[i][0] != '-' || strcmp(argv[i], "-") == 0)) {
      in = argv[i];
    } else {
      fputs(k_pubkey_usage, stderr);
      return 2;
    }
  }
  if (in == NULL) {
    fputs(k_pubkey_usage, stderr);
    return 2;
  }
  fm_rsa_key *key = NULL;
  int rc = load_key("pubkey", in, &key);
  if (rc != 0) return rc;
  rc = save_key("pubkey", key, pkcs1 ? FM_KEY_PKCS1_PUBLIC : FM_KEY_SPKI_PUBLIC, der, out);
  (void)fm_rsa_key_free(key);
  return rc;
}

/* The options sign and verify share. */
struct sig_opts {
  const char *key, *hash_name, *sig, *out, *file;
  int pss, pkcs1;
  fm_hash_alg hash;
  size_t hash_len;
};

static int parse_sig_opts(int argc, char **argv, int verify, struct sig_opts *o) {
  memset(o, 0, sizeof *o);
  for (int i = 1; i < argc; i++) {
    if (cli_opt_is(argv[i], "key") && i + 1 < argc) {
      o->key = argv[++i];
    } else if (cli_opt_is(argv[i], "hash") && i + 1 < argc) {
      o->hash_name = argv[++i];
    } else if (verify && cli_opt_is(argv[i], "sig") && i + 1 < argc) {
      o->sig = argv[++i];
    } else if (!verify && cli_opt_is(argv[i], "out") && i + 1 < argc) {
      o->out = argv[++i];
    } else if (cli_opt_is(argv[i], "pss")) {
      o->pss = 1;
    } else if (cli_opt_is(argv[i], "pkcs1")) {
      o->pkcs1 = 1;
    } else if (o->file == NULL && (argv[i][0] != '-' || strcmp(argv[i], "-") == 0)) {
      o->file = argv[i];
    } else {
      return -1;
    }
  }
  if (o->key == NULL || o->hash_name == NULL || o->file == NULL || o->pss == o->pkcs1 ||
      (verify && o->sig == NULL))
    return -1;
  if (strcmp(o->hash_name, "sha256") == 0) {
    o->hash = FM_HASH_SHA256;
  } else if (strcmp(o->hash_name, "sha384") == 0) {
    o->hash = FM_HASH_SHA384;
  } else if (strcmp(o->hash_name, "sha512") == 0) {
    o->hash = FM_HASH_SHA512;
  } else {
    return -1;
  }
  return fm_hash_digest_len(o->hash, &o->hash_len) == FM_OK ? 0 : -1;
}

static const char k_sign_usage[] =
    "usage: fipsmod sign --key KEY (--pss|--pkcs1) --hash sha256|sha384|sha512 [--out SIG] FILE\n"
    "  Signs FILE (\"-\": standard input) with the private KEY (PEM or DER, PKCS#1 or PKCS#8):\n"
    "  RSASSA-PSS with MGF1 and a salt as long as the hash, or RSASSA-PKCS1-v1_5. Writes the raw\n"
    "  signature to SIG or standard output.\n"
    "  Exit status: 0 signed, 1 signing failed or the module is not\n"
    "  operational (the reason is printed), 2 usage error or unreadable input.\n";

int cmd_sign(int argc, char **argv) {
  if (cli_wants_help(argc, argv)) return fputs(k_sign_usage, stdout) == EOF;
  struct sig_opts o;
  if (parse_sig_opts(argc, argv, 0, &o) != 0) {
    fputs(k_sign_usage, stderr);
    return 2;
  }
  fm_rsa_key *key = NULL;
  int rc = load_key("sign", o.key, &key);
  if (rc != 0) return rc;
  uint8_t *msg = NULL, sig[2048];
  size_t msg_len = 0, sig_len = 0;
  if (read_all(o.file, &msg, &msg_len) != 0) {
    fprintf(stderr, "fipsmod sign: cannot read %s\n", o.file);
    (void)fm_rsa_key_free(key);
    return 2;
  }
  int st = o.pss ? fm_rsa_sign_pss(key, o.hash, msg, msg_len, o.hash_len, sig, sizeof sig, &sig_len)
                 : fm_rsa_sign_pkcs1v15(key, o.hash, msg, msg_len, sig, sizeof sig, &sig_len);
  free(msg);
  (void)fm_rsa_key_free(key);
  if (st != FM_OK) {
    cli_report_status("sign", st);
    return 1;
  }
  if (write_all(o.out, sig, sig_len, 0) != 0) {
    fprintf(stderr, "fipsmod sign: cannot write %s\n", o.out ? o.out : "standard output");
    return 2;
  }
  return 0;
}

static const char k_verify_usage[] =
    "usage: fipsmod verify --key KEY (--pss|--pkcs1) --hash sha256|sha384|sha512 --sig SIG FILE\n"
    "  Verifies the raw signature SIG over FILE (\"-\": standard input) with KEY (a private or a\n"
    "  public key, PEM or DER; PSS expects a salt as long as the hash).\n"
    "  Exit status: 0 the signature is valid; 1 it is not, or the module is not operational (the\n"
    "  reason is printed); 2 usage error or unreadable input.\n";

int cmd_verify(int argc, char **argv) {
  if (cli_wants_help(argc, argv)) return fputs(k_verify_usage, stdout) == EOF;
  struct sig_opts o;
  if (parse_sig_opts(argc, argv, 1, &o) != 0) {
    fputs(k_verify_usage, stderr);
    return 2;
  }
  fm_rsa_key *key = NULL;
  int rc = load_key("verify", o.key, &key);
  if (rc != 0) return rc;
  uint8_t *msg = NULL, *sig = NULL;
  size_t msg_len = 0, sig_len = 0;
  if (read_all(o.file, &msg, &msg_len) != 0 || read_all(o.sig, &sig, &sig_len) != 0) {
    fprintf(stderr, "fipsmod verify: cannot read %s\n", msg == NULL ? o.file : o.sig);
    free(msg);
    (void)fm_rsa_key_free(key);
    return 2;
  }
  int st = o.pss ? fm_rsa_verify_pss(key, o.hash, msg, msg_len, o.hash_len, sig, sig_len)
                 : fm_rsa_verify_pkcs1v15(key, o.hash, msg, msg_len, sig, sig_len);
  free(msg);
  free(sig);
  (void)fm_rsa_key_free(key);
  if (st == FM_OK) {
    puts("Verified OK");
    return 0;
  }
  if (st == FM_ERR_VERIFY) {
    puts("Verification failure");
    return 1;
  }
  cli_report_status("verify", st);
  return st == FM_ERR_NOT_OPERATIONAL ? 1 : 2;
}
