#include "core/rig/humanoid_map.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <span>
#include <string_view>

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
constexpr std::array<std::string_view, 7> kFinger = {"thumb", "index", "middle", "ring", "pinky", "finger", "fingers"};
constexpr std::array<std::string_view, 13> kLegWords = {
    "leg", "thigh", "upleg", "upperleg", "knee", "calf", "shin", "lowerleg", "foot", "ankle", "toe", "toebase", "ball"};
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
  explicit Mapper(const Skeleton& skeleton) : mSkeleton(skeleton) {
    const int n = skeleton.jointCount();
    mDepth.resize(static_cast<std::size_t>(n));
    mWords.reserve(static_cast<std::size_t>(n));
    for (int j = 0; j < n; ++j) {
      const int p = skeleton.parent(j);
      mDepth[static_cast<std::size_t>(j)] = p == kNoParent ? 0 : mDepth[static_cast<std::size_t>(p)] + 1;
      mWords.push_back(wordsOf(skeleton.name(j)));
    }
  }

  Result<HumanoidMap> run() {
    HumanoidMap map;
    // Every missing limb is named, legs before arms, so one message says all that is wrong
    // (a skeleton without a right leg and without arms reports the three of them).
    std::string missing;
    auto note = [&](const std::string& error) {
      if (!missing.empty()) missing.append("; ");
      missing.append(error);
    };
    for (Side side : {Side::Left, Side::Right}) {
      auto leg = findLeg(side);
      if (leg) {
        (side == Side::Left ? map.leftLeg : map.rightLeg) = *leg;
      } else {
        note(leg.error());
      }
    }
    for (Side side : {Side::Left, Side::Right}) {
      auto arm = findArm(side);
      if (arm) {
        (side == Side::Left ? map.leftArm : map.rightArm) = *arm;
      } else {
        note(arm.error());
      }
    }
    if (!missing.empty()) return makeError(missing);
    map.hips = commonAncestor(map.leftLeg.thigh, map.rightLeg.thigh);
    if (map.hips < 0) return makeError("no hips: the left and right thighs have no common ancestor");
    map.chest = commonAncestor(map.leftArm.upperArm, map.rightArm.upperArm);
    if (map.chest < 0 || !mSkeleton.isAncestorOrSelf(map.hips, map.chest) || map.chest == map.hips) {
      return makeError("no spine: the joint holding both arms is not above the hips (found '" +
                       (map.chest < 0 ? std::string("none") : mSkeleton.name(map.chest)) + "')");
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

  // Nearest ancestor that is a real (non-twist) joint.
  int jointAbove(int j) const {
    for (int p = mSkeleton.parent(j); p != kNoParent; p = mSkeleton.parent(p)) {
      if (usable(p)) return p;
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

  static const char* sideName(Side side) { return side == Side::Left ? "left" : "right"; }

  Result<HumanoidLeg> findLeg(Side side) const {
    HumanoidLeg leg;
    leg.ankle = topmost(side, kFootWords);
    if (leg.ankle >= 0) {
      leg.knee = jointAbove(leg.ankle);
      leg.thigh = leg.knee >= 0 ? jointAbove(leg.knee) : -1;
      leg.toe = childMatching(leg.ankle, kToeWords);
    } else {
      // No foot in the names (leg_joint_L_1..5): the chain of leg joints, top down.
      const auto chain = namedChain(side, kLegWords);
      if (chain.size() >= 3) {
        leg.thigh = chain[0];
        leg.knee = chain[1];
        leg.ankle = chain[2];
        leg.toe = chain.size() > 3 ? chain[3] : childMatching(leg.ankle, kToeWords);
      }
    }
    if (leg.thigh < 0 || leg.knee < 0 || leg.ankle < 0) {
      return makeError(std::string("no ") + sideName(side) + " leg: found no joint named like a " + sideName(side) +
                       " foot or ankle with a knee and thigh above it, and no chain of three " + sideName(side) +
                       " leg joints");
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
      if (chain.size() >= 3) {
        arm.upperArm = chain[0];
        arm.forearm = chain[1];
        arm.hand = chain[2];
      }
    }
    if (arm.upperArm < 0 || arm.forearm < 0 || arm.hand < 0) {
      return makeError(std::string("no ") + sideName(side) + " arm: found no joint named like a " + sideName(side) +
                       " hand or wrist with an elbow and shoulder above it, and no chain of three " + sideName(side) +
                       " arm joints");
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
  std::vector<int> mDepth;
  std::vector<JointWords> mWords;
};

}  // namespace

Result<HumanoidMap> mapHumanoid(const Skeleton& skeleton) {
  if (skeleton.boneCount() == 0) return makeError("no humanoid: the skeleton has no joints");
  return Mapper(skeleton).run();
}

}  // namespace articula
