/* env_check.c: CHAPOLY_BACKEND on the real first-use path, through libchapoly.so (ctest runs it
 * with the variable set; see tests/CMakeLists.txt).
 *
 * usage: chapoly-env-check EXPECTED
 *   EXPECTED is the name chapoly_backend() must return on first use, "avx512-if-usable"
 *   ("avx512" when this CPU runs it, else "none") or "best" ("avx512" when this CPU runs it,
 *   else "portable"). Seal must succeed unless the answer is
 *   "none", in which case it must return CHAPOLY_ERR_UNSUPPORTED. Exit status 0 on success. */
#include <stdio.h>
#include <string.h>

#include <chapoly/chapoly.h>

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s EXPECTED\n", argv[0]);
    return 2;
  }
  const char *got = chapoly_backend(); /* the first call decides */
  uint8_t key[32] = {0}, nonce[12] = {0}, tag[16], msg[5] = {'h', 'e', 'l', 'l', 'o'}, ct[5];
  int seal_rc = chapoly_seal(ct, tag, msg, sizeof msg, NULL, 0, nonce, key);
  const char *want = argv[1];
  if (strcmp(want, "avx512-if-usable") == 0) {
    want = chapoly_select_backend("avx512") == CHAPOLY_OK ? "avx512" : "none";
  } else if (strcmp(want, "best") == 0) {
    want = chapoly_select_backend("avx512") == CHAPOLY_OK ? "avx512" : "portable";
  }
  int want_rc = strcmp(want, "none") == 0 ? CHAPOLY_ERR_UNSUPPORTED : CHAPOLY_OK;
  printf("CHAPOLY_BACKEND decided '%s' (expected '%s'); seal returned %d (expected %d)\n", got,
         want, seal_rc, want_rc);
  return strcmp(got, want) == 0 && seal_rc == want_rc ? 0 : 1;
}
