// fuzz_spec: libFuzzer target (issue 10, item 7; tests/fuzz/README.md) for chapoly-gen's spec
// reader (generator/src/spec.cpp, compiled into this target unchanged): any bytes given as a spec
// file must either load or be refused with chapoly::gen::SpecError (the error chapoly-gen prints
// as file:line:column and exits 2 on). A crash, a sanitizer report, a hang or any other exception
// is a finding.
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "spec.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // The reader takes a path: give it an in-memory regular file.
  static int fd = memfd_create("fuzz_spec.toml", 0);
  static const std::string path = "/proc/self/fd/" + std::to_string(fd);
  if (fd < 0) std::abort();
  if (ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) != static_cast<ssize_t>(size)) std::abort();
  try {
    (void)chapoly::gen::load_spec(path);
  } catch (const chapoly::gen::SpecError &) {
    // refused with a located message: expected
  } catch (const std::exception &e) {
    std::fprintf(stderr, "fuzz_spec: unexpected exception: %s\n", e.what());
    std::abort();
  }
  return 0;
}
