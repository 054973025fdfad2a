#include "core/io/scene_info.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

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

// Indentation stops growing here; deeper lines say their depth instead, so a chain of the
// BVH reader's 100,000 joints prints in lines of bounded length.
constexpr int kMaxIndentedDepth = 64;

// The node forest depth-first, children in index order, each node on its own line indented
// by its depth. Children lists built once and an explicit stack: Skeleton::children scans
// every node (quadratic over the tree) and recursion overflows the stack on a long chain.
void printTree(const Skeleton& skeleton, std::ostringstream& out) {
  const auto count = static_cast<std::size_t>(skeleton.jointCount());
  std::vector<std::vector<int>> children(count);
  std::vector<int> roots;
  for (int j = 0; j < skeleton.jointCount(); ++j) {
    const int parent = skeleton.parent(j);
    (parent == kNoParent ? roots : children[static_cast<std::size_t>(parent)]).push_back(j);
  }
  std::vector<std::pair<int, int>> stack;  // (node, depth), the next node to print at the back
  for (auto root = roots.rbegin(); root != roots.rend(); ++root) stack.emplace_back(*root, 0);
  while (!stack.empty()) {
    const auto [joint, depth] = stack.back();
    stack.pop_back();
    out << std::string(static_cast<std::size_t>(2 * std::min(depth, kMaxIndentedDepth) + 2), ' ');
    if (depth > kMaxIndentedDepth) out << "(depth " << depth << ") ";
    out << skeleton.name(joint);
    if (skeleton.kind(joint) != NodeKind::Joint) out << " (" << kindLabel(skeleton.kind(joint)) << ")";
    out << '\n';
    const std::vector<int>& kids = children[static_cast<std::size_t>(joint)];
    for (auto child = kids.rbegin(); child != kids.rend(); ++child) stack.emplace_back(*child, depth + 1);
  }
}

}  // namespace

std::string sceneInfoText(const Scene& scene) {
  std::ostringstream out;
  const Skeleton& skeleton = scene.skeleton;
  out << scene.sourcePath << '\n';
  out << "joints: " << skeleton.boneCount() << " in " << scene.skeletonCount() << " skeleton(s), " << skeleton.jointCount()
      << " nodes\n";
  printTree(skeleton, out);
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

std::string sceneInfoJson(const Scene& scene, const std::vector<std::string>& warnings) {
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
  root["warnings"] = warnings;
  // A name that is not UTF-8 (a file's binary bytes) is written with U+FFFD in its place
  // rather than failing the whole report.
  return root.dump(2, ' ', false, json::error_handler_t::replace);
}

}  // namespace articula
