#pragma once
// What the skate cleanup reads of a clip: its joints in model space frame by frame, and the
// rotation of a model matrix that may carry a root node's scale.
#include <algorithm>
#include <vector>

#include "core/anim/clip.h"
#include "core/skeleton/local_to_model.h"
#include "core/skeleton/skeleton.h"

namespace articula {

// The rotation of a model matrix (no shear): a skeleton under a scaled root node (an FBX
// conversion's centimetre armature under a node scaled 0.01) has scaled model matrices, and
// Quat(linear) of a scaled matrix is no rotation at all.
inline Quat rotationOf(const Mat3& linearModel) {
  Mat3 r = linearModel;
  for (int c = 0; c < 3; ++c) r.col(c).normalize();
  return Quat(r).normalized();
}

// A clip played into model space frame by frame: the rest pose fills the channels the clip
// does not animate. One buffer set, reused for every frame.
class ModelPosePlayer {
 public:
  ModelPosePlayer(const Skeleton& skeleton, const Clip& clip)
      : mSkeleton(skeleton),
        mClip(clip),
        mSampler(&clip),
        mRest(skeleton.restPose().begin(), skeleton.restPose().end()),
        mPose(mRest),
        mModel(static_cast<std::size_t>(skeleton.jointCount())) {}

  // Model matrices of every joint at frame f of the clip.
  const std::vector<Affine>& at(int f) {
    std::copy(mRest.begin(), mRest.end(), mPose.begin());
    mSampler.sample(mClip.timeOf(f), mPose);
    LocalToModelJob fk;
    fk.skeleton = &mSkeleton;
    fk.local = mPose;
    fk.model = mModel;
    fk.run();
    return mModel;
  }
  // The local pose of the frame `at` played last.
  const Pose& local() const { return mPose; }

 private:
  const Skeleton& mSkeleton;
  const Clip& mClip;
  ClipSampler mSampler;
  const Pose mRest;
  Pose mPose;
  std::vector<Affine> mModel;
};

}  // namespace articula
