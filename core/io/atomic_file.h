#pragma once
// Writing a file so that a crash, a full disk or a power cut mid-save never leaves a
// truncated one: the bytes go to a temporary file in the same folder, are flushed to the
// disk, and only then renamed over the old file (rename is atomic within a file system).
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace articula {

// nullopt on success. Otherwise a message naming the file and the reason (the system's
// words: "No space left on device", "Not a directory", ...); the old file, if any, is then
// exactly as it was and no temporary file is left behind. While the bytes are written the
// temporary is locked (flock), so removeAbandonedTemporaries tells it from a killed save's.
std::optional<std::string> writeFileAtomically(const std::string& path, std::string_view bytes);

// One file of a group written by writeFilesAtomically, its bytes given in parts (a GLB's
// header, JSON and binary chunks) so nothing is copied to join them.
struct FileToWrite {
  std::string path;
  std::vector<std::string_view> parts;
};

// Several files that belong together (a .gltf with its .bin and images): each is written to
// a temporary beside it and flushed to disk, and only when all are safely there are they
// renamed into place, in the order given (put the file that names the others last, so it
// never points at files older than itself). nullopt on success, otherwise a message naming
// the file at fault; every temporary is then removed and, when the failure came before the
// renames (a full disk, a missing permission), every old file is exactly as it was. POSIX
// has no rename of several files at once: a crash between two renames leaves the files
// already renamed new and the rest old.
std::optional<std::string> writeFilesAtomically(std::span<const FileToWrite> files);

// Removes the temporaries a save of `path` left behind when its process was killed
// (".NAME.saving-XXXXXX" beside it): a save in progress holds a lock on its temporary, so
// only the abandoned ones go, never another process's live one (nor one created in the last
// two seconds, which may not be locked yet). Every save does this first; opening a project
// does it too. Returns how many were removed.
int removeAbandonedTemporaries(const std::string& path);

// Writes every byte to the descriptor (a file or a pipe), retrying short and interrupted
// writes; false with errno set when the system refuses.
bool writeAllBytes(int fd, std::string_view bytes);

// The whole file, or a message naming it.
std::optional<std::string> readWholeFile(const std::string& path, std::string& bytes);

}  // namespace articula
