#include "core/io/import.h"

#include <algorithm>
#include <array>
#include <filesystem>
#include <new>
#include <optional>

#include "core/io/collada_limits.h"

namespace articula {

namespace {
constexpr std::array<const char*, 14> kExtensions = {
    ".gltf", ".glb", ".fbx", ".dae", ".bvh", ".obj", ".3ds", ".blend", ".x", ".ms3d", ".md5mesh", ".smd", ".ply", ".stl"};

std::string lowerExtension(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return ext;
}
}  // namespace

std::span<const char* const> importableExtensions() { return kExtensions; }

std::string importErrorLine(const std::string& path, std::string_view reason) {
  std::string line = path + ": ";
  constexpr std::string_view kEllipsis = "...";
  const std::size_t room = kMaxImportErrorLength - 1 > line.size() ? kMaxImportErrorLength - 1 - line.size() : 0;
  const bool shortened = reason.size() > room;
  const std::string_view kept = shortened ? reason.substr(0, room > kEllipsis.size() ? room - kEllipsis.size() : 0) : reason;
  for (const char c : kept) line += (c == '\n' || c == '\r') ? ' ' : c;
  if (shortened) line += kEllipsis;
  return line;
}

Result<Scene> importScene(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return makeError(path + ": the file does not exist");
  if (std::filesystem::is_directory(path, ec)) return makeError(path + ": is a folder, not a file");
  const std::string ext = lowerExtension(path);
  // Our readers size their allocations from the file's counts, checked against the bytes
  // present; a file large enough to exhaust memory anyway is named, not thrown out of core/.
  try {
    if (ext == ".gltf" || ext == ".glb") return importGltf(path);
    if (ext == ".bvh") return importBvh(path);
    if (ext == ".dae") {
      if (const std::optional<std::string> refusal = colladaRefusal(path))
        return makeError(importErrorLine(path, *refusal));
    }
    return importWithAssimp(path);
  } catch (const std::bad_alloc&) {
    return makeError(importErrorLine(path, "too large: reading it needs more memory than is available"));
  }
}

}  // namespace articula
