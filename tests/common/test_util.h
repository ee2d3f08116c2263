/* Helpers shared by the test programs: checks that report file and line, hex conversion, and a
 * seeded, reproducible pseudo-random generator for differential tests (never for keys). */
#ifndef FIPSMOD_TESTS_TEST_UTIL_H
#define FIPSMOD_TESTS_TEST_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Failures counted by the CHECK macros; test_main_result() turns them into the exit status. */
extern int test_failures;

/* CHECK(cond): counts and reports a failure without stopping the test. */
#define CHECK(cond)                                                                  \
  do {                                                                               \
    if (!(cond)) {                                                                   \
      test_failures++;                                                               \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);       \
    }                                                                                \
  } while (0)

/* CHECK_EQ_INT(a, b): integer equality, printing both values. */
#define CHECK_EQ_INT(a, b)                                                                      \
  do {                                                                                          \
    long long check_a_ = (long long)(a), check_b_ = (long long)(b);                             \
    if (check_a_ != check_b_) {                                                                 \
      test_failures++;                                                                          \
      fprintf(stderr, "%s:%d: CHECK_EQ_INT failed: %s = %lld, %s = %lld\n", __FILE__, __LINE__, \
              #a, check_a_, #b, check_b_);                                                      \
    }                                                                                           \
  } while (0)

/* CHECK_MEM(a, b, len): byte equality, printing both in hex on failure. */
#define CHECK_MEM(a, b, len) test_check_mem(__FILE__, __LINE__, #a, (a), #b, (b), (len))

void test_check_mem(const char *file, int line, const char *an, const void *a, const char *bn,
                    const void *b, size_t len);

/* test_is_all_zero returns 1 when the |len| bytes at p are all zero. */
int test_is_all_zero(const void *p, size_t len);

/* test_read_vector_file reads tests/vectors/|rel| whole into a new buffer (NUL-terminated, so
 * text files read as strings; the caller frees it) and sets *len to its size. On failure (no such
 * file, over 1 MiB, out of memory) it prints why, counts a test failure and returns NULL with
 * *len 0. */
uint8_t *test_read_vector_file(const char *rel, size_t *len);

/* test_hex_decode decodes |hex| (even length, either case) into out (at most cap bytes); returns
 * the byte count, or -1 on a bad character, odd length or overflow. */
long test_hex_decode(const char *hex, uint8_t *out, size_t cap);

/* test_hex_encode writes 2*len lower-case hex digits and a NUL to out. */
void test_hex_encode(const uint8_t *in, size_t len, char *out);

/* A seeded generator (xoshiro256**-style) for reproducible differential tests. */
typedef struct test_rng {
  uint64_t s[4];
} test_rng;

/* test_rng_seed seeds |r| from FIPSMOD_TEST_SEED when set, else from the clock, prints the seed to
 * stderr so that a failure can be replayed, and returns it. */
uint64_t test_rng_seed(test_rng *r, const char *test_name);
void test_rng_seed_fixed(test_rng *r, uint64_t seed);
uint64_t test_rng_u64(test_rng *r);
/* test_rng_below returns a value in [0, bound) (bound > 0; slight bias is fine for tests). */
uint64_t test_rng_below(test_rng *r, uint64_t bound);
void test_rng_bytes(test_rng *r, void *out, size_t len);

/* test_case_count returns the number of random cases a differential test runs by default,
 * |full| divided by FIPSMOD_DIFF_DIVISOR when that is set to an integer of 2 or more (never below
 * 1). The sanitizer presets set it: ASan and UBSan look for memory and undefined-behaviour errors
 * on every path and length class, which a tenth of the cases still reaches, while the release
 * and clang runs keep the full count. A count given on the command line is not divided. */
long test_case_count(long full);

/* test_main_result prints "N passed, M failed"-style summary for |name| and returns the exit
 * status (0 only when no CHECK failed). */
int test_main_result(const char *name);

/* The case runner: a program lists its cases in a table of TEST_CASE(name) entries, each naming
 * a function `static void test_<name>(void)`, and main() ends with
 *   return TEST_RUN(argc, argv, "<program>", cases);
 * `prog` runs every case, `prog <case>` runs one, `prog --list` prints the names. ctest registers
 * one entry per case (<program>.<case>), reading the TEST_CASE entries from the source at
 * configure time (fipsmod_add_test), where every `static void test_<name>(void)` of the source
 * must be in the table: a case left out fails configure. The exit status is test_main_result's
 * (0 only when no CHECK failed); 2 for an unknown case or a usage error. */
typedef struct test_case {
  const char *name;
  void (*fn)(void);
} test_case;

/* TEST_ZERO_GENERAL_REGISTERS zeroes every general register a function may change or must save
 * (x86-64 System V; aarch64: x0-x17 and x19-x28, AAPCS64, x18 being the platform's), so that a
 * stack-residue test's run starts with none of the previous run's values in them: the module's
 * prologues and spills would store those in their frames. */
#if defined(__x86_64__)
#define TEST_ZERO_GENERAL_REGISTERS()                                                           \
  __asm__ __volatile__("xorl %%ebx, %%ebx\n\txorl %%r12d, %%r12d\n\txorl %%r13d, %%r13d\n\t"      \
                       "xorl %%r14d, %%r14d\n\txorl %%r15d, %%r15d\n\txorl %%eax, %%eax\n\t"     \
                       "xorl %%ecx, %%ecx\n\txorl %%edx, %%edx\n\txorl %%esi, %%esi\n\t"        \
                       "xorl %%edi, %%edi\n\txorl %%r8d, %%r8d\n\txorl %%r9d, %%r9d\n\t"        \
                       "xorl %%r10d, %%r10d\n\txorl %%r11d, %%r11d"                              \
                       :                                                                         \
                       :                                                                         \
                       : "rbx", "r12", "r13", "r14", "r15", "rax", "rcx", "rdx", "rsi", "rdi",   \
                         "r8", "r9", "r10", "r11")
#elif defined(__aarch64__)
#define TEST_ZERO_GENERAL_REGISTERS()                                                           \
  __asm__ __volatile__("mov x0, xzr\n\tmov x1, xzr\n\tmov x2, xzr\n\tmov x3, xzr\n\t"              \
                       "mov x4, xzr\n\tmov x5, xzr\n\tmov x6, xzr\n\tmov x7, xzr\n\t"              \
                       "mov x8, xzr\n\tmov x9, xzr\n\tmov x10, xzr\n\tmov x11, xzr\n\t"            \
                       "mov x12, xzr\n\tmov x13, xzr\n\tmov x14, xzr\n\tmov x15, xzr\n\t"          \
                       "mov x16, xzr\n\tmov x17, xzr\n\tmov x19, xzr\n\tmov x20, xzr\n\t"          \
                       "mov x21, xzr\n\tmov x22, xzr\n\tmov x23, xzr\n\tmov x24, xzr\n\t"          \
                       "mov x25, xzr\n\tmov x26, xzr\n\tmov x27, xzr\n\tmov x28, xzr"                \
                       :                                                                         \
                       :                                                                         \
                       : "x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9", "x10",      \
                         "x11", "x12", "x13", "x14", "x15", "x16", "x17", "x19", "x20", "x21",   \
                         "x22", "x23", "x24", "x25", "x26", "x27", "x28")
#else
#error "TEST_ZERO_GENERAL_REGISTERS is written for x86-64 and aarch64"
#endif

#define TEST_CASE(name) {#name, test_##name}
#define TEST_RUN(argc, argv, program, table) \
  test_run_cases((argc), (argv), (program), (table), sizeof(table) / sizeof((table)[0]))

int test_run_cases(int argc, char **argv, const char *program, const test_case *cases, size_t n);

#endif
