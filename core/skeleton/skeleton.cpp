#include "core/skeleton/skeleton.h"

#include <algorithm>
#include <unordered_set>

namespace articula {

int Skeleton::addJoint(std::string name, int parent, const Transform& restLocal, NodeKind kind) {
  const int index = jointCount();
  mParents.push_back(parent);
  mNames.push_back(std::move(name));
  mKinds.push_back(kind);
  mIds.push_back(mNextId++);
  mRestPose.push_back(restLocal);
  mRoles.emplace_back();
  return index;
}

int Skeleton::findRole(std::string_view role) const {
  if (role.empty()) return -1;
  const auto it = std::find(mRoles.begin(), mRoles.end(), role);
  return it == mRoles.end() ? -1 : static_cast<int>(it - mRoles.begin());
}

bool Skeleton::hasRoles() const {
  return std::any_of(mRoles.begin(), mRoles.end(), [](const std::string& role) { return !role.empty(); });
}

void Skeleton::clearRoles() { std::fill(mRoles.begin(), mRoles.end(), std::string()); }

int Skeleton::findJoint(std::string_view name) const {
  const auto it = std::find(mNames.begin(), mNames.end(), name);
  return it == mNames.end() ? -1 : static_cast<int>(it - mNames.begin());
}

int Skeleton::findJointById(JointId id) const {
  const auto it = std::find(mIds.begin(), mIds.end(), id);
  return it == mIds.end() ? -1 : static_cast<int>(it - mIds.begin());
}

int Skeleton::boneCount() const { return static_cast<int>(std::count(mKinds.begin(), mKinds.end(), NodeKind::Joint)); }

std::vector<int> Skeleton::children(int joint) const {
  std::vector<int> result;
  for (int i = 0; i < jointCount(); ++i) {
    if (mParents[static_cast<std::size_t>(i)] == joint) result.push_back(i);
  }
  return result;
}

bool Skeleton::isAncestorOrSelf(int ancestor, int joint) const {
  for (int j = joint; j != kNoParent; j = parent(j)) {
    if (j == ancestor) return true;
  }
  return false;
}

std::vector<int> Skeleton::subtree(int joint) const {
  std::vector<int> result{joint};
  // inside[i - joint]: joint i is in the sub-tree; parents come first, so each is known in turn.
  std::vector<char> inside(static_cast<std::size_t>(jointCount() - joint), 0);
  inside[0] = 1;
  for (int i = joint + 1; i < jointCount(); ++i) {
    const int p = parent(i);
    if (p >= joint && inside[static_cast<std::size_t>(p - joint)] != 0) {
      inside[static_cast<std::size_t>(i - joint)] = 1;
      result.push_back(i);
    }
  }
  return result;
}

std::vector<int> Skeleton::withAncestors(std::span<const int> joints) const {
  std::unordered_set<int> collected;
  for (const int joint : joints) {
    // Walk up until a joint already collected: each chain is walked once.
    for (int j = joint; j >= 0 && j < jointCount() && collected.insert(j).second;) j = parent(j);
  }
  std::vector<int> chains(collected.begin(), collected.end());
  std::sort(chains.begin(), chains.end());
  return chains;
}

std::optional<std::string> Skeleton::validate() const {
  std::unordered_set<std::string_view> seen;
  seen.reserve(mNames.size());
  for (int i = 0; i < jointCount(); ++i) {
    const auto& n = mNames[static_cast<std::size_t>(i)];
    // Made only for a problem: building it for each of a million valid joints was a sixth of
    // exporting such a file.
    const auto label = [&] { return "joint " + std::to_string(i) + " '" + n + "'"; };
    const int p = mParents[static_cast<std::size_t>(i)];
    if (p != kNoParent && (p < 0 || p >= jointCount()))
      return label() + ": parent index " + std::to_string(p) + " is out of range";
    if (p != kNoParent && p >= i) return label() + ": parent " + std::to_string(p) + " does not come before the joint";
    if (n.empty()) return "joint " + std::to_string(i) + " has an empty name";
    if (!seen.insert(n).second) return label() + ": the name is used by an earlier joint";
    const Transform& t = mRestPose[static_cast<std::size_t>(i)];
    if (!t.isFinite()) return label() + ": the rest pose is not finite";
    if (t.scale.cwiseAbs().minCoeff() == 0.0f) return label() + ": the rest pose has zero scale";
  }
  return std::nullopt;
}

}  // namespace articula
