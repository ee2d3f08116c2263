/* Passphrases on the command line, given as openssl's -passin and -passout take them:
 *   pass:TEXT   the passphrase itself (visible to other users in the process list: for tests);
 *   env:VAR     the value of the environment variable VAR;
 *   file:PATH   the first line of the file PATH (without its line ending);
 *   fd:N        the first line read from the open file descriptor N. */
#ifndef FIPSMOD_CLI_PASS_H
#define FIPSMOD_CLI_PASS_H

#include <stddef.h>
#include <stdint.h>

/* The usage lines that describe a passphrase source. */
#define CLI_PASS_LINES                                                                    \
  "  A passphrase SRC is pass:TEXT, env:VAR, file:PATH or fd:N (the first line of the\n"  \
  "  file or descriptor), as openssl's -passin and -passout take it.\n"

/* cli_pass_read reads the passphrase that |spec| names into a new buffer (*pass, *len; free it
 * with cli_pass_free). |cmd| and |opt| ("--passin") name the command and option in messages.
 * Returns 0, or CLI_EXIT_USAGE after saying on stderr what was wrong. */
int cli_pass_read(const char *cmd, const char *opt, const char *spec, uint8_t **pass, size_t *len);

/* cli_pass_free wipes and frees a passphrase (NULL is ignored). */
void cli_pass_free(uint8_t *pass, size_t len);

#endif
