#include "core/io/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace articula {
namespace {

std::string failure(const std::string& path, const char* what, int error) {
  std::string message = "cannot save '" + path + "': " + what + ": ";
  message += std::strerror(error);
  return message;
}

bool writeAll(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t written = ::write(fd, bytes.data(), bytes.size());
    if (written < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    bytes.remove_prefix(static_cast<std::size_t>(written));
  }
  return true;
}

}  // namespace

std::optional<std::string> writeFileAtomically(const std::string& path, std::string_view bytes) {
  const std::filesystem::path target(path);
  const std::filesystem::path folder = target.has_parent_path() ? target.parent_path() : std::filesystem::path(".");
  // mkstemp names the temporary file uniquely beside the target, so the rename stays on one
  // file system and two saves never share a temporary.
  std::string temporary = (folder / ("." + target.filename().string() + ".saving-XXXXXX")).string();
  const int fd = ::mkstemp(temporary.data());
  if (fd < 0) return failure(path, "creating a temporary file", errno);

  auto abandon = [&](const char* what) {
    const int error = errno;
    ::close(fd);
    ::unlink(temporary.c_str());
    return failure(path, what, error);
  };
  if (!writeAll(fd, bytes)) return abandon("writing");
  if (::fsync(fd) != 0) return abandon("flushing to disk");
  // mkstemp makes the file private (0600): give it the old file's permissions, or the usual
  // ones for a new document.
  struct stat old {};
  ::fchmod(fd, ::stat(path.c_str(), &old) == 0 ? (old.st_mode & 07777) : 0644);
  if (::close(fd) != 0) {
    const int error = errno;
    ::unlink(temporary.c_str());
    return failure(path, "closing", error);
  }
  if (::rename(temporary.c_str(), path.c_str()) != 0) {
    const int error = errno;
    ::unlink(temporary.c_str());
    return failure(path, "replacing the old file", error);
  }
  // The rename itself is durable once the folder's entry is on disk.
  const int folderFd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY);
  if (folderFd >= 0) {
    ::fsync(folderFd);
    ::close(folderFd);
  }
  return std::nullopt;
}

std::optional<std::string> readWholeFile(const std::string& path, std::string& bytes) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error)) return "'" + path + "': no such file";
  std::ifstream file(path, std::ios::binary);
  if (!file) return "'" + path + "': cannot be opened";
  std::ostringstream contents;
  contents << file.rdbuf();
  if (file.bad()) return "'" + path + "': cannot be read";
  bytes = std::move(contents).str();
  return std::nullopt;
}

}  // namespace articula
