#include "convention_variants.h"

#include <cctype>
#include <cmath>
#include <iomanip>
#include <set>
#include <sstream>

#include "core/math/euler.h"
#include "core/rig/humanoid_map.h"
#include "core/rig/humanoid_rig.h"
#include "core/skeleton/local_to_model.h"

namespace articula::test {
namespace {

constexpr float kPiF = 3.14159265358979f;

Variant variantOf(const Scene& scene, std::string name) {
  Variant v{std::move(name), scene, 1.0f, {}, true};
  for (int j = 0; j < scene.skeleton.jointCount(); ++j) v.nodeName.push_back(scene.skeleton.name(j));
  return v;
}

// Every key time of a translation or scale track's three curves, sorted.
std::vector<double> keyTimes(const Vec3Track& track) {
  std::set<double> times;
  for (const Curve* c : {&track.x, &track.y, &track.z}) {
    for (const CurveKey& k : c->keys()) times.insert(k.time);
  }
  return {times.begin(), times.end()};
}

// The track as linear keys at `times` of map(value), missing components from `rest`. Exact
// for the linear keys BVH and glTF LINEAR samplers give at shared times.
template <typename Map>
Vec3Track remapped(const Vec3Track& track, const std::vector<double>& times, const Vec3& rest, Map map) {
  std::vector<CurveKey> keys[3];
  for (double t : times) {
    const Vec3 value = map(track.evaluate(t, rest));
    for (int a = 0; a < 3; ++a) {
      CurveKey k;
      k.time = t;
      k.value = value[a];
      k.interpolation = Interpolation::Linear;
      keys[a].push_back(k);
    }
  }
  Vec3Track out;
  out.x.setKeys(keys[0]);
  out.y.setKeys(keys[1]);
  out.z.setKeys(keys[2]);
  return out;
}

// The track with `left * key * right` in place of each key (values, Bézier controls and
// glTF tangents alike: multiplying by unit quaternions is linear and commutes with slerp).
RotationTrack conjugated(const RotationTrack& track, const Quat& left, const Quat& right) {
  std::vector<RotationKey> keys = track.keys();
  for (RotationKey& k : keys) {
    k.value = left * k.value * right;
    k.inControl = left * k.inControl * right;
    k.outControl = left * k.outControl * right;
  }
  RotationTrack out;
  out.setKeys(std::move(keys));
  return out;
}

RotationKey constantKey(double time, const Quat& value) {
  RotationKey k;
  k.time = time;
  k.value = value;
  return k;
}

std::vector<Transform> modelTransforms(const Skeleton& skeleton, std::span<const Transform> local) {
  std::vector<Transform> model(local.size());
  for (int j = 0; j < skeleton.jointCount(); ++j) {
    const auto i = static_cast<std::size_t>(j);
    const int p = skeleton.parent(j);
    model[i] = p == kNoParent ? local[i] : model[static_cast<std::size_t>(p)] * local[i];
  }
  return model;
}

Mat4 rotationMatrix(const Quat& q) {
  Mat4 m = Mat4::Identity();
  m.topLeftCorner<3, 3>() = q.toRotationMatrix();
  return m;
}

// BVH's convention: every joint's frame turned so `pose` (local, in the scene's frames) is the
// rest with every rotation zero; keys, skins and rigid meshes follow, so each joint moves in
// model space as it did.
Scene withPoseAsZeroRest(const Scene& scene, const Pose& pose) {
  const Skeleton& skeleton = scene.skeleton;
  const std::vector<Transform> poseModel = modelTransforms(skeleton, pose);
  auto turn = [&](int j) {  // model rotation of joint j's frame in `pose` (C_j⁻¹)
    return j == kNoParent ? Quat(Quat::Identity()) : poseModel[static_cast<std::size_t>(j)].rotation;
  };
  Scene out = scene;
  for (Clip& clip : out.clips) {
    for (JointTrack& track : clip.tracks) {
      const int j = track.joint;
      const Quat parentTurn = turn(skeleton.parent(j));
      const Transform& rest = skeleton.restLocal(j);
      RotationTrack rotation = track.rotation;
      if (rotation.empty()) rotation.insertKey(constantKey(clip.startTime, rest.rotation));
      track.rotation = conjugated(rotation, parentTurn, turn(j).conjugate());
      if (!track.translation.empty()) {
        track.translation =
            remapped(track.translation, keyTimes(track.translation), rest.translation,
                     [&](const Vec3& t) { return Vec3(parentTurn * t); });
      }
    }
  }
  for (int j = 0; j < skeleton.jointCount(); ++j) {
    const auto i = static_cast<std::size_t>(j);
    const Quat parentTurn = turn(skeleton.parent(j));
    const Transform& rest = skeleton.restLocal(j);
    Transform zero = rest;
    zero.translation = parentTurn * pose[i].translation;
    zero.rotation = Quat::Identity();
    // Channels no clip keys keep their motion: a constant key where the rest moved.
    const Quat heldRotation = (parentTurn * rest.rotation * turn(j).conjugate()).normalized();
    const Vec3 heldTranslation = parentTurn * rest.translation;
    for (Clip& clip : out.clips) {
      JointTrack* track = nullptr;
      for (JointTrack& t : clip.tracks) track = t.joint == j ? &t : track;
      if (std::abs(heldRotation.w()) < 1.0f - 1e-7f && (!track || track->rotation.empty()))
        clip.trackFor(j).rotation.insertKey(constantKey(clip.startTime, heldRotation));
      if ((heldTranslation - zero.translation).norm() > 1e-6f && (!track || track->translation.empty())) {
        Vec3Track& t = clip.trackFor(j).translation;
        t = remapped(Vec3Track{}, {clip.startTime}, heldTranslation, [](const Vec3& v) { return v; });
      }
    }
    out.skeleton.setRestLocal(j, zero);
  }
  for (Mesh& mesh : out.meshes) {
    if (mesh.hasSkin) {
      for (std::size_t k = 0; k < mesh.skin.joints.size(); ++k)
        mesh.skin.inverseBindMatrices[k] = rotationMatrix(turn(mesh.skin.joints[k])) * mesh.skin.inverseBindMatrices[k];
    } else if (mesh.node >= 0) {
      const Quat q = turn(mesh.node);
      for (Vec3& p : mesh.positions) p = q * p;
      for (Vec3& n : mesh.normals) n = q * n;
    }
  }
  return out;
}

HumanoidMap mapOf(const Scene& scene) { return *mapHumanoid(scene.skeleton); }

int rootOf(const Skeleton& skeleton, int joint) {
  while (skeleton.parent(joint) != kNoParent) joint = skeleton.parent(joint);
  return joint;
}

// Turns every root of the scene (and so the whole figure and its motion) by `q` about the
// model's origin; skinned meshes' bind vertices turn with it.
Scene turned(const Scene& scene, const Quat& q) {
  Scene out = scene;
  Transform turn;
  turn.rotation = q;
  for (int j = 0; j < scene.skeleton.jointCount(); ++j) {
    if (scene.skeleton.parent(j) != kNoParent) continue;
    out.skeleton.setRestLocal(j, turn * scene.skeleton.restLocal(j));
    for (Clip& clip : out.clips) {
      for (JointTrack& track : clip.tracks) {
        if (track.joint != j) continue;
        if (!track.rotation.empty()) track.rotation = conjugated(track.rotation, q, Quat::Identity());
        if (!track.translation.empty()) {
          track.translation = remapped(track.translation, keyTimes(track.translation),
                                       scene.skeleton.restLocal(j).translation, [&](const Vec3& t) { return Vec3(q * t); });
        }
      }
    }
  }
  for (Mesh& mesh : out.meshes) {
    if (!mesh.hasSkin) continue;
    for (Vec3& p : mesh.positions) p = q * p;
    for (Vec3& n : mesh.normals) n = q * n;
    for (Mat4& ibm : mesh.skin.inverseBindMatrices) ibm = ibm * rotationMatrix(q.conjugate());
  }
  return out;
}

struct Side {
  char side = 0;  // 'L', 'R' or 0
  std::string base;
};

Side sideOf(const std::string& name) {
  const std::size_t n = name.size();
  for (const auto& [prefix, side] : {std::pair{"Left", 'L'}, std::pair{"Right", 'R'}}) {
    const std::string p = prefix;
    if (name.rfind(p, 0) == 0 && n > p.size()) return {side, name.substr(p.size())};
  }
  if (n > 2 && (name[n - 2] == '.' || name[n - 2] == '_') && (std::toupper(name[n - 1]) == 'L' || std::toupper(name[n - 1]) == 'R'))
    return {static_cast<char>(std::toupper(name[n - 1])), name.substr(0, n - 2)};
  if (n > 2 && (name[0] == 'L' || name[0] == 'R') && std::isupper(static_cast<unsigned char>(name[1])))
    return {name[0], name.substr(1)};
  if (n > 2 && (name[n - 1] == 'L' || name[n - 1] == 'R') && std::islower(static_cast<unsigned char>(name[n - 2])))
    return {name[n - 1], name.substr(0, n - 1)};
  return {0, name};
}

// The scene with node j named names[j]; a name already given gets a number.
Variant renamed(const Scene& scene, std::string variantName, const std::vector<std::string>& names) {
  Variant v = variantOf(scene, std::move(variantName));
  std::set<std::string> used;
  for (int j = 0; j < scene.skeleton.jointCount(); ++j) {
    std::string name = names[static_cast<std::size_t>(j)];
    while (!used.insert(name).second) name += "_";
    v.scene.skeleton.setName(j, name);
    v.nodeName[static_cast<std::size_t>(j)] = name;
  }
  return v;
}

template <typename Rename>
Variant renamedBy(const Scene& scene, std::string variantName, Rename rename) {
  std::vector<std::string> names;
  for (int j = 0; j < scene.skeleton.jointCount(); ++j) names.push_back(rename(j, scene.skeleton.name(j)));
  return renamed(scene, std::move(variantName), names);
}

}  // namespace

Variant sameAs(const Scene& scene) { return variantOf(scene, "original"); }

Variant restAlongX(const Scene& scene) {
  const HumanoidMap map = mapOf(scene);
  const Vec3 up = humanoidFrame(scene.skeleton, map)->upModel;
  Pose pose(scene.skeleton.restPose().begin(), scene.skeleton.restPose().end());
  const auto root = static_cast<std::size_t>(rootOf(scene.skeleton, map.hips));
  Transform lie;
  lie.rotation = Quat::FromTwoVectors(up, Vec3::UnitX());
  pose[root] = lie * pose[root];
  Variant v = variantOf(scene, "rest along +X");
  v.scene = withPoseAsZeroRest(scene, pose);
  return v;
}

Scene somersaulting(const Scene& scene, float turns) {
  const HumanoidMap map = mapOf(scene);
  const HumanoidFrame frame = *humanoidFrame(scene.skeleton, map);
  const Vec3 leftModel = frame.upModel.cross(frame.forwardModel);
  Scene out = scene;
  for (Clip& clip : out.clips) {
    // The hips are a root in every capture of the suite: their local space is model space.
    JointTrack& hips = clip.trackFor(map.hips);
    std::vector<RotationKey> keys = hips.rotation.keys();
    for (RotationKey& k : keys) {
      const auto share = static_cast<float>((k.time - clip.startTime) / clip.duration());
      k.value = (Quat(Eigen::AngleAxisf(2.0f * kPiF * turns * share, leftModel)) * k.value).normalized();
    }
    hips.rotation.setKeys(keys);
  }
  return out;
}

Variant aPoseRest(const Scene& scene) {
  const HumanoidMap map = mapOf(scene);
  const HumanoidFrame frame = *humanoidFrame(scene.skeleton, map);
  Pose pose(scene.skeleton.restPose().begin(), scene.skeleton.restPose().end());
  std::vector<Transform> model = modelTransforms(scene.skeleton, pose);
  for (const HumanoidArm* arm : {&map.leftArm, &map.rightArm}) {
    // Down by 45° about the forward axis, towards the body whichever side.
    const Vec3 outward = model[static_cast<std::size_t>(arm->forearm)].translation -
                         model[static_cast<std::size_t>(arm->upperArm)].translation;
    const float sign = outward.dot(frame.upModel.cross(frame.forwardModel)) > 0.0f ? -1.0f : 1.0f;
    const Quat downModel(Eigen::AngleAxisf(sign * kPiF / 4.0f, frame.forwardModel));
    const auto u = static_cast<std::size_t>(arm->upperArm);
    const int parent = scene.skeleton.parent(arm->upperArm);
    const Quat parentModel = model[static_cast<std::size_t>(parent)].rotation;
    pose[u].rotation = (parentModel.conjugate() * downModel * model[u].rotation).normalized();
    model = modelTransforms(scene.skeleton, pose);
  }
  Variant v = variantOf(scene, "A-pose rest");
  v.scene = withPoseAsZeroRest(scene, pose);
  return v;
}

Variant zUp(const Scene& scene) {
  const Vec3 up = humanoidFrame(scene.skeleton, mapOf(scene))->upModel;
  // Y-up turns Z-up; a Z-up original turns Y-up, so the up changes either way.
  const float angle = up.z() > 0.5f ? -kPiF / 2.0f : kPiF / 2.0f;
  Variant v = variantOf(scene, up.z() > 0.5f ? "Y-up" : "Z-up");
  v.scene = turned(scene, Quat(Eigen::AngleAxisf(angle, Vec3::UnitX())));
  return v;
}

Variant scaled(const Scene& scene, float factor, const std::string& name) {
  Variant v = variantOf(scene, name);
  v.unitsPerOriginal = factor;
  for (int j = 0; j < scene.skeleton.jointCount(); ++j) {
    Transform rest = scene.skeleton.restLocal(j);
    rest.translation *= factor;
    v.scene.skeleton.setRestLocal(j, rest);
  }
  for (Clip& clip : v.scene.clips) {
    for (JointTrack& track : clip.tracks) {
      for (Curve* c : {&track.translation.x, &track.translation.y, &track.translation.z}) {
        std::vector<CurveKey> keys = c->keys();
        for (CurveKey& k : keys) {
          k.value *= factor;
          k.left.y() *= factor;
          k.right.y() *= factor;
        }
        c->setKeys(std::move(keys));
      }
    }
  }
  for (Mesh& mesh : v.scene.meshes) {
    for (Vec3& p : mesh.positions) p *= factor;
    for (Mat4& ibm : mesh.skin.inverseBindMatrices) ibm.topRightCorner<3, 1>() *= factor;
    for (MorphTarget& target : mesh.morphTargets) {
      for (Vec3& d : target.positionDeltas) d *= factor;
    }
  }
  return v;
}

Variant resampled(const Scene& scene, double fps) {
  Variant v = variantOf(scene, std::to_string(static_cast<int>(fps)) + " fps");
  v.framesKept = false;
  for (Clip& clip : v.scene.clips) {
    const Clip source = clip;
    const int frames = static_cast<int>(std::floor(source.duration() * fps + 1e-6)) + 1;
    std::vector<double> times;
    for (int f = 0; f < frames; ++f) times.push_back(source.startTime + f / fps);
    for (JointTrack& track : clip.tracks) {
      const Transform& rest = scene.skeleton.restLocal(track.joint);
      if (!track.translation.empty())
        track.translation = remapped(track.translation, times, rest.translation, [](const Vec3& t) { return t; });
      if (!track.scale.empty()) track.scale = remapped(track.scale, times, rest.scale, [](const Vec3& s) { return s; });
      if (track.rotation.empty()) continue;
      std::vector<RotationKey> keys;
      for (double t : times) keys.push_back(constantKey(t, track.rotation.evaluate(t)));
      track.rotation.setKeys(std::move(keys));
    }
    clip.frameRate = fps;
    clip.endTime = times.back();
  }
  return v;
}

Variant indexedNames(const Scene& scene) {
  return renamedBy(scene, "joints j0..jn", [](int j, const std::string&) { return "j" + std::to_string(j); });
}

Variant sideSuffixNames(const Scene& scene) {
  return renamedBy(scene, "sides .L/.R", [](int, const std::string& name) {
    const Side s = sideOf(name);
    return s.side ? s.base + "." + s.side : name;
  });
}

Variant sidePrefixNames(const Scene& scene) {
  return renamedBy(scene, "sides Left/Right", [](int, const std::string& name) {
    const Side s = sideOf(name);
    return s.side ? (s.side == 'L' ? "Left" : "Right") + s.base : name;
  });
}

Variant mixamoNames(const Scene& scene) {
  return renamedBy(scene, "mixamorig: names", [](int, const std::string& name) { return "mixamorig:" + name; });
}

Variant extraRoot(const Scene& scene) {
  Variant v = variantOf(scene, "extra root");
  Skeleton& skeleton = v.scene.skeleton;
  skeleton = Skeleton();
  skeleton.addJoint("ExtraRoot", kNoParent, Transform::identity(), NodeKind::Transform);
  for (int j = 0; j < scene.skeleton.jointCount(); ++j) {
    const int parent = scene.skeleton.parent(j);
    skeleton.addJoint(scene.skeleton.name(j), parent == kNoParent ? 0 : parent + 1, scene.skeleton.restLocal(j),
                      scene.skeleton.kind(j));
  }
  for (Clip& clip : v.scene.clips) {
    for (JointTrack& track : clip.tracks) ++track.joint;
  }
  for (Mesh& mesh : v.scene.meshes) {
    if (mesh.node >= 0) ++mesh.node;
    for (int& joint : mesh.skin.joints) ++joint;
  }
  if (!v.scene.rotationOrders.empty())
    v.scene.rotationOrders.insert(v.scene.rotationOrders.begin(), v.scene.rotationOrders.front());
  return v;
}

namespace {

void writeBvhNode(std::ostream& out, const Skeleton& skeleton, int joint, int depth) {
  const std::string pad(static_cast<std::size_t>(depth) * 2, ' ');
  const Vec3& offset = skeleton.restLocal(joint).translation;
  const bool tip = skeleton.kind(joint) == NodeKind::Tip;
  out << pad << (tip ? "End Site" : (depth == 0 ? "ROOT " : "JOINT ") + skeleton.name(joint)) << '\n' << pad << "{\n";
  out << pad << "  OFFSET " << offset.x() << ' ' << offset.y() << ' ' << offset.z() << '\n';
  if (!tip) {
    out << pad << (depth == 0 ? "  CHANNELS 6 Xposition Yposition Zposition " : "  CHANNELS 3 ")
        << "Zrotation Xrotation Yrotation\n";
  }
  for (int child : skeleton.children(joint)) writeBvhNode(out, skeleton, child, depth + 1);
  out << pad << "}\n";
}

}  // namespace

std::string bvhText(const Scene& scene) {
  const Skeleton& skeleton = scene.skeleton;
  const Clip& clip = scene.clips.front();
  std::ostringstream out;
  out << std::setprecision(9) << "HIERARCHY\n";
  writeBvhNode(out, skeleton, 0, 0);
  out << "MOTION\nFrames: " << clip.frameCount() << "\nFrame Time: " << 1.0 / clip.frameRate << '\n';
  ClipSampler sampler(&clip);
  Pose pose(skeleton.restPose().begin(), skeleton.restPose().end());
  std::vector<Vec3> previous(static_cast<std::size_t>(skeleton.jointCount()), Vec3::Zero());
  for (int f = 0; f < clip.frameCount(); ++f) {
    std::copy(skeleton.restPose().begin(), skeleton.restPose().end(), pose.begin());
    sampler.sample(clip.timeOf(f), pose);
    const Vec3& root = pose[0].translation;
    out << root.x() << ' ' << root.y() << ' ' << root.z();
    for (int j = 0; j < skeleton.jointCount(); ++j) {
      if (skeleton.kind(j) == NodeKind::Tip) continue;
      const auto i = static_cast<std::size_t>(j);
      previous[i] = quatToEuler(pose[i].rotation, RotationOrder::ZXY, f > 0 ? &previous[i] : nullptr);
      const Vec3 deg = previous[i] * (180.0f / kPiF);
      out << ' ' << deg.z() << ' ' << deg.x() << ' ' << deg.y();
    }
    out << '\n';
  }
  return out.str();
}

}  // namespace articula::test
