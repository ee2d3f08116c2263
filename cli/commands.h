/* The subcommands of the `fipsmod` command. Each takes the arguments that follow its name
 * (argv[0] is the subcommand's name), prints to stdout/stderr and returns the process exit
 * status (cli/options.h): 0 on success, 1 when a check failed or the module refused, 2 on a usage
 * error, an unreadable input or an unwritable output. Every command answers -h, -help and --help on stdout with exit 0. */
#ifndef FIPSMOD_CLI_COMMANDS_H
#define FIPSMOD_CLI_COMMANDS_H

/* cmd_selftest: `fipsmod selftest [--json]`, the power-on self-test report; exit 0 only when
 * the module is OPERATIONAL. */
int cmd_selftest(int argc, char **argv);

/* cmd_policy: `fipsmod policy [--json]`, what a lab compares with the security policy: the
 * version, the loaded library and its injected integrity MAC, the CPU paths, the state and
 * whether the module is in the approved mode; exit 0 only in the approved mode (cmd_policy.c). */
int cmd_policy(int argc, char **argv);

/* cmd_kat: `fipsmod kat [--json] [--large] [--expect-pass N] [--expect-fail N]
 * [--expect-skip N] FILE...`, runs known-answer vector files (CAVP, ACVP, Wycheproof). */
int cmd_kat(int argc, char **argv);

/* cmd_acvp: `fipsmod acvp PROMPT.json [-o RESPONSE.json]`, answers an ACVP vector set and
 * writes the response (cli/vectors/). */
int cmd_acvp(int argc, char **argv);

/* cmd_rand: `fipsmod rand N [--hex|--base64] [--out FILE]`, N random bytes from the module's
 * DRBG. */
int cmd_rand(int argc, char **argv);

/* cmd_uuid: `fipsmod uuid [--count N] [--v4|--v7]`, N UUIDs (version 4, or 7), one per line. */
int cmd_uuid(int argc, char **argv);

/* cmd_keygen: `fipsmod keygen (--rsa BITS|--ec CURVE|--ml-kem N|--ml-dsa N) [--out FILE]
 * [--pkcs1] [--der]`, a new key as PKCS#8 PEM, ML-KEM and ML-DSA in the seed form (cmd_key.c, as
 * the three below). */
int cmd_keygen(int argc, char **argv);

/* cmd_pubkey: `fipsmod pubkey KEY [--out FILE] [--pkcs1] [--der]`, SubjectPublicKeyInfo PEM of
 * an RSA, EC, ML-KEM or ML-DSA key. */
int cmd_pubkey(int argc, char **argv);

/* cmd_sign: `fipsmod sign --key KEY (--pss [--saltlen N|digest]|--pkcs1|--ecdsa) --hash H
 * [--out SIG] [--hex|--base64] FILE`, or `--ml-dsa [--context HEX] [--deterministic]` in place
 * of the scheme and hash; ECDSA signatures in DER. */
int cmd_sign(int argc, char **argv);

/* cmd_verify: `fipsmod verify --key KEY (--pss [--saltlen N|digest|max|auto]|--pkcs1|--ecdsa)
 * --hash H --sig SIG FILE` or `--ml-dsa [--context HEX]` (SIG raw or DER, hex or base64); exit 0
 * when the signature is valid, 1 when it is not. */
int cmd_verify(int argc, char **argv);

/* cmd_derive: `fipsmod derive --key KEY --peer PEER [--out FILE]`, the raw ECDH shared secret
 * (cmd_kem.c). */
int cmd_derive(int argc, char **argv);

/* cmd_encap: `fipsmod encap --key KEY --out CT --secret SS` and cmd_decap: `fipsmod decap --key
 * KEY --in CT --secret SS`, ML-KEM encapsulation and decapsulation (cmd_kem.c). */
int cmd_encap(int argc, char **argv);
int cmd_decap(int argc, char **argv);

/* cmd_dgst: `fipsmod dgst --hash H [--hmac KEYHEX|--hmac-key FILE] [FILE...]`, digests or HMAC
 * tags of files in sha256sum's format (cmd_dgst.c). */
int cmd_dgst(int argc, char **argv);

/* cmd_kdf: `fipsmod kdf hkdf|pbkdf2|kbkdf OPTIONS`, a key derived with HKDF, PBKDF2 or the
 * SP 800-108 counter-mode KDF (cmd_kdf.c). */
int cmd_kdf(int argc, char **argv);

/* cmd_enc: `fipsmod enc -e|-d --gcm --key FILE [--aad FILE] [--counter-iv FIXEDHEX] IN OUT`,
 * AES-GCM over a file in a framed format (cmd_enc.c). */
int cmd_enc(int argc, char **argv);

#endif
