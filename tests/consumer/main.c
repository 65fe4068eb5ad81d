/* main.c: a minimal program using an installed libchapoly, as a downstream user would: seal a
 * message, open it, tamper with it, and print the backend. Exit status 0 when all is as expected. */
#include <stdio.h>
#include <string.h>

#include <chapoly/chapoly.h>

int main(void) {
  static const uint8_t key[CHAPOLY_KEY_BYTES] = {
      0x80, 0x81, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89, 0x8a, 0x8b, 0x8c, 0x8d, 0x8e, 0x8f,
      0x90, 0x91, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9a, 0x9b, 0x9c, 0x9d, 0x9e, 0x9f};
  static const uint8_t nonce[CHAPOLY_NONCE_BYTES] = {0x07, 0, 0, 0, 0x40, 0x41,
                                                     0x42, 0x43, 0x44, 0x45, 0x46, 0x47};
  static const uint8_t aad[12] = {0x50, 0x51, 0x52, 0x53, 0xc0, 0xc1,
                                  0xc2, 0xc3, 0xc4, 0xc5, 0xc6, 0xc7};
  /* RFC 8439 section 2.8.2: this message's tag starts 1a e1 0b 59. */
  const char *msg = "Ladies and Gentlemen of the class of '99: If I could offer you only one tip "
                    "for the future, sunscreen would be it.";
  size_t len = strlen(msg);
  uint8_t ct[256], pt[256], tag[CHAPOLY_TAG_BYTES];

  int rc = chapoly_seal(ct, tag, (const uint8_t *)msg, len, aad, sizeof aad, nonce, key);
  if (rc != CHAPOLY_OK || tag[0] != 0x1a || tag[1] != 0xe1 || tag[2] != 0x0b || tag[3] != 0x59) {
    fprintf(stderr, "seal failed (rc %d)\n", rc);
    return 1;
  }
  rc = chapoly_open(pt, ct, len, tag, aad, sizeof aad, nonce, key);
  if (rc != CHAPOLY_OK || memcmp(pt, msg, len) != 0) {
    fprintf(stderr, "open failed (rc %d)\n", rc);
    return 1;
  }
  ct[0] ^= 1;
  if (chapoly_open(pt, ct, len, tag, aad, sizeof aad, nonce, key) != CHAPOLY_ERR_AUTH) {
    fprintf(stderr, "a tampered message was accepted\n");
    return 1;
  }
  printf("chapoly %s (header %s), backend %s: seal/open round trip ok\n", chapoly_version(),
         CHAPOLY_VERSION_STRING, chapoly_backend());
  return 0;
}
