#include "core/rig/humanoid_structure.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>

#include "core/skeleton/local_to_model.h"

namespace articula {
namespace {

// Two chains of matching bones hanging from one joint: a pair of limbs.
struct LimbPair {
  int node = -1;
  std::vector<int> a, b;  // each chain from the node's child down to its tip
  float length = 0.0f;    // of one chain
};

class StructureMapper {
 public:
  explicit StructureMapper(const Skeleton& skeleton)
      : mSkeleton(skeleton), mModel(localToModel(skeleton, skeleton.restPose())) {
    Vec3 lo = Vec3::Constant(std::numeric_limits<float>::max());
    Vec3 hi = -lo;
    for (int j = 0; j < skeleton.jointCount(); ++j) {
      lo = lo.cwiseMin(pos(j));
      hi = hi.cwiseMax(pos(j));
    }
    mSize = skeleton.jointCount() > 0 ? (hi - lo).norm() : 0.0f;
    // Every joint's children in one pass: Skeleton::children scans the whole skeleton, and
    // asking it for each joint made a file with a million empty nodes take hours.
    mChildren.resize(static_cast<std::size_t>(skeleton.jointCount()));
    for (int j = 0; j < skeleton.jointCount(); ++j) {
      if (skeleton.parent(j) != kNoParent) mChildren[static_cast<std::size_t>(skeleton.parent(j))].push_back(j);
    }
    // Children come after their parents: one backward pass gives every joint's reach.
    mReach.assign(static_cast<std::size_t>(skeleton.jointCount()), 0.0f);
    for (int j = skeleton.jointCount() - 1; j >= 0; --j) {
      const int p = skeleton.parent(j);
      if (p == kNoParent || !isBone(j)) continue;
      float& r = mReach[static_cast<std::size_t>(p)];
      r = std::max(r, (pos(j) - pos(p)).norm() + reach(j));
    }
  }

  Result<HumanoidMap> run() const {
    if (!(mSize > 0.0f)) return makeError("no humanoid shape: the skeleton has no extent");
    const std::vector<LimbPair> pairs = limbPairs();
    if (pairs.size() < 2) return makeError("no humanoid shape: fewer than two pairs of matching limbs");
    LimbPair legs = pairs[0], arms = pairs[1];
    if (depth(arms.node) < depth(legs.node)) std::swap(legs, arms);
    HumanoidMap map;
    map.chest = arms.node;
    map.hips = mSkeleton.isAncestorOrSelf(legs.node, arms.node) ? legs.node : commonAncestor(legs.node, arms.node);
    if (map.hips < 0 || map.hips == map.chest) return makeError("no humanoid shape: no spine between legs and arms");
    const Vec3 up = (pos(map.chest) - pos(map.hips)).normalized();
    HumanoidLeg legA = leg(legs.a), legB = leg(legs.b);
    const Vec3 left = up.cross(forward(up, legA, legB));
    if ((pos(legA.thigh) - pos(legB.thigh)).dot(left) < 0.0f) std::swap(legA, legB);
    map.leftLeg = legA;
    map.rightLeg = legB;
    HumanoidArm armA = arm(arms.a), armB = arm(arms.b);
    if ((pos(armA.upperArm) - pos(armB.upperArm)).dot(left) < 0.0f) std::swap(armA, armB);
    map.leftArm = armA;
    map.rightArm = armB;
    for (int j = map.chest; j != map.hips; j = mSkeleton.parent(j)) map.spine.push_back(j);
    map.spine.push_back(map.hips);
    std::reverse(map.spine.begin(), map.spine.end());
    findHead(map, arms);
    return map;
  }

 private:
  Vec3 pos(int j) const { return mModel[static_cast<std::size_t>(j)].translation(); }
  const std::vector<int>& children(int j) const { return mChildren[static_cast<std::size_t>(j)]; }
  bool isBone(int j) const { return mSkeleton.kind(j) != NodeKind::Transform; }
  int depth(int j) const {
    int d = 0;
    for (; mSkeleton.parent(j) != kNoParent; j = mSkeleton.parent(j)) ++d;
    return d;
  }
  int commonAncestor(int a, int b) const {
    if (a < 0 || b < 0) return -1;
    for (int j = a; j != kNoParent; j = mSkeleton.parent(j)) {
      if (mSkeleton.isAncestorOrSelf(j, b)) return j;
    }
    return -1;
  }

