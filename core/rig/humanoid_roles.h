#pragma once
// A humanoid characterisation as the user sets it: joints labelled with roles (as Maya's
// joint labels or HumanIK's definition), turned into the HumanoidMap every humanoid tool
// uses. A skeleton with labels is mapped by them alone; without, by names (mapHumanoid).
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/rig/humanoid.h"
#include "core/skeleton/skeleton.h"
#include "core/util/result.h"

namespace articula {

struct HumanoidRole {
  const char* key;    // the label on the joint and the key in map files ("leftKnee")
  const char* label;  // what the Characterise panel shows ("Left shin (knee)")
  bool required;      // a humanoid without it cannot be rigged or retargeted
};

// Every role, in the order a user characterises a skeleton: trunk, then each side's leg and
// arm. The spine between hips and chest follows the hierarchy; `legTip` only matters for a
// foot that is an IK bone beside its leg (the node at the shin's tail).
std::span<const HumanoidRole> humanoidRoles();
// The role with this key, or nullptr.
const HumanoidRole* findHumanoidRole(const std::string& key);

// Role key → joint of every role the map fills, in humanoidRoles() order (legTip only when
// the foot is beside the leg).
std::vector<std::pair<std::string, int>> roleJoints(const HumanoidMap& map);

// Labels the skeleton with the map's roles; every previous label is cleared.
void labelRoles(Skeleton& skeleton, const HumanoidMap& map);

// The map the skeleton's labels describe. The error lists every required role without a
// joint and every chain that does not hang together (a knee not under its thigh, ...).
Result<HumanoidMap> mapHumanoidFromRoles(const Skeleton& skeleton);

}  // namespace articula
