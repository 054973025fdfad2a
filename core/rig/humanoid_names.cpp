#include "core/rig/humanoid_names.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <limits>
#include <span>
#include <string_view>

#include "core/rig/humanoid_structure.h"
#include "core/skeleton/local_to_model.h"

namespace articula {

std::vector<std::string> nameTokens(const std::string& name) {
  std::string_view s = name;
  if (const auto ns = s.find_last_of(":|"); ns != std::string_view::npos) s.remove_prefix(ns + 1);
  std::vector<std::string> tokens;
  std::string current;
  auto flush = [&] {
    if (!current.empty()) tokens.push_back(std::exchange(current, {}));
  };
  for (std::size_t i = 0; i < s.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (!std::isalnum(c)) {
      flush();
      continue;
    }
    if (!current.empty()) {
      const unsigned char prev = static_cast<unsigned char>(s[i - 1]);
      const bool nextLower = i + 1 < s.size() && std::islower(static_cast<unsigned char>(s[i + 1]));
      const bool caseBreak =
          (std::islower(prev) && std::isupper(c)) || (std::isupper(prev) && std::isupper(c) && nextLower);
      const bool digitBreak = std::isdigit(prev) != std::isdigit(c);
      if (caseBreak || digitBreak) flush();
    }
    current.push_back(static_cast<char>(std::tolower(c)));
  }
  flush();
  return tokens;
}

namespace {

enum class Side { None, Left, Right };

using Keywords = std::span<const std::string_view>;

// A joint's words: its tokens plus each adjacent pair joined ("up"+"leg" → "upleg"), so
// "LeftUpLeg", "left_up_leg" and "leftupleg"-style names look alike.
struct JointWords {
  std::vector<std::string> words;
  Side side = Side::None;

  bool hasAny(Keywords keys) const {
    return std::any_of(words.begin(), words.end(),
                       [&](const std::string& w) { return std::find(keys.begin(), keys.end(), w) != keys.end(); });
  }
};

JointWords wordsOf(const std::string& name) {
  JointWords jw;
  const auto tokens = nameTokens(name);
  jw.words = tokens;
  for (std::size_t i = 0; i + 1 < tokens.size(); ++i) jw.words.push_back(tokens[i] + tokens[i + 1]);
  for (const auto& t : tokens) {
    if (t == "left" || t == "l") jw.side = Side::Left;
    if (t == "right" || t == "r") jw.side = Side::Right;
  }
  return jw;
}

constexpr std::array<std::string_view, 2> kTwist = {"twist", "roll"};
constexpr std::array<std::string_view, 1> kThumb = {"thumb"};
constexpr std::array<std::string_view, 7> kFinger = {"thumb", "index", "middle", "ring", "pinky", "finger", "fingers"};
constexpr std::array<std::string_view, 13> kLegWords = {
    "leg", "thigh", "upleg", "upperleg", "knee", "calf", "shin", "lowerleg", "foot", "ankle", "toe", "toebase", "ball"};
constexpr std::array<std::string_view, 8> kThighShinWords = {"leg",   "thigh", "upleg", "upperleg",
                                                             "knee", "calf",  "shin",  "lowerleg"};
constexpr std::array<std::string_view, 2> kFootWords = {"foot", "ankle"};
constexpr std::array<std::string_view, 4> kToeWords = {"toe", "toebase", "toes", "ball"};
constexpr std::array<std::string_view, 7> kArmWords = {"arm",   "upperarm", "forearm", "lowerarm",
                                                       "elbow", "hand",     "wrist"};
constexpr std::array<std::string_view, 2> kHandWords = {"hand", "wrist"};
constexpr std::array<std::string_view, 3> kClavicleWords = {"shoulder", "clavicle", "collar"};
constexpr std::array<std::string_view, 1> kHeadWords = {"head"};
constexpr std::array<std::string_view, 4> kEndWords = {"end", "site", "top", "nub"};

class Mapper {
 public:
  explicit Mapper(const Skeleton& skeleton)
      : mSkeleton(skeleton), mRestModel(localToModel(skeleton, skeleton.restPose())) {
    const int n = skeleton.jointCount();
    mDepth.resize(static_cast<std::size_t>(n));
    mWords.reserve(static_cast<std::size_t>(n));
    Vec3 lo = Vec3::Constant(std::numeric_limits<float>::max());
    Vec3 hi = -lo;
    for (int j = 0; j < n; ++j) {
      const int p = skeleton.parent(j);
      mDepth[static_cast<std::size_t>(j)] = p == kNoParent ? 0 : mDepth[static_cast<std::size_t>(p)] + 1;
      mWords.push_back(wordsOf(skeleton.name(j)));
      lo = lo.cwiseMin(restPos(j));
      hi = hi.cwiseMax(restPos(j));
    }
    // Joints closer than this share a position: 0.1 % of the skeleton's extent, so any unit.
    mSamePlace = n > 0 ? 1e-3f * (hi - lo).maxCoeff() : 0.0f;
  }