  // Longest path below `j` (bone lengths), and the chain along it from `j` to its tip.
  float reach(int j) const { return mReach[static_cast<std::size_t>(j)]; }
  std::vector<int> mainChain(int j) const {
    std::vector<int> chain{j};
    for (;;) {
      int next = -1;
      float best = -1.0f;
      for (int c : children(chain.back())) {
        const float r = isBone(c) ? (pos(c) - pos(chain.back())).norm() + reach(c) : -1.0f;
        if (r > best) best = r, next = c;
      }
      if (next < 0 || best < 0.0f) return chain;
      chain.push_back(next);
    }
  }
  std::vector<float> boneLengths(int node, const std::vector<int>& chain) const {
    std::vector<float> lengths;
    int previous = node;
    for (int j : chain) lengths.push_back((pos(j) - pos(std::exchange(previous, j))).norm());
    return lengths;
  }

  // Sibling chains of the same number of bones, each within 20 % (or 2 % of the skeleton)
  // of its partner, long enough to be limbs; the longest first, none inside another.
  std::vector<LimbPair> limbPairs() const {
    std::vector<LimbPair> found;
    for (int node = 0; node < mSkeleton.jointCount(); ++node) {
      const std::vector<int> kids = longestChildren(node);
      for (std::size_t i = 0; i < kids.size(); ++i) {
        for (std::size_t k = i + 1; k < kids.size(); ++k) {
          if (auto pair = matching(node, kids[i], kids[k])) found.push_back(*pair);
        }
      }
    }
    std::sort(found.begin(), found.end(), [](const LimbPair& x, const LimbPair& y) { return x.length > y.length; });
    std::vector<LimbPair> kept;
    for (const LimbPair& pair : found) {
      const bool inside = std::any_of(kept.begin(), kept.end(), [&](const LimbPair& other) {
        return mSkeleton.isAncestorOrSelf(other.a.front(), pair.node) ||
               mSkeleton.isAncestorOrSelf(other.b.front(), pair.node) ||
               mSkeleton.isAncestorOrSelf(pair.a.front(), other.node) ||
               mSkeleton.isAncestorOrSelf(pair.b.front(), other.node) || pair.node == other.node;
      });
      if (!inside) kept.push_back(pair);
    }
    return kept;
  }
  // A joint's children by reach, at most a hand's worth of fingers and then some: a joint
  // with thousands of children (a hostile file) is not paired child by child.
  std::vector<int> longestChildren(int node) const {
    std::vector<int> kids = children(node);
    constexpr std::size_t kMost = 16;
    if (kids.size() > kMost) {
      std::partial_sort(kids.begin(), kids.begin() + kMost, kids.end(), [&](int x, int y) { return reach(x) > reach(y); });
      kids.resize(kMost);
    }
    return kids;
  }
  std::optional<LimbPair> matching(int node, int a, int b) const {
    if (!isBone(a) || !isBone(b)) return std::nullopt;
    LimbPair pair{node, mainChain(a), mainChain(b), 0.0f};
    const std::vector<float> la = boneLengths(node, pair.a), lb = boneLengths(node, pair.b);
    if (la.size() != lb.size() || la.size() < 3) return std::nullopt;
    for (std::size_t i = 0; i < la.size(); ++i) {
      if (std::abs(la[i] - lb[i]) > std::max(0.2f * std::max(la[i], lb[i]), 0.02f * mSize)) return std::nullopt;
    }
    for (float l : la) pair.length += l;
    if (pair.length < 0.2f * mSize) return std::nullopt;
    return pair;
  }

