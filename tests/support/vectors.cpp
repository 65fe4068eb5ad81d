// support/vectors.cpp: hex, JSON and BoringSSL-format readers for the vector files (tests/vectors).
#include "vectors.h"

#include <fstream>
#include <sstream>
#include <stdexcept>

#include <gtest/gtest.h>

namespace chapoly::test {

std::string vectors_dir() { return CHAPOLY_VECTORS_DIR; }

std::string vector_path(const std::string &name) {
  std::string path = vectors_dir() + "/" + name;
  std::ifstream probe(path);
  if (!probe) {
    ADD_FAILURE() << "missing vector file " << path
                  << " (the files live in tests/vectors; -DCHAPOLY_VECTORS_DIR=... overrides)";
  }
  return path;
}

Bytes from_hex(const std::string &hex) {
  auto nibble = [&](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    throw std::invalid_argument("not a hex digit in '" + hex + "'");
  };
  if (hex.size() % 2 != 0) throw std::invalid_argument("odd-length hex '" + hex + "'");
  Bytes out(hex.size() / 2);
  for (size_t i = 0; i < out.size(); ++i) {
    out[i] = static_cast<uint8_t>(nibble(hex[2 * i]) * 16 + nibble(hex[2 * i + 1]));
  }
  return out;
}

std::string to_hex(const uint8_t *p, size_t n) {
  static const char kDigits[] = "0123456789abcdef";
  std::string s;
  s.reserve(2 * n);
  for (size_t i = 0; i < n; ++i) {
    s.push_back(kDigits[p[i] >> 4]);
    s.push_back(kDigits[p[i] & 15]);
  }
  return s;
}

nlohmann::json load_json(const std::string &name) {
  std::ifstream in(vector_path(name));
  return nlohmann::json::parse(in);
}

const Bytes &FileTestCase::get(const std::string &name) {
  auto it = attrs_.find(name);
  if (it == attrs_.end()) {
    throw std::out_of_range("attribute " + name + " missing in the block at line " +
                            std::to_string(line));
  }
  consumed_.insert(name);
  return it->second;
}

std::vector<std::string> FileTestCase::unconsumed() const {
  std::vector<std::string> out;
  for (const auto &kv : attrs_) {
    if (!consumed_.count(kv.first)) out.push_back(kv.first);
  }
  return out;
}

namespace {
std::string trim(const std::string &s) {
  size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  size_t e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}
}  // namespace

std::vector<FileTestCase> parse_file_tests(const std::string &name) {
  std::ifstream in(vector_path(name));
  std::vector<FileTestCase> out;
  FileTestCase cur;
  bool open = false;
  std::string raw;
  int lineno = 0;
  auto where = [&] { return name + ":" + std::to_string(lineno) + ": "; };
  while (std::getline(in, raw)) {
    ++lineno;
    std::string line = trim(raw);
    if (line.empty()) {
      if (open) out.push_back(std::move(cur));
      cur = FileTestCase();
      open = false;
      continue;
    }
    if (line[0] == '#') continue;
    if (line[0] == '[') throw std::runtime_error(where() + "instruction lines are not supported");
    // `NAME: value` (AEAD files) or `NAME = value` (Poly1305 file): split at the first of either.
    size_t colon = line.find(':'), eq = line.find('=');
    size_t sep = std::min(colon, eq);
    if (sep == std::string::npos) throw std::runtime_error(where() + "no ':' or '=' in '" + line + "'");
    std::string key = trim(line.substr(0, sep));
    std::string value = trim(line.substr(sep + 1));
    Bytes bytes;
    if (!value.empty() && value.front() == '"') {
      if (value.size() < 2 || value.back() != '"') {
        throw std::runtime_error(where() + "unterminated string");
      }
      std::string text = value.substr(1, value.size() - 2);
      if (text.find('\\') != std::string::npos) {
        throw std::runtime_error(where() + "escapes in quoted strings are not supported");
      }
      bytes.assign(text.begin(), text.end());
    } else {
      bytes = from_hex(value);
    }
    if (cur.has(key)) throw std::runtime_error(where() + "attribute " + key + " repeated");
    if (!open) cur.line = lineno;
    cur.set(key, std::move(bytes));
    open = true;
  }
  if (open) out.push_back(std::move(cur));
  return out;
}

}  // namespace chapoly::test