  Result<HumanoidMap> run() {
    HumanoidMap map;
    // Every missing limb is named, legs before arms, so one message says all that is wrong
    // (a skeleton without a right leg and without arms reports the three of them); a pair
    // missing on both sides is said once ("no legs: ..."), so the whole fits one short line.
    std::string missing;
    auto note = [&](const char* limb, const char* limbs, const std::vector<std::string>& sides,
                    const std::string& why) {
      if (sides.empty()) return;
      if (!missing.empty()) missing.append("; ");
      missing += "no " + (sides.size() == 2 ? std::string(limbs) : sides.front() + " " + limb) + ": " + why;
    };
    std::vector<std::string> legless, armless;
    std::string legWhy, armWhy;
    for (Side side : {Side::Left, Side::Right}) {
      auto leg = findLeg(side);
      if (leg) {
        (side == Side::Left ? map.leftLeg : map.rightLeg) = *leg;
      } else {
        legless.push_back(sideName(side));
        legWhy = leg.error();
      }
    }
    for (Side side : {Side::Left, Side::Right}) {
      auto arm = findArm(side);
      if (arm) {
        (side == Side::Left ? map.leftArm : map.rightArm) = *arm;
      } else {
        armless.push_back(sideName(side));
        armWhy = arm.error();
      }
    }
    note("leg", "legs", legless, legWhy);
    note("arm", "arms", armless, armWhy);
    if (!missing.empty()) return makeError(missing);
    map.hips = commonAncestor(map.leftLeg.thigh, map.rightLeg.thigh);
    if (map.hips < 0) return makeError("no hips: the left and right thighs have no common ancestor");
    map.chest = commonAncestor(map.leftArm.upperArm, map.rightArm.upperArm);
    if (map.chest < 0) return makeError("no chest: the left and right upper arms have no common ancestor");
    // Hips beside the spine (Root > Hips > legs, Root > Spine1 > arms): the joint carrying
    // both is the pelvis.
    if (!mSkeleton.isAncestorOrSelf(map.hips, map.chest)) map.hips = commonAncestor(map.hips, map.chest);
    if (map.hips < 0 || map.chest == map.hips) {
      return makeError("no spine: no joint between the hips and the joint holding both arms ('" +
                       mSkeleton.name(map.chest) + "')");
    }
    for (int j = map.chest; j != kNoParent; j = mSkeleton.parent(j)) {
      map.spine.push_back(j);
      if (j == map.hips) break;
    }
    std::reverse(map.spine.begin(), map.spine.end());
    findHead(map);
    return map;
  }

 private:
  bool usable(int j) const {
    return mSkeleton.kind(j) == NodeKind::Joint && !mWords[static_cast<std::size_t>(j)].hasAny(kTwist);
  }
  const JointWords& words(int j) const { return mWords[static_cast<std::size_t>(j)]; }

  Vec3 restPos(int j) const { return mRestModel[static_cast<std::size_t>(j)].translation(); }

  // Nearest ancestor that is a real joint: not a twist bone, and not a helper at j's own
  // place (a joint that repeats its parent's offset would make a bone of zero length).
  int jointAbove(int j) const {
    for (int p = mSkeleton.parent(j); p != kNoParent; p = mSkeleton.parent(p)) {
      if (usable(p) && (restPos(p) - restPos(j)).norm() > mSamePlace) return p;
    }
    return -1;
  }

