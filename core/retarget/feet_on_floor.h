#pragma once
// Retargeted feet on the character's floor. Scaling the source's hips height by the legs
// leaves the character's feet off its floor by whatever its proportions differ from the
// source's (RobotExpressive's wide hips, ankles at floor level and big shoes: CMU 02_01's
// contacts 195-240 mm above its floor; CesiumMan's 40-100 mm under), and a capture's own
// floor is no help either (CMU 02_01's T-pose frame sits 70 mm under its contacts, its floor
// slopes 0.7°). So the floor is read on the character itself, on its mesh: on the frames
// where the source plants a foot, the hips move along the character's up until the highest
// planted sole (the foot's lowest point) stands on the floor the character's rest stands on,
// and each leg's IK puts its planted foot down; between contacts the hips' move blends from
// one contact to the next; and no foot goes below the floor.
#include <array>
#include <vector>

#include "core/anim/clip.h"
#include "core/bake/character_soles.h"
#include "core/bake/dense_clip.h"
#include "core/rig/humanoid_map.h"
#include "core/scene/scene.h"

namespace articula {

// The feet of `character`: the rest positions of its mesh vertices carried by a foot (whose
// strongest joint is the ankle or a joint below it, or a rigid mesh on such a node; the foot
// beside the leg for an IK foot), each on that joint; a character without such vertices has
// its foot joints (ankle, toe, the leg's tip) for points. The floor is the lowest vertex of
// its rest, or of those joints without meshes. The up is its groundFrame's.
CharacterSoles characterSoles(const Scene& character, const HumanoidMap& map);

// Per side (left, right) and per frame of `clip` (frame f at clip.timeOf(f)), whether the
// source plants that foot, by detectContacts' rules with heights along `up`. A clip the
// detection refuses (fewer than three frames, a map without ankles) plants nothing.
std::array<std::vector<bool>, 2> plantedFrames(const Skeleton& skeleton, const HumanoidMap& map, const Clip& clip,
                                               const Vec3& up);

// Stands the feet of `dense` (as RetargetJob writes it: the hips translate, the legs and
// feet turn, a foot beside its leg translates) on the floor, per frame, in three passes:
// where `planted` (per side, per frame of `dense`) holds a foot, the hips move along soles.up
// by what puts the highest planted sole on the floor (between such frames by the line
// between the moves on either side; smoothed over 0.05 s and never above it, so the hips do
// not jump where a contact starts or ends); each planted foot's leg then moves it onto the
// floor by two-bone IK (the foot keeping its turn; eased in and out over 0.05 s); where no foot is
// planted, a foot below the floor lifts the hips; where one is, the free foot below the
// floor is lifted by its leg by up to a tenth of the leg's length, else turns toe up about
// its ankle (up to 60°) and its leg lifts the rest; what still is below lifts the hips.
void standOnFloor(const Skeleton& target, const HumanoidMap& map, const CharacterSoles& soles,
                  const std::array<std::vector<bool>, 2>& planted, DenseClip& dense);

}  // namespace articula
