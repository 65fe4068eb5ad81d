// fuzz_verify_frontend: libFuzzer target (issue 10, item 7; tests/fuzz/README.md) for
// chapoly-verify's front end (verify/src/frontend.cpp, linked unchanged): mutated kernel code must
// either lower to the verifier's IR or be refused with FrontendError messages. A crash, a
// sanitizer report in the harness, a hang or an exception is a finding. Each input is parsed by
// Clang, so a run is slow (tens of milliseconds per input for the seeds here).
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

#include "ir.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 64 * 1024) return 0;
  // The Clang driver picks the language from the name: a .cpp file in a private directory.
  static const std::string path = [] {
    const char *tmp = std::getenv("TMPDIR");
    std::string dir = std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") +
                      "/fuzz_verify_frontend.XXXXXX";
    if (mkdtemp(dir.data()) == nullptr) std::abort();
    return dir + "/kernel.cpp";
  }();
  {
    FILE *f = std::fopen(path.c_str(), "wb");
    if (f == nullptr || std::fwrite(data, 1, size, f) != size || std::fclose(f) != 0) std::abort();
  }
  cv::File file;
  std::vector<cv::FrontendError> errs;
  try {
    (void)cv::parseKernelFile(path, {"-std=c++20", "-mavx512f", "-mavx512vl",
                                                  "-mavx512bw", "-mavx512ifma", "-mbmi2"},
                                           file, errs);
  } catch (const std::exception &e) {
    std::fprintf(stderr, "fuzz_verify_frontend: unexpected exception: %s\n", e.what());
    std::abort();
  }
  return 0;
}
