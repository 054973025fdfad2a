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

std::filesystem::path folderOf(const std::string& path) {
  const std::filesystem::path target(path);
  return target.has_parent_path() ? target.parent_path() : std::filesystem::path(".");
}

// A file's bytes written and flushed to a temporary beside it, not yet renamed.
struct StagedFile {
  std::string path;
  std::string temporary;
};

// Writes `file` to a new temporary beside it. On failure the temporary is gone and
// `staged.temporary` is empty.
std::optional<std::string> stage(const FileToWrite& file, StagedFile& staged) {
  const std::filesystem::path target(file.path);
  // mkstemp names the temporary file uniquely beside the target, so the rename stays on one
  // file system and two saves never share a temporary.
  std::string temporary = (folderOf(file.path) / ("." + target.filename().string() + ".saving-XXXXXX")).string();
  const int fd = ::mkstemp(temporary.data());
  if (fd < 0) return failure(file.path, "creating a temporary file", errno);

  auto abandon = [&](const char* what) {
    const int error = errno;
    ::close(fd);
    ::unlink(temporary.c_str());
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
    return failure(file.path, "closing", error);
  }
  staged = {file.path, std::move(temporary)};
  return std::nullopt;
}

void removeTemporaries(std::span<const StagedFile> staged) {
  for (const StagedFile& file : staged) ::unlink(file.temporary.c_str());
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
      removeTemporaries(std::span<const StagedFile>(staged).subspan(i));
      return failure(staged[i].path, "replacing the old file", error);
    }
  }
  for (const StagedFile& file : staged) syncFolder(folderOf(file.path));
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
