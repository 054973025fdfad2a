#include "core/bake/skate_cleanup_figures.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/bake/contact_detection.h"
#include "core/bake/skate_cleanup_sampling.h"

namespace articula {
namespace {

// A foot's direction in model space: ankle to toe; without a toe, the ankle's X and Y axes
// summed (any two of its axes turn with the foot as a whole).
Vec3 footDirection(const std::vector<Affine>& model, const FootDirectionJoints& foot) {
  const Affine& ankle = model[static_cast<std::size_t>(foot.ankle)];
  if (foot.toe >= 0) {
    const Vec3 d = Vec3(model[static_cast<std::size_t>(foot.toe)].translation()) - Vec3(ankle.translation());
    if (d.norm() > 1e-9f) return d.normalized();
  }
  const Mat3 r = rotationOf(ankle.linear()).toRotationMatrix();
  return (r.col(0) + r.col(1)).normalized();
}

float degreesBetween(const Vec3& a, const Vec3& b) {
  return static_cast<float>(std::atan2(a.cross(b).norm(), a.dot(b)) * 180.0 / 3.14159265358979323846);
}

}  // namespace

SourceMotion::SourceMotion(const Skeleton& skeleton, const Clip& source, int firstFrame, int lastFrame,
                           std::vector<FootDirectionJoints> feet, const Vec3& upModel)
    : mSkeleton(skeleton),
      mStartTime(source.timeOf(firstFrame)),
      mFrameRate(source.frameRate),
      mFirstFrame(firstFrame),
      mFeet(std::move(feet)) {
  ModelPosePlayer player(skeleton, source);
  for (int f = firstFrame; f <= lastFrame; ++f) {
    const std::vector<Affine>& model = player.at(f);
    if (f == firstFrame) mHeightModel = jointExtentAlong(skeleton, model, upModel.normalized());
    std::vector<Vec3>& positions = mPositions.emplace_back();
    for (const Affine& m : model) positions.push_back(m.translation());
    std::vector<Vec3>& directions = mFootDirections.emplace_back();
    for (const FootDirectionJoints& foot : mFeet) directions.push_back(footDirection(model, foot));
  }
}

CleanupFigures SourceMotion::compare(const Clip& cleaned, const std::vector<JointGroup>& groups) const {
  CleanupFigures figures;
  figures.heightModel = mHeightModel;
  figures.feet.resize(mFeet.size());
  Pose rest(mSkeleton.restPose().begin(), mSkeleton.restPose().end());
  Pose pose = rest;
  ClipSampler sampler(&cleaned);
  std::vector<Affine> model(static_cast<std::size_t>(mSkeleton.jointCount()));
  for (std::size_t k = 0; k < mPositions.size(); ++k) {
    std::copy(rest.begin(), rest.end(), pose.begin());
    // The cleaned clip played at the source's frame times.
    sampler.sample(mStartTime + static_cast<double>(k) / mFrameRate, pose);
    LocalToModelJob fk;
    fk.skeleton = &mSkeleton;
    fk.local = pose;
    fk.model = model;
    fk.run();
    for (std::size_t j = 0; j < model.size() && j < groups.size(); ++j) {
      const float moved = (Vec3(model[j].translation()) - mPositions[k][j]).norm();
      float& largest = groups[j] == JointGroup::Feet     ? figures.feetModel
                       : groups[j] == JointGroup::Legs   ? figures.legsModel
                       : groups[j] == JointGroup::Pelvis ? figures.pelvisModel
                                                         : figures.upperBodyModel;
      largest = std::max(largest, moved);
    }
    for (std::size_t i = 0; i < mFeet.size(); ++i) {
      const float turned = degreesBetween(footDirection(model, mFeet[i]), mFootDirections[k][i]);
      FootTurnFigures& foot = figures.feet[i];
      foot.meanDeg += turned;
      if (turned > foot.maxDeg || foot.maxFrame < 0) {
        foot.maxDeg = turned;
        foot.maxFrame = mFirstFrame + static_cast<int>(k);
      }
    }
  }
  for (FootTurnFigures& foot : figures.feet) {
    if (!mPositions.empty()) foot.meanDeg /= static_cast<float>(mPositions.size());
  }
  return figures;
}

}  // namespace articula
