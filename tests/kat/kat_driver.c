/* The KAT runner linked against the internal library, so that ctest runs every vector file on
 * both CPU paths without going through the installed libfipsmod.so. Same arguments as
 * `fipsmod kat`. */
#include "cli/commands.h"

int main(int argc, char **argv) { return cmd_kat(argc, argv); }
