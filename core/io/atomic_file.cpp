#include "core/io/atomic_file.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>
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

std::filesystem::path folderOf(const std::string& path) {
  const std::filesystem::path target(path);
  return target.has_parent_path() ? target.parent_path() : std::filesystem::path(".");
}

constexpr std::string_view kTemporaryInfix = ".saving-";
constexpr std::size_t kMkstempSuffix = 6;  // the XXXXXX mkstemp replaces
constexpr time_t kLockGapSeconds = 2;

std::string temporaryPrefix(const std::string& path) {
  return "." + std::filesystem::path(path).filename().string() + std::string(kTemporaryInfix);
}

// A file's bytes written and flushed to a temporary beside it, not yet renamed. `lockFd`
// holds the temporary's lock until the rename is done (or the temporary removed).
struct StagedFile {
  std::string path;
  std::string temporary;
  int lockFd = -1;
};

void release(StagedFile& file) {
  if (file.lockFd >= 0) ::close(file.lockFd);
  file.lockFd = -1;
}

// Writes `file` to a new temporary beside it. On failure the temporary is gone and
// `staged.temporary` is empty.
std::optional<std::string> stage(const FileToWrite& file, StagedFile& staged) {
  const std::filesystem::path target(file.path);
  // mkstemp names the temporary file uniquely beside the target, so the rename stays on one
  // file system and two saves never share a temporary.
  std::string temporary = (folderOf(file.path) / (temporaryPrefix(file.path) + "XXXXXX")).string();
  const int fd = ::mkstemp(temporary.data());
  if (fd < 0) return failure(file.path, "creating a temporary file", errno);
  // Locked at once, so a save starting now never takes it for a killed save's temporary;
  // the lock is on a second descriptor that stays open until the rename.
  const int lockFd = ::open(temporary.c_str(), O_RDONLY | O_CLOEXEC);
  if (lockFd >= 0) ::flock(lockFd, LOCK_EX);

  auto abandon = [&](const char* what) {
    const int error = errno;
    ::close(fd);
    ::unlink(temporary.c_str());
    if (lockFd >= 0) ::close(lockFd);
    return failure(file.path, what, error);
  };
  for (std::string_view part : file.parts) {
    if (!writeAllBytes(fd, part)) return abandon("writing");
  }
  if (::fsync(fd) != 0) return abandon("flushing to disk");
  // mkstemp makes the file private (0600): give it the old file's permissions, or the usual
  // ones for a new document.
  struct stat old {};
  ::fchmod(fd, ::stat(file.path.c_str(), &old) == 0 ? (old.st_mode & 07777) : 0644);
  if (::close(fd) != 0) {
    const int error = errno;
    ::unlink(temporary.c_str());
    if (lockFd >= 0) ::close(lockFd);
    return failure(file.path, "closing", error);
  }
  staged = {file.path, std::move(temporary), lockFd};
  return std::nullopt;
}

void removeTemporaries(std::span<StagedFile> staged) {
  for (StagedFile& file : staged) {
    ::unlink(file.temporary.c_str());
    release(file);
  }
}

// The renames themselves are durable once the folder's entries are on disk.
void syncFolder(const std::filesystem::path& folder) {
  const int folderFd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY);
  if (folderFd >= 0) {
    ::fsync(folderFd);
    ::close(folderFd);
  }
}

}  // namespace

int removeAbandonedTemporaries(const std::string& path) {
  const std::string prefix = temporaryPrefix(path);
  std::error_code error;
  int removed = 0;
  for (const auto& entry : std::filesystem::directory_iterator(folderOf(path), error)) {
    const std::string name = entry.path().filename().string();
    if (name.size() != prefix.size() + kMkstempSuffix || name.rfind(prefix, 0) != 0) continue;
    const int fd = ::open(entry.path().c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) continue;
    // The lock is free only when no save holds it: the process that wrote it is gone. A
    // save locks its temporary microseconds after creating it; one created in the last
    // seconds may be in that gap and is left alone.
    struct stat status {};
    const bool old = ::fstat(fd, &status) == 0 && status.st_mtime + kLockGapSeconds < ::time(nullptr);
    if (old && ::flock(fd, LOCK_EX | LOCK_NB) == 0 && ::unlink(entry.path().c_str()) == 0) ++removed;
    ::close(fd);
  }
  return removed;
}

bool writeAllBytes(int fd, std::string_view bytes) {
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

std::optional<std::string> writeFilesAtomically(std::span<const FileToWrite> files) {
  std::vector<StagedFile> staged;
  staged.reserve(files.size());
  for (const FileToWrite& file : files) {
    removeAbandonedTemporaries(file.path);
    StagedFile one;
    if (std::optional<std::string> error = stage(file, one)) {
      removeTemporaries(staged);
      return error;
    }
    staged.push_back(std::move(one));
  }
  for (std::size_t i = 0; i < staged.size(); ++i) {
    if (::rename(staged[i].temporary.c_str(), staged[i].path.c_str()) != 0) {
      const int error = errno;
      for (std::size_t done = 0; done < i; ++done) release(staged[done]);
      removeTemporaries(std::span<StagedFile>(staged).subspan(i));
      return failure(staged[i].path, "replacing the old file", error);
    }
  }
  for (StagedFile& file : staged) {
    release(file);
    syncFolder(folderOf(file.path));
  }
  return std::nullopt;
}

std::optional<std::string> writeFileAtomically(const std::string& path, std::string_view bytes) {
  const FileToWrite file{path, {bytes}};
  return writeFilesAtomically(std::span<const FileToWrite>(&file, 1));
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
