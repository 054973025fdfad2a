#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/math/transform.h"

namespace articula {

inline constexpr int kNoParent = -1;

// Stable identity of a joint: survives renames and re-ordering, so rigs and projects can
// refer to joints across edits.
using JointId = std::uint32_t;

// What a node of the hierarchy is. Importers keep every node that matters for the
// character (joints, their ancestors, animated nodes, mesh holders) so nothing is lost;
// only `Joint` nodes count as skeleton joints and are drawn as bones.
enum class NodeKind : std::uint8_t {
  Joint,      // a bone: skinned by a mesh, a BVH joint or an FBX/Collada bone
  Transform,  // any other node: a root, a mesh holder, a rigid animated node
  Tip,        // end of a chain without its own rotation (a BVH End Site)
};

// Flat joint hierarchy in parent-before-child order (parents[i] < i, kNoParent for roots),
// like ozz::animation::Skeleton. Several roots are allowed: a scene with two characters
// holds one forest. Rest pose transforms are local (in the parent's space).
class Skeleton {
 public:
  // Appends a joint and returns its index. `parent` must be kNoParent or an existing joint.
  int addJoint(std::string name, int parent, const Transform& restLocal, NodeKind kind = NodeKind::Joint);

  int jointCount() const { return static_cast<int>(mParents.size()); }
  bool empty() const { return mParents.empty(); }

  std::span<const int> parents() const { return mParents; }
  int parent(int joint) const { return mParents[static_cast<std::size_t>(joint)]; }
  const std::string& name(int joint) const { return mNames[static_cast<std::size_t>(joint)]; }
  std::span<const std::string> names() const { return mNames; }
  NodeKind kind(int joint) const { return mKinds[static_cast<std::size_t>(joint)]; }
  std::span<const NodeKind> kinds() const { return mKinds; }
  JointId id(int joint) const { return mIds[static_cast<std::size_t>(joint)]; }
  std::span<const Transform> restPose() const { return mRestPose; }
  const Transform& restLocal(int joint) const { return mRestPose[static_cast<std::size_t>(joint)]; }

  void setName(int joint, std::string name) { mNames[static_cast<std::size_t>(joint)] = std::move(name); }
  void setRestLocal(int joint, const Transform& t) { mRestPose[static_cast<std::size_t>(joint)] = t; }
  void setKind(int joint, NodeKind kind) { mKinds[static_cast<std::size_t>(joint)] = kind; }

  // A joint's humanoid role as the user characterised it ("hips", "leftKnee": the keys of
  // core/rig/humanoid_roles.h), as Maya labels joints; empty when unlabelled. A skeleton
  // with any label is mapped by its labels alone (mapHumanoid), never by names.
  const std::string& role(int joint) const { return mRoles[static_cast<std::size_t>(joint)]; }
  void setRole(int joint, std::string role) { mRoles[static_cast<std::size_t>(joint)] = std::move(role); }
  // Index of the first joint labelled `role`, or -1.
  int findRole(std::string_view role) const;
  bool hasRoles() const;
  void clearRoles();

  // Index of the first joint with this exact name, or -1.
  int findJoint(std::string_view name) const;
  // Index of the joint with this stable id, or -1.
  int findJointById(JointId id) const;

  // Number of joints of kind Joint (what a user calls "the skeleton's joints").
  int boneCount() const;
  // Direct children of a joint (kNoParent: the roots), in index order.
  std::vector<int> children(int joint) const;
  // True if `ancestor` is `joint` or lies on its parent line.
  bool isAncestorOrSelf(int ancestor, int joint) const;
  // `joint` and all its descendants, parent before child (ascending indices), found in one
  // pass over the joints after it: a joint is inside when its parent is.
  std::vector<int> subtree(int joint) const;
  // The given joints (negative entries ignored) and every ancestor of each, parent before child
  // (ascending indices), each once: what forward kinematics needs to place those joints, in
  // time linear in the chains' length.
  std::vector<int> withAncestors(std::span<const int> joints) const;

  // nullopt when valid; otherwise a message naming the first bad joint (parent order,
  // parent out of range, empty or duplicate name, non-finite or zero-scale rest pose).
  std::optional<std::string> validate() const;

 private:
  std::vector<int> mParents;
  std::vector<std::string> mNames;
  std::vector<NodeKind> mKinds;
  std::vector<JointId> mIds;
  std::vector<Transform> mRestPose;
  std::vector<std::string> mRoles;
  JointId mNextId = 1;
};

}  // namespace articula
