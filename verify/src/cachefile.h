// cachefile.h: the files of the verifier's caches (--proof-cache entries, reuse.h; --query-cache
// answers, answers.h): read only when they are what they should be, written whole or not at all.
#pragma once

#include <optional>
#include <string>

namespace cv {

/// The bytes of `path` when it is a regular file, not reached through a symlink (O_NOFOLLOW),
/// of at most `maxBytes`, read whole; a FIFO is never waited on (O_NONBLOCK, then refused as not
/// regular). std::nullopt for anything else.
std::optional<std::string> readCacheFile(const std::string &path, size_t maxBytes);

/// Writes `text` to `path`: to a fresh name beside it first (mkstemp: O_CREAT | O_EXCL, never a
/// planted symlink), with the mode a new file gets under the umask, then renamed over `path`, so
/// a reader sees the old file or the whole new one. False (and nothing left behind) on any error.
bool writeCacheFile(const std::string &path, const std::string &text);

}  // namespace cv
