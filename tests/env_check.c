/* env_check.c: CHAPOLY_BACKEND on the real first-use path, through libchapoly.so (ctest runs it
 * with the variable set; see tests/CMakeLists.txt).
 *
 * usage: chapoly-env-check EXPECTED
 *   EXPECTED is the name chapoly_backend() must return on first use, "NAME-if-usable"
 *   ("NAME" when this library has it and this CPU runs it, else "none") or "best" (the first
 *   of avx512, avx2, scalar, portable, the registry order, that this library and CPU run). Seal must succeed unless the answer is
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
  static const char *const order[] = {"avx512", "avx2", "scalar", "portable"}; /* registry order */
  size_t wl = strlen(want);
  char name[32];
  if (wl > 10 && wl - 10 < sizeof name && strcmp(want + wl - 10, "-if-usable") == 0) {
    memcpy(name, want, wl - 10);
    name[wl - 10] = '\0';
    want = chapoly_select_backend(name) == CHAPOLY_OK ? name : "none";
  } else if (strcmp(want, "best") == 0) {
    for (size_t i = 0; i < sizeof order / sizeof order[0]; ++i) {
      if (chapoly_select_backend(order[i]) == CHAPOLY_OK) {
        want = order[i];
        break;
      }
    }
  }
  int want_rc = strcmp(want, "none") == 0 ? CHAPOLY_ERR_UNSUPPORTED : CHAPOLY_OK;
  printf("CHAPOLY_BACKEND decided '%s' (expected '%s'); seal returned %d (expected %d)\n", got,
         want, seal_rc, want_rc);
  return strcmp(got, want) == 0 && seal_rc == want_rc ? 0 : 1;
}
