#pragma once
#include <optional>
#include <span>

#include "core/math/types.h"
#include "core/scene/scene.h"

namespace articula::ui {

// View ▸ Follow (Blender's "lock camera to object", Maya's follow): the camera's target
// moves with the character's hips across the floor during playback and scrubbing, so a
// walk stays in view; height stays, so the view does not bob with each step. Qt-free.
class CameraFollow {
 public:
  // The joint followed: the humanoid's hips, else the first root with children (a capture's
  // root), else the first joint; -1 for a scene without joints.
  static int followedJoint(const Scene& scene);

  // Follows `joint` (followedJoint of the scene shown) from the next restart.
  void setJoint(int joint) { mJoint = joint; }
  int joint() const { return mJoint; }
  // Starts following from the pose `modelPose` without moving the camera (turning Follow on,
  // a new scene or clip, an edit that moved the character in place).
  void restart(std::span<const Affine> modelPose);
  // The camera target (model space, Y up) moved by the followed joint's horizontal travel
  // since the last call or restart; `target` unchanged when nothing is followed.
  Vec3 follow(const Vec3& target, std::span<const Affine> modelPose);
  // The camera target over the followed joint (its height kept), and following from there: a
  // clip switch puts the character in the middle of the view again, wherever the new clip
  // starts. `target` unchanged when nothing is followed.
  Vec3 centre(const Vec3& target, std::span<const Affine> modelPose);

 private:
  int mJoint = -1;
  std::optional<Vec3> mLastModel;  // the followed joint where the camera last followed it
};

}  // namespace articula::ui
