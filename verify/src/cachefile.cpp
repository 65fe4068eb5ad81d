// cachefile.cpp: see cachefile.h.
#include "cachefile.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>

namespace cv {

std::optional<std::string> readCacheFile(const std::string &path, size_t maxBytes) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  struct stat st {};
  std::optional<std::string> text;
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (size_t)st.st_size <= maxBytes) {
    std::string buf((size_t)st.st_size, '\0');
    size_t got = 0;
    while (got < buf.size()) {
      const ssize_t n = ::read(fd, buf.data() + got, buf.size() - got);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      got += (size_t)n;
    }
    if (got == buf.size()) text = std::move(buf);
  }
  ::close(fd);
  return text;
}

bool writeCacheFile(const std::string &path, const std::string &text) {
  std::string tmp = path + ".XXXXXX";
  const int fd = ::mkstemp(tmp.data());
  if (fd < 0) return false;
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    done += (size_t)n;
  }
  const mode_t mask = ::umask(0);
  ::umask(mask);
  const bool ok = done == text.size() && ::fchmod(fd, 0666 & ~mask) == 0;  // (mkstemp made it 0600)
  if (::close(fd) != 0 || !ok || std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    return false;
  }
  return true;
}

}  // namespace cv