  // The topmost joint of a side whose words match, excluding fingers and tips.
  int topmost(Side side, Keywords keys) const {
    int best = -1;
    for (int j = 0; j < mSkeleton.jointCount(); ++j) {
      const auto& w = words(j);
      if (!usable(j) || w.side != side || !w.hasAny(keys) || w.hasAny(kFinger) || w.hasAny(kEndWords)) continue;
      if (best < 0 || mDepth[static_cast<std::size_t>(j)] < mDepth[static_cast<std::size_t>(best)]) best = j;
    }
    return best;
  }

  // From the topmost joint matching `keys` on a side, follow children that match too.
  std::vector<int> namedChain(Side side, Keywords keys) const {
    std::vector<int> chain;
    int j = topmost(side, keys);
    while (j >= 0) {
      chain.push_back(j);
      int next = -1;
      for (int c : mSkeleton.children(j)) {
        if (usable(c) && words(c).side == side && words(c).hasAny(keys) && !words(c).hasAny(kFinger)) {
          next = c;
          break;
        }
      }
      j = next;
    }
    return chain;
  }

  int childMatching(int j, Keywords keys) const {
    int first = -1;
    for (int c : mSkeleton.children(j)) {
      if (!usable(c)) continue;
      if (words(c).hasAny(keys)) return c;
      if (first < 0) first = c;
    }
    return first;
  }

  int firstChildNot(int j, Keywords keys) const {
    for (int c : mSkeleton.children(j)) {
      if (usable(c) && !words(c).hasAny(keys)) return c;
    }
    return -1;
  }

  static const char* sideName(Side side) { return side == Side::Left ? "left" : "right"; }

  // The child (joint or plain node) of `knee` nearest `ankle`, when it lies within a tenth
  // of the shin's length of it: the shin's tail that an IK foot beside the leg follows.
  int shinTailAt(int knee, int ankle) const {
    int best = -1;
    float bestDistance = 0.0f;
    for (int c : mSkeleton.children(knee)) {
      const float d = (restPos(c) - restPos(ankle)).norm();
      if (best < 0 || d < bestDistance) {
        best = c;
        bestDistance = d;
      }
    }
    const float shin = (restPos(ankle) - restPos(knee)).norm();
    return best >= 0 && bestDistance <= 0.1f * shin ? best : -1;
  }

  // A foot that is not under its leg (no same-side knee above it): the chain of thigh and
  // shin joints of that side, ending at the node on the foot.
  void footBesideLeg(Side side, HumanoidLeg& leg) const {
    const auto chain = namedChain(side, kThighShinWords);
    if (chain.size() < 2) return;
    const int tail = shinTailAt(chain[1], leg.ankle);
    if (tail < 0) return;
    leg.thigh = chain[0];
    leg.knee = chain[1];
    leg.legTip = tail;
  }

  Result<HumanoidLeg> findLeg(Side side) const {
    HumanoidLeg leg;
    leg.ankle = topmost(side, kFootWords);
    if (leg.ankle >= 0) {
      leg.toe = childMatching(leg.ankle, kToeWords);
      const int knee = jointAbove(leg.ankle);
      if (knee >= 0 && words(knee).side == side) {
        leg.knee = knee;
        leg.thigh = jointAbove(knee);
        leg.legTip = leg.ankle;
      } else {
        footBesideLeg(side, leg);
      }
    } else {
      // No foot in the names (leg_joint_L_1..5): the chain of leg joints, top down.
      const auto chain = namedChain(side, kLegWords);
      if (chain.size() >= 3) {
        leg.thigh = chain[0];
        leg.knee = chain[1];
        leg.ankle = chain[2];
        leg.toe = chain.size() > 3 ? chain[3] : childMatching(leg.ankle, kToeWords);
        leg.legTip = leg.ankle;
      }
    }
    if (leg.thigh < 0 || leg.knee < 0 || leg.ankle < 0 || leg.legTip < 0) {
      // Why, without the side: run() names the legs missing.
      return makeError(
          std::string("no foot or ankle under a knee and thigh, nor 3 leg joints in a chain"));
    }
    return leg;
  }

