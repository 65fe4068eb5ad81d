// support/vectors.h: reading the test-vector files (tests/vectors, see its README.md).
#ifndef CHAPOLY_TESTS_VECTORS_H
#define CHAPOLY_TESTS_VECTORS_H

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace chapoly::test {

using Bytes = std::vector<uint8_t>;

// vectors_dir is the absolute path of the vector files (compile definition CHAPOLY_VECTORS_DIR).
std::string vectors_dir();
// vector_path is vectors_dir() + "/" + name; it fails the test if the file is missing.
std::string vector_path(const std::string &name);

// from_hex decodes an even-length hex string; throws std::invalid_argument on anything else.
Bytes from_hex(const std::string &hex);
std::string to_hex(const uint8_t *p, size_t n);
inline std::string to_hex(const Bytes &b) { return to_hex(b.data(), b.size()); }

// load_json parses a JSON vector file.
nlohmann::json load_json(const std::string &name);

// FileTestCase: one blank-line-separated block of BoringSSL's test-vector text format: lines
// `NAME: value` or `NAME = value`, where the value is hex, a "quoted string" (raw bytes), or
// empty. `#` lines are comments. Each attribute must be read through get() exactly as the test
// intends; unconsumed() lists the ones nobody read, so a harness can insist all were used.
class FileTestCase {
 public:
  int line = 0;  // line number of the block's first attribute
  // get returns the named attribute's bytes and marks it consumed; it throws
  // std::out_of_range naming the attribute and line when it is absent.
  const Bytes &get(const std::string &name);
  bool has(const std::string &name) const { return attrs_.count(name) != 0; }
  std::vector<std::string> unconsumed() const;
  void set(const std::string &name, Bytes value) { attrs_[name] = std::move(value); }

 private:
  std::map<std::string, Bytes> attrs_;
  std::set<std::string> consumed_;
};

// parse_file_tests reads a whole BoringSSL-format file; throws std::runtime_error (with the line)
// on a malformed line or a repeated attribute in one block.
std::vector<FileTestCase> parse_file_tests(const std::string &name);

}  // namespace chapoly::test

#endif  // CHAPOLY_TESTS_VECTORS_H
