#include "fuzz_entry_points.h"

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>

#include "core/io/gltf_export.h"
#include "core/io/import.h"
#include "core/project/project_file.h"
#include "core/skeleton/local_to_model.h"

namespace articula::fuzz {
namespace {

[[noreturn]] void broken(const std::string& what) {
  std::fprintf(stderr, "fuzz invariant broken: %s\n", what.c_str());
  std::abort();
}

std::string_view asText(std::span<const std::uint8_t> bytes) {
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

// What every importer promises on success: a valid node forest, clips that validate against
// it and sample without reading outside the pose, meshes and skins indexing what exists.
void checkScene(const Scene& scene) {
  if (std::optional<std::string> error = scene.skeleton.validate()) broken("skeleton: " + *error);
  const int jointCount = scene.skeleton.jointCount();
  for (const Clip& clip : scene.clips) {
    if (std::optional<std::string> error = clip.validate(jointCount)) broken("clip '" + clip.name + "': " + *error);
    Pose localPose(scene.skeleton.restPose().begin(), scene.skeleton.restPose().end());
    ClipSampler sampler(&clip);
    sampler.sample(clip.startTime, localPose);
    sampler.sample(0.5 * (clip.startTime + clip.endTime), localPose);
    sampler.sample(clip.endTime, localPose);
  }
  for (const Mesh& mesh : scene.meshes) {
    if (mesh.node < -1 || mesh.node >= jointCount) broken("mesh '" + mesh.name + "': node out of range");
    for (const std::uint32_t index : mesh.indices) {
      if (index >= mesh.positions.size()) broken("mesh '" + mesh.name + "': index past the vertices");
    }
    if (!mesh.hasSkin) continue;
    for (const int joint : mesh.skin.joints) {
      if (joint < 0 || joint >= jointCount) broken("mesh '" + mesh.name + "': skin joint out of range");
    }
    for (const std::uint16_t slot : mesh.skin.vertexJoints) {
      if (slot >= mesh.skin.joints.size()) broken("mesh '" + mesh.name + "': vertex joint past the skin's joints");
    }
  }
  if (!scene.rotationOrders.empty() && scene.rotationOrders.size() != static_cast<std::size_t>(jointCount)) {
    broken("rotationOrders has one entry per node or none");
  }
}

// What a glTF read back promises beyond checkScene: every number the editor computes with is
// finite (the exporter refuses non-finite values instead of writing them).
void checkFinite(const Scene& scene) {
  for (const Transform& rest : scene.skeleton.restPose()) {
    if (!rest.translation.allFinite() || !rest.rotation.coeffs().allFinite() || !rest.scale.allFinite()) {
      broken("a rest pose read back is not finite");
    }
  }
  for (const Mesh& mesh : scene.meshes) {
    for (const Vec3& position : mesh.positions) {
      if (!position.allFinite()) broken("mesh '" + mesh.name + "': a position read back is not finite");
    }
    for (const Mat4& inverseBind : mesh.skin.inverseBindMatrices) {
      if (!inverseBind.allFinite()) broken("mesh '" + mesh.name + "': an inverse bind matrix read back is not finite");
    }
  }
}

// A folder of this process's own for the exports, so a refusal can be seen to leave it empty;
// removed when the process exits.
struct ExportFolder {
  std::filesystem::path path;
  ExportFolder() {
    std::string name = (std::filesystem::temp_directory_path() / "articula_fuzz_export_XXXXXX").string();
    if (::mkdtemp(name.data()) == nullptr) broken("cannot create a temporary folder for the exports");
    path = name;
  }
  ~ExportFolder() {
    std::error_code ignored;
    std::filesystem::remove_all(path, ignored);
  }
  ExportFolder(const ExportFolder&) = delete;
  ExportFolder& operator=(const ExportFolder&) = delete;
};

const std::filesystem::path& exportFolder() {
  static const ExportFolder folder;
  return folder.path;
}

}  // namespace

void readProjectFile(std::span<const std::uint8_t> bytes) {
  const std::string projectPath = std::string(ARTICULA_FUZZ_PROJECT_DIR) + "/fuzz.articula";
  Result<OpenedProject> opened = openProjectFromText(asText(bytes), projectPath);
  if (!opened) {
    if (opened.error().empty()) broken("a refused project without a message");
    return;
  }
  checkScene(opened->scene);
  // Settings the editor uses as they are: every number finite.
  const Project& project = opened->project;
  const ProjectView& view = project.view;
  if (!project.ground.pointModel.allFinite() || !project.ground.normalModel.allFinite()) broken("ground not finite");
  if (!std::isfinite(project.bake.toleranceRelative)) broken("bake.tolerance_relative not finite");
  if (!view.cameraTarget.allFinite() || !std::isfinite(view.cameraDistance) || !std::isfinite(view.cameraYawRad) ||
      !std::isfinite(view.cameraPitchRad)) {
    broken("view.camera not finite");
  }
}

void readBvh(std::span<const std::uint8_t> bytes) {
  Result<Scene> scene = importBvhFromText(asText(bytes), "fuzz.bvh");
  if (!scene) {
    if (scene.error().empty()) broken("a refused BVH without a message");
    return;
  }
  checkScene(*scene);
}

void readGltf(std::span<const std::uint8_t> bytes) {
  Result<Scene> scene = importGltfFromMemory(bytes, std::string(), "fuzz.glb");
  if (!scene) {
    if (scene.error().empty()) broken("a refused glTF without a message");
    return;
  }
  checkScene(*scene);
}

void readAssimp(std::span<const std::uint8_t> bytes) {
  // Assimp picks its reader by extension: FBX by its binary or ASCII header, Collada otherwise.
  const std::string_view text = asText(bytes);
  const bool fbx = text.starts_with("Kaydara FBX Binary") || text.starts_with("; FBX");
  std::string path = (std::filesystem::temp_directory_path() / "articula_fuzz_XXXXXX").string() + (fbx ? ".fbx" : ".dae");
  const int fd = ::mkstemps(path.data(), 4);
  if (fd < 0) broken("cannot create a temporary file for Assimp");
  const bool written = ::write(fd, bytes.data(), bytes.size()) == static_cast<ssize_t>(bytes.size());
  ::close(fd);
  if (!written) broken("cannot write the temporary file for Assimp");
  // Limits that stop a runaway input within seconds, far above what the seeds need.
  AssimpImportLimits limits;
  limits.memoryBytes = std::size_t{64} << 20;
  limits.cpuSeconds = 5;
  limits.wallSeconds = 10;
  Result<Scene> scene = importWithAssimp(path, limits);
  ::unlink(path.c_str());
  if (!scene) {
    if (scene.error().rfind(path + ": ", 0) != 0) broken("a refused Assimp file whose message does not name it");
    if (scene.error().size() >= kMaxImportErrorLength) broken("an Assimp error longer than one line");
    return;
  }
  checkScene(*scene);
}

void exportScene(std::span<const std::uint8_t> bytes) {
  const bool bvh = asText(bytes).starts_with("HIERARCHY");
  Result<Scene> scene =
      bvh ? importBvhFromText(asText(bytes), "fuzz.bvh") : importGltfFromMemory(bytes, std::string(), "fuzz.glb");
  if (!scene) return;  // the readers' own targets check their refusals
  const std::filesystem::path path = exportFolder() / "export.glb";
  if (const std::optional<std::string> refusal = exportGltf(*scene, path.string())) {
    if (refusal->rfind(path.string() + ": ", 0) != 0)
      broken("an export refusal that does not name the file: " + *refusal);
    if (!std::filesystem::is_empty(exportFolder())) broken("a refused export left a file behind");
    return;
  }
  Result<Scene> copy = importGltf(path.string());
  std::filesystem::remove(path);
  if (!copy) broken("an exported file our glTF reader refuses: " + copy.error());
  checkScene(*copy);
  checkFinite(*copy);
}

}  // namespace articula::fuzz