  // The two longest consecutive bones of a leg chain: thigh and shin (a pelvis bone before
  // them and the foot after are shorter).
  std::size_t longestTwoBones(const std::vector<int>& chain) const {
    std::size_t best = 0;
    float bestLength = -1.0f;
    for (std::size_t i = 0; i + 2 < chain.size(); ++i) {
      const float l = bone(chain, i) + bone(chain, i + 1);
      if (l > bestLength) best = i, bestLength = l;
    }
    return best;
  }
  // An arm's upper arm and forearm: the last two consecutive long bones (at least half the
  // longest), since a clavicle may outdo the forearm (CMU) but the hand's bones are short.
  std::size_t lastTwoLongBones(const std::vector<int>& chain) const {
    float longest = 0.0f;
    for (std::size_t i = 0; i + 1 < chain.size(); ++i) longest = std::max(longest, bone(chain, i));
    for (std::size_t i = chain.size() - 2; i-- > 0;) {  // the pairs of bones, last first
      if (bone(chain, i) >= 0.5f * longest && bone(chain, i + 1) >= 0.5f * longest) return i;
    }
    return longestTwoBones(chain);
  }
  float bone(const std::vector<int>& chain, std::size_t i) const { return (pos(chain[i + 1]) - pos(chain[i])).norm(); }
  HumanoidLeg leg(const std::vector<int>& chain) const {
    const std::size_t i = longestTwoBones(chain);
    HumanoidLeg leg;
    leg.thigh = chain[i];
    leg.knee = chain[i + 1];
    leg.ankle = leg.legTip = chain[i + 2];
    if (i + 3 < chain.size() && mSkeleton.kind(chain[i + 3]) == NodeKind::Joint) leg.toe = chain[i + 3];
    return leg;
  }
  HumanoidArm arm(const std::vector<int>& chain) const {
    const std::size_t i = lastTwoLongBones(chain);
    HumanoidArm arm;
    arm.upperArm = chain[i];
    arm.forearm = chain[i + 1];
    arm.hand = chain[i + 2];
    if (i > 0) arm.clavicle = chain[i - 1];
    return arm;
  }

  // Toward the toes; without toes, the facing glTF (+Z, Y up) and Blender (-Y, Z up) use.
  Vec3 forward(const Vec3& up, const HumanoidLeg& a, const HumanoidLeg& b) const {
    Vec3 toes = Vec3::Zero();
    for (const HumanoidLeg* leg : {&a, &b}) {
      if (leg->toe >= 0) toes += pos(leg->toe) - pos(leg->ankle);
    }
    toes -= up * up.dot(toes);
    if (toes.norm() > 1e-3f * mSize) return toes.normalized();
    const Vec3 convention = std::abs(up.y()) >= std::abs(up.z()) ? Vec3(Vec3::UnitZ()) : Vec3(-Vec3::UnitY());
    const Vec3 flat = convention - up * up.dot(convention);
    return flat.norm() > 1e-6f ? flat.normalized() : up.unitOrthogonal();
  }

  // The chest's branch that is neither arm: its head is where the chain branches (a face
  // rig), or else its last joint with a child (an end joint past it is the skull's top); the
  // chest's child on it is the neck.
  void findHead(HumanoidMap& map, const LimbPair& arms) const {
    for (int c : children(map.chest)) {
      if (mSkeleton.kind(c) != NodeKind::Joint || c == arms.a.front() || c == arms.b.front()) continue;
      const std::vector<int> chain = mainChain(c);
      int head = chain.front();
      for (int j : chain) {
        if (mSkeleton.kind(j) != NodeKind::Joint) break;
        const std::vector<int>& kids = children(j);
        const auto bones = std::count_if(kids.begin(), kids.end(), [&](int k) { return isBone(k); });
        if (bones >= 2) {
          head = j;
          break;
        }
        if (bones == 1) head = j;
      }
      map.head = head;
      map.neck = head != c ? c : -1;
      return;
    }
  }

  const Skeleton& mSkeleton;
  std::vector<Affine> mModel;
  float mSize = 0.0f;
  std::vector<float> mReach;
  std::vector<std::vector<int>> mChildren;
};

}  // namespace

Result<HumanoidMap> mapHumanoidByStructure(const Skeleton& skeleton) { return StructureMapper(skeleton).run(); }

}  // namespace articula
