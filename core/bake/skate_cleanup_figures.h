#pragma once
// How far a cleaned clip is from its source, joint by joint: what a user checks to see that
// the cleanup changed no more than the slide it removed needs, and that each foot still
// points where the source's does.
#include <vector>

#include "core/anim/clip.h"
#include "core/skeleton/skeleton.h"

namespace articula {

// Which part of the body a joint belongs to, for the displacement figures.
enum class JointGroup { Feet, Legs, Pelvis, UpperBody };

// Per foot, how far its direction (ankle to toe; without a toe, the ankle's rotation) turned
// from the source's over the frames compared.
struct FootTurnFigures {
  float meanDeg = 0.0f;
  float maxDeg = 0.0f;
  int maxFrame = -1;  // frame of the source clip where it turned most
};

struct CleanupFigures {
  // The character's height along its up (its joints' extent at the first frame compared),
  // model units: what turns the figures into millimetres for a 1.75 m character, whatever
  // the file's axes and rest pose.
  float heightModel = 0.0f;
  // The largest distance (model units) of a joint of each group from where it is in the
  // source, at any frame compared.
  float feetModel = 0.0f;
  float legsModel = 0.0f;
  float pelvisModel = 0.0f;
  float upperBodyModel = 0.0f;
  std::vector<FootTurnFigures> feet;  // in the order of the feet given
};

// A foot's joints, for its direction: the toe is -1 without one.
struct FootDirectionJoints {
  int ankle = -1;
  int toe = -1;
};

// The source's joints in model space, frame by frame over [firstFrame, lastFrame] of its
// clip: recorded before a cleanup takes the clip apart.
class SourceMotion {
 public:
  SourceMotion(const Skeleton& skeleton, const Clip& source, int firstFrame, int lastFrame,
               std::vector<FootDirectionJoints> feet, const Vec3& upModel);

  // `cleaned` (a clip of the same skeleton, the same times) against the source: every
  // joint's largest distance by `groups` (one per joint) and each foot's turn.
  CleanupFigures compare(const Clip& cleaned, const std::vector<JointGroup>& groups) const;

 private:
  const Skeleton& mSkeleton;
  float mHeightModel = 0.0f;
  double mStartTime = 0.0;  // time of the first recorded frame
  double mFrameRate = 30.0;
  int mFirstFrame = 0;
  std::vector<FootDirectionJoints> mFeet;
  std::vector<std::vector<Vec3>> mPositions;       // per frame, per joint
  std::vector<std::vector<Vec3>> mFootDirections;  // per frame, per foot (unit)
};

}  // namespace articula
