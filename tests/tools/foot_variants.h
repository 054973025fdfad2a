#pragma once
// Test characters whose feet and root differ, built from the test data: the same motion
// under a Z-up centimetre armature node (as FBX conversions write), with Mixamo's bone axes
// (each bone's Y along it), and without toes. Meshes are left out: the cleanup reads bones.
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "core/bake/dense_clip.h"
#include "core/math/quaternion.h"
#include "core/scene/scene.h"
#include "core/skeleton/local_to_model.h"

namespace articula::test {

// `scene` with `skeleton` and its first clip played into it frame by frame: `mapPose` turns
// each frame's local pose of the old skeleton into one of the new (a key per frame).
inline Scene remade(const Scene& scene, Skeleton skeleton,
                    const std::function<void(std::span<const Transform>, std::span<Transform>)>& mapPose) {
  const Clip& source = scene.clips.front();
  const DenseClip old = sampleDense(scene.skeleton, source, 0, source.frameCount() - 1);
  DenseClip dense;
  dense.startTime = old.startTime;
  dense.frameRate = old.frameRate;
  for (int j = 0; j < skeleton.jointCount(); ++j) {
    DenseTrack& track = dense.tracks.emplace_back();
    track.joint = j;
    track.translates = track.rotates = true;
  }
  std::vector<Transform> oldPose(scene.skeleton.restPose().begin(), scene.skeleton.restPose().end());
  std::vector<Transform> newPose(skeleton.restPose().begin(), skeleton.restPose().end());
  for (int f = 0; f < old.frames; ++f) {
    old.samplePose(f, oldPose);
    mapPose(oldPose, newPose);
    dense.appendFrame(newPose);
  }
  Scene out;
  out.sourcePath = scene.sourcePath;
  out.skeleton = std::move(skeleton);
  Clip& clip = out.clips.emplace_back();
  clip.name = source.name;
  clip.frameRate = source.frameRate;
  clip.startTime = source.startTime;
  clip.endTime = source.endTime;
  clip.tracks = perFrameTracks(dense);
  return out;
}

// Under a node turned −90° about X and scaled 0.01 (a Z-up centimetre armature brought to
// Y-up metres, as FBX conversions write it): every joint where it was in model space.
inline Scene underZUpCentimetreRoot(const Scene& scene) {
  Transform root;
  root.rotation = Quat(Eigen::AngleAxisf(-0.5f * 3.14159265f, Vec3::UnitX()));
  root.scale = Vec3::Constant(0.01f);
  const Quat inverseTurn = root.rotation.conjugate();
  auto inArmature = [&](const Transform& local, bool isRoot) {
    Transform t = local;
    t.translation = 100.0f * (isRoot ? Vec3(inverseTurn * local.translation) : local.translation);
    if (isRoot) t.rotation = (inverseTurn * local.rotation).normalized();
    return t;
  };
  const Skeleton& old = scene.skeleton;
  Skeleton skeleton;
  skeleton.addJoint("Armature", kNoParent, root, NodeKind::Transform);
  for (int j = 0; j < old.jointCount(); ++j) {
    const int parent = old.parent(j);
    skeleton.addJoint(old.name(j), parent == kNoParent ? 0 : parent + 1,
                      inArmature(old.restLocal(j), parent == kNoParent), old.kind(j));
  }
  return remade(scene, std::move(skeleton), [&](std::span<const Transform> from, std::span<Transform> to) {
    for (std::size_t j = 0; j < from.size(); ++j)
      to[j + 1] = inArmature(from[j], old.parent(static_cast<int>(j)) == kNoParent);
  });
}

// Each joint's axes turned so that its Y runs along the bone to its first child, as Mixamo
// orients them (the foot's Y points down to the toe): the same motion in model space.
inline Scene withMixamoBoneAxes(const Scene& scene) {
  const Skeleton& old = scene.skeleton;
  const auto restModel = localToModel(old, old.restPose());
  std::vector<Quat> turn(static_cast<std::size_t>(old.jointCount()), Quat::Identity());
  for (int j = 0; j < old.jointCount(); ++j) {
    for (int c = j + 1; c < old.jointCount(); ++c) {
      if (old.parent(c) != j) continue;
      const Affine& m = restModel[static_cast<std::size_t>(j)];
      const Vec3 boneLocal =
          m.linear().inverse() * (Vec3(restModel[static_cast<std::size_t>(c)].translation()) - Vec3(m.translation()));
      if (boneLocal.norm() > 1e-6f)
        turn[static_cast<std::size_t>(j)] = fromToRotation(Vec3::UnitY(), boneLocal.normalized());
      break;
    }
  }
  auto reoriented = [&](const Transform& local, int j) {
    const int parent = old.parent(j);
    const Quat parentTurn = parent == kNoParent ? Quat::Identity() : turn[static_cast<std::size_t>(parent)];
    Transform t = local;
    t.translation = parentTurn.conjugate() * local.translation;
    t.rotation = (parentTurn.conjugate() * local.rotation * turn[static_cast<std::size_t>(j)]).normalized();
    return t;
  };
  Skeleton skeleton;
  for (int j = 0; j < old.jointCount(); ++j)
    skeleton.addJoint(old.name(j), old.parent(j), reoriented(old.restLocal(j), j), old.kind(j));
  return remade(scene, std::move(skeleton), [&](std::span<const Transform> from, std::span<Transform> to) {
    for (std::size_t j = 0; j < from.size(); ++j) to[j] = reoriented(from[j], static_cast<int>(j));
  });
}

// Without the joints whose name holds `toeWord` and everything below them.
inline Scene withoutToes(const Scene& scene, const std::string& toeWord = "Toe") {
  const Skeleton& old = scene.skeleton;
  std::vector<int> newIndex(static_cast<std::size_t>(old.jointCount()), -1);
  Skeleton skeleton;
  for (int j = 0; j < old.jointCount(); ++j) {
    const int parent = old.parent(j);
    if (old.name(j).find(toeWord) != std::string::npos) continue;
    if (parent != kNoParent && newIndex[static_cast<std::size_t>(parent)] < 0) continue;
    newIndex[static_cast<std::size_t>(j)] =
        skeleton.addJoint(old.name(j), parent == kNoParent ? kNoParent : newIndex[static_cast<std::size_t>(parent)],
                          old.restLocal(j), old.kind(j));
  }
  return remade(scene, std::move(skeleton), [&](std::span<const Transform> from, std::span<Transform> to) {
    for (std::size_t j = 0; j < from.size(); ++j) {
      if (newIndex[j] >= 0) to[static_cast<std::size_t>(newIndex[j])] = from[j];
    }
  });
}

}  // namespace articula::test
