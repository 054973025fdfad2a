#pragma once
// Writing a file so that a crash, a full disk or a power cut mid-save never leaves a
// truncated one: the bytes go to a temporary file in the same folder, are flushed to the
// disk, and only then renamed over the old file (rename is atomic within a file system).
#include <optional>
#include <string>
#include <string_view>

namespace articula {

// nullopt on success. Otherwise a message naming the file and the reason (the system's
// words: "No space left on device", "Not a directory", ...); the old file, if any, is then
// exactly as it was and no temporary file is left behind.
std::optional<std::string> writeFileAtomically(const std::string& path, std::string_view bytes);

// The whole file, or a message naming it.
std::optional<std::string> readWholeFile(const std::string& path, std::string& bytes);

}  // namespace articula
