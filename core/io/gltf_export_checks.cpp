#include "core/io/gltf_export_checks.h"

#include <cmath>
#include <iomanip>
#include <limits>
#include <sstream>
#include <unordered_set>
#include "core/util/message_text.h"

namespace articula {
namespace {

using Status = std::optional<std::string>;

constexpr double kFloatMax = std::numeric_limits<float>::max();
// An inverse bind matrix maps model space to a joint's bind space: its last row is (0 0 0 1)
// and its linear part is invertible. Below this determinant the joint's bind space is flat.
constexpr float kMinBindDeterminant = 1e-12f;
constexpr float kLastRowTolerance = 1e-5f;

// Finite and inside float range: what a glTF float accessor can hold.
bool fitsFloat(double value) { return std::isfinite(value) && std::abs(value) <= kFloatMax; }

// A time in six significant digits: std::to_string writes 1e308 with 309 digits, a message
// far past one line.
std::string secondsText(double seconds) {
  std::ostringstream text;
  text << std::setprecision(6) << seconds;
  return text.str();
}

std::string nodeName(const Scene& scene, int node) { return "node '" + shortName(scene.skeleton.name(node)) + "'"; }

Status checkCurve(const Curve& curve, const std::string& where) {
  for (std::size_t k = 0; k < curve.keys().size(); ++k) {
    const CurveKey& key = curve.keys()[k];
    const std::string at = where + " key " + std::to_string(k);
    if (!(std::abs(key.time) <= kMaxExportKeyTimeSeconds)) {
      return at + ": time " + secondsText(key.time) + " s is outside +-" +
             std::to_string(static_cast<long>(kMaxExportKeyTimeSeconds)) + " s";
    }
    if (!fitsFloat(key.value) || !fitsFloat(key.left.y()) || !fitsFloat(key.right.y())) {
      return at + ": a value or handle beyond the float range";
    }
  }
  return std::nullopt;
}

Status checkVec3Track(const Vec3Track& track, const std::string& where) {
  for (const auto* axis : {&track.x, &track.y, &track.z}) {
    if (Status error = checkCurve(*axis, where)) return error;
  }
  return std::nullopt;
}

Status checkClip(const Scene& scene, const Clip& clip) {
  const std::string where = "clip '" + shortName(clip.name) + "'";
  for (const JointTrack& track : clip.tracks) {
    const std::string node = where + ", " + nodeName(scene, track.joint);
    if (Status error = checkVec3Track(track.translation, node + " translation")) return error;
    if (Status error = checkVec3Track(track.scale, node + " scale")) return error;
    for (std::size_t k = 0; k < track.rotation.keys().size(); ++k) {
      const double time = track.rotation.keys()[k].time;
      if (!(std::abs(time) <= kMaxExportKeyTimeSeconds)) {
        return node + " rotation key " + std::to_string(k) + ": time " + secondsText(time) + " s is outside +-" +
               std::to_string(static_cast<long>(kMaxExportKeyTimeSeconds)) + " s";
      }
    }
  }
  for (const MorphWeightsTrack& track : clip.morphWeights) {
    for (const Curve& curve : track.weights) {
      if (Status error = checkCurve(curve, where + ", morph weights of mesh " + std::to_string(track.mesh))) return error;
    }
  }
  for (const auto& [name, curve] : clip.curves) {
    if (Status error = checkCurve(curve, where + ", curve '" + shortName(name) + "'")) return error;
  }
  return std::nullopt;
}

Status checkInverseBindMatrix(const Scene& scene, const Mat4& m, int joint, const std::string& mesh) {
  const std::string where = mesh + ": the inverse bind matrix of " + nodeName(scene, joint);
  if (!m.allFinite()) return where + " is not finite";
  const bool affine = std::abs(m(3, 0)) <= kLastRowTolerance && std::abs(m(3, 1)) <= kLastRowTolerance &&
                      std::abs(m(3, 2)) <= kLastRowTolerance && std::abs(m(3, 3) - 1.0f) <= kLastRowTolerance;
  if (!affine) return where + " has a last row other than (0 0 0 1)";
  if (!(std::abs(m.topLeftCorner<3, 3>().determinant()) > kMinBindDeterminant)) return where + " is not invertible";
  return std::nullopt;
}

Status checkMesh(const Scene& scene, std::size_t index) {
  const Mesh& mesh = scene.meshes[index];
  const std::string where =
      "mesh " + std::to_string(index) + (mesh.name.empty() ? "" : " ('" + shortName(mesh.name) + "')");
  for (const Vec2& uv : mesh.texCoords) {
    if (!uv.allFinite()) return where + ": a texture coordinate is not finite";
  }
  for (const float weight : mesh.morphWeights) {
    if (!std::isfinite(weight)) return where + ": a default morph weight is not finite";
  }
  for (const Vec3& normal : mesh.normals) {
    // Finite components whose length overflows: the writer's normalising would write (0 0 0).
    if (!std::isfinite(normal.norm())) return where + ": a normal is too long to normalise in float";
  }
  if (!mesh.hasSkin) return std::nullopt;
  std::unordered_set<int> skinned;
  for (const int joint : mesh.skin.joints) {
    // glTF forbids it (the validator's DUPLICATE_ELEMENTS); importScene merges repeats.
    if (!skinned.insert(joint).second) return where + ": the skin lists " + nodeName(scene, joint) + " twice";
  }
  const std::size_t count = std::min(mesh.skin.joints.size(), mesh.skin.inverseBindMatrices.size());
  for (std::size_t j = 0; j < count; ++j) {
    if (Status error = checkInverseBindMatrix(scene, mesh.skin.inverseBindMatrices[j], mesh.skin.joints[j], where)) {
      return error;
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> findUnwritableValue(const Scene& scene) {
  for (std::size_t m = 0; m < scene.materials.size(); ++m) {
    if (!scene.materials[m].baseColor.allFinite()) {
      return "material '" + shortName(scene.materials[m].name) + "': the base colour is not finite";
    }
  }
  for (std::size_t m = 0; m < scene.meshes.size(); ++m) {
    if (Status error = checkMesh(scene, m)) return error;
  }
  for (const Clip& clip : scene.clips) {
    if (Status error = checkClip(scene, clip)) return error;
  }
  return std::nullopt;
}

}  // namespace articula