  Result<HumanoidArm> findArm(Side side) const {
    HumanoidArm arm;
    arm.hand = topmost(side, kHandWords);
    if (arm.hand >= 0) {
      arm.forearm = jointAbove(arm.hand);
      arm.upperArm = arm.forearm >= 0 ? jointAbove(arm.forearm) : -1;
    } else {
      const auto chain = namedChain(side, kArmWords);
      if (chain.size() >= 2) {
        arm.upperArm = chain[0];
        arm.forearm = chain[1];
        // No hand in the names (LowerArm.L > Palm2.L, Thumb.L): the forearm's first child
        // that is not a thumb.
        arm.hand = chain.size() >= 3 ? chain[2] : firstChildNot(arm.forearm, kThumb);
      }
    }
    if (arm.upperArm < 0 || arm.forearm < 0 || arm.hand < 0) {
      return makeError(
          std::string("no hand or wrist under an elbow and shoulder, nor 3 arm joints in a chain"));
    }
    const int above = jointAbove(arm.upperArm);
    if (above >= 0 && words(above).side == side && words(above).hasAny(kClavicleWords)) arm.clavicle = above;
    return arm;
  }

  void findHead(HumanoidMap& map) const {
    const int armRootL = map.leftArm.clavicle >= 0 ? map.leftArm.clavicle : map.leftArm.upperArm;
    const int armRootR = map.rightArm.clavicle >= 0 ? map.rightArm.clavicle : map.rightArm.upperArm;
    int head = -1;
    for (int j = 0; j < mSkeleton.jointCount(); ++j) {
      if (!usable(j) || !words(j).hasAny(kHeadWords) || words(j).hasAny(kEndWords)) continue;
      if (!mSkeleton.isAncestorOrSelf(map.chest, j) || j == map.chest) continue;
      if (head < 0 || mDepth[static_cast<std::size_t>(j)] < mDepth[static_cast<std::size_t>(head)]) head = j;
    }
    if (head < 0) {
      // No head in the names (neck_joint_1, neck_joint_2): the end of the chest's chain that
      // is neither arm.
      for (int c : mSkeleton.children(map.chest)) {
        if (!usable(c) || mSkeleton.isAncestorOrSelf(c, armRootL) || mSkeleton.isAncestorOrSelf(c, armRootR)) continue;
        head = c;
        for (auto kids = mSkeleton.children(head);; kids = mSkeleton.children(head)) {
          const auto next = std::find_if(kids.begin(), kids.end(), [&](int k) { return usable(k); });
          if (next == kids.end()) break;
          head = *next;
        }
        break;
      }
    }
    map.head = head;
    if (head < 0) return;
    for (int j = head; j != kNoParent; j = mSkeleton.parent(j)) {
      if (mSkeleton.parent(j) == map.chest) {
        map.neck = j == head ? -1 : j;
        break;
      }
    }
  }

  int commonAncestor(int a, int b) const {
    if (a < 0 || b < 0) return -1;
    for (int j = a; j != kNoParent; j = mSkeleton.parent(j)) {
      if (mSkeleton.isAncestorOrSelf(j, b)) return j;
    }
    return -1;
  }

  const Skeleton& mSkeleton;
  std::vector<Affine> mRestModel;
  float mSamePlace = 0.0f;
  std::vector<int> mDepth;
  std::vector<JointWords> mWords;
};

}  // namespace

Result<HumanoidMap> mapHumanoidByNames(const Skeleton& skeleton) {
  if (skeleton.boneCount() == 0) return makeError("no humanoid: the skeleton has no joints");
  auto byNames = Mapper(skeleton).run();
  if (byNames) return byNames;
  // Names that say nothing: the shape may still be a humanoid's.
  auto byStructure = mapHumanoidByStructure(skeleton);
  if (byStructure) return byStructure;
  // The shape's reason without its own "no humanoid shape: ": the whole stays one short line.
  std::string shapeWhy = byStructure.error();
  constexpr std::string_view kShapePrefix = "no humanoid shape: ";
  if (shapeWhy.rfind(kShapePrefix, 0) == 0) shapeWhy.erase(0, kShapePrefix.size());
  return makeError(byNames.error() + "; by its shape: " + shapeWhy);
}

}  // namespace articula
