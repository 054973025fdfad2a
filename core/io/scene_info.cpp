#include "core/io/scene_info.h"

#include <nlohmann/json.hpp>

#include <set>
#include <sstream>

namespace articula {

namespace {

const char* kindLabel(NodeKind kind) {
  switch (kind) {
    case NodeKind::Joint: return "joint";
    case NodeKind::Transform: return "node";
    case NodeKind::Tip: return "tip";
  }
  return "node";
}

const char* curveInterpolationName(Interpolation i) {
  switch (i) {
    case Interpolation::Constant: return "constant";
    case Interpolation::Linear: return "linear";
    case Interpolation::Bezier: return "bezier";
  }
  return "linear";
}

const char* rotationInterpolationName(RotationInterpolation i) {
  switch (i) {
    case RotationInterpolation::Step: return "step";
    case RotationInterpolation::Slerp: return "slerp";
    case RotationInterpolation::Bezier: return "bezier";
    case RotationInterpolation::CubicSpline: return "cubicspline";
  }
  return "slerp";
}

struct ClipStats {
  std::size_t channels = 0;
  std::size_t keys = 0;
  std::set<std::string> interpolations;
};

void addCurve(const Curve& curve, ClipStats& stats) {
  if (curve.empty()) return;
  ++stats.channels;
  stats.keys += curve.size();
  // The last key's interpolation governs no segment, unless it is the only key.
  const auto& keys = curve.keys();
  const std::size_t segments = keys.size() > 1 ? keys.size() - 1 : 1;
  for (std::size_t i = 0; i < segments; ++i) stats.interpolations.insert(curveInterpolationName(keys[i].interpolation));
}

ClipStats clipStats(const Clip& clip) {
  ClipStats stats;
  for (const JointTrack& track : clip.tracks) {
    for (const Vec3Track* v : {&track.translation, &track.scale}) {
      addCurve(v->x, stats);
      addCurve(v->y, stats);
      addCurve(v->z, stats);
    }
    if (!track.rotation.empty()) {
      ++stats.channels;
      stats.keys += track.rotation.size();
      const auto& keys = track.rotation.keys();
      const std::size_t segments = keys.size() > 1 ? keys.size() - 1 : 1;
      for (std::size_t i = 0; i < segments; ++i) stats.interpolations.insert(rotationInterpolationName(keys[i].interpolation));
    }
  }
  for (const MorphWeightsTrack& morph : clip.morphWeights) {
    for (const Curve& c : morph.weights) addCurve(c, stats);
  }
  for (const auto& [name, curve] : clip.curves) addCurve(curve, stats);
  return stats;
}

std::vector<std::string> jointNames(const Skeleton& skeleton) {
  std::vector<std::string> names;
  for (int j = 0; j < skeleton.jointCount(); ++j) {
    if (skeleton.kind(j) == NodeKind::Joint) names.push_back(skeleton.name(j));
  }
  return names;
}

void printTree(const Skeleton& skeleton, int joint, int depth, std::ostringstream& out) {
  for (int child : skeleton.children(joint)) {
    out << std::string(static_cast<std::size_t>(2 * depth + 2), ' ') << skeleton.name(child);
    if (skeleton.kind(child) != NodeKind::Joint) out << " (" << kindLabel(skeleton.kind(child)) << ")";
    out << '\n';
    printTree(skeleton, child, depth + 1, out);
  }
}

}  // namespace

std::string sceneInfoText(const Scene& scene) {
  std::ostringstream out;
  const Skeleton& skeleton = scene.skeleton;
  out << scene.sourcePath << '\n';
  out << "joints: " << skeleton.boneCount() << " in " << scene.skeletonCount() << " skeleton(s), " << skeleton.jointCount()
      << " nodes\n";
  printTree(skeleton, kNoParent, 0, out);
  out << "meshes: " << scene.meshes.size() << '\n';
  for (const Mesh& mesh : scene.meshes) {
    out << "  " << mesh.name << ": " << mesh.vertexCount() << " vertices, " << mesh.indices.size() / 3 << " triangles";
    if (mesh.hasSkin) {
      out << ", skinned to " << mesh.skin.joints.size() << " joints, up to " << mesh.maxInfluences()
          << " influences per vertex";
    }
    if (!mesh.morphTargets.empty()) out << ", " << mesh.morphTargets.size() << " morph targets";
    out << '\n';
  }
  out << "clips: " << scene.clips.size() << '\n';
  for (const Clip& clip : scene.clips) {
    const ClipStats stats = clipStats(clip);
    out << "  " << clip.name << ": " << clip.duration() << " s, " << clip.frameCount() << " frames at " << clip.frameRate
        << " fps, " << stats.channels << " channels, " << stats.keys << " keys (";
    bool first = true;
    for (const auto& kind : stats.interpolations) {
      out << (first ? "" : ", ") << kind;
      first = false;
    }
    out << ")\n";
  }
  return out.str();
}

std::string sceneInfoJson(const Scene& scene) {
  using nlohmann::json;
  const Skeleton& skeleton = scene.skeleton;
  json root;
  root["file"] = scene.sourcePath;
  root["joints"] = skeleton.boneCount();
  root["jointNames"] = jointNames(skeleton);
  root["skeletons"] = scene.skeletonCount();
  json nodes = json::array();
  for (int j = 0; j < skeleton.jointCount(); ++j) {
    nodes.push_back({{"name", skeleton.name(j)}, {"parent", skeleton.parent(j)}, {"kind", kindLabel(skeleton.kind(j))}});
  }
  root["nodes"] = std::move(nodes);
  json meshes = json::array();
  for (const Mesh& mesh : scene.meshes) {
    meshes.push_back({{"name", mesh.name},
                      {"vertices", mesh.vertexCount()},
                      {"triangles", mesh.indices.size() / 3},
                      {"skinned", mesh.hasSkin},
                      {"skinJoints", mesh.hasSkin ? mesh.skin.joints.size() : 0},
                      {"influencesPerVertex", mesh.maxInfluences()},
                      {"morphTargets", mesh.morphTargets.size()}});
  }
  root["meshes"] = std::move(meshes);
  json clips = json::array();
  for (const Clip& clip : scene.clips) {
    const ClipStats stats = clipStats(clip);
    clips.push_back({{"name", clip.name},
                     {"duration", clip.duration()},
                     {"start", clip.startTime},
                     {"end", clip.endTime},
                     {"frameRate", clip.frameRate},
                     {"frameCount", clip.frameCount()},
                     {"channelCount", stats.channels},
                     {"keyCount", stats.keys},
                     {"interpolations", stats.interpolations},
                     {"curves", [&] {
                        std::vector<std::string> names;
                        for (const auto& [name, curve] : clip.curves) names.push_back(name);
                        return names;
                      }()}});
  }
  root["clips"] = std::move(clips);
  return root.dump(2);
}

}  // namespace articula
