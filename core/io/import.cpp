#include "core/io/import.h"

#include <algorithm>
#include <array>
#include <filesystem>
#include <new>
#include <optional>

#include "core/io/collada_limits.h"
#include "core/io/mesh_repair.h"
#include "core/util/message_text.h"

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
  return printableLine(path + ": " + jsonErrorInOurWords(reason), kMaxImportErrorLength - 1);
}

namespace {

// Every reader's meshes repaired the same way (mesh_repair.h), each repair said once.
Result<Scene> repaired(Result<Scene> scene, const std::string& path, std::vector<std::string>* repairs) {
  if (!scene) return scene;
  std::vector<std::string> unseen;
  std::vector<std::string>& said = repairs != nullptr ? *repairs : unseen;
  for (std::size_t m = 0; m < scene->meshes.size(); ++m) {
    Mesh& mesh = scene->meshes[m];
    const std::string where = "mesh " + std::to_string(m) + " ('" + shortName(mesh.name) + "')";
    int merged = 0;
    if (mesh.hasSkin) {
      if (auto refusal = mergeDuplicateSkinJoints(mesh.skin, scene->skeleton, merged))
        return makeError(importErrorLine(path, where + ": " + *refusal));
    }
    if (merged > 0)
      said.push_back(where + ": its skin listed " + std::to_string(merged) +
                     " joint(s) twice; merged into their first entry");
    if (const int normals = repairNormals(mesh)) {
      said.push_back(where + ": " + std::to_string(normals) +
                     " normal(s) of zero length or not finite; recomputed from the faces");
    }
  }
  return scene;
}

Result<Scene> importByExtension(const std::string& path) {
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

}  // namespace

Result<Scene> importScene(const std::string& path, std::vector<std::string>* repairs) {
  return repaired(importByExtension(path), path, repairs);
}

}  // namespace articula
