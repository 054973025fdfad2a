#include "core/rig/humanoid_roles.h"

#include <algorithm>
#include <array>

#include "core/skeleton/local_to_model.h"

namespace articula {
namespace {

constexpr std::array kRoles{
    HumanoidRole{"hips", "Hips (pelvis)", true},
    HumanoidRole{"chest", "Chest (top of the spine)", true},
    HumanoidRole{"neck", "Neck", false},
    HumanoidRole{"head", "Head", false},
    HumanoidRole{"leftThigh", "Left thigh", true},
    HumanoidRole{"leftKnee", "Left shin (knee)", true},
    HumanoidRole{"leftAnkle", "Left foot (ankle)", true},
    HumanoidRole{"leftToe", "Left toe", false},
    HumanoidRole{"leftLegTip", "Left shin tail (foot beside the leg)", false},
    HumanoidRole{"rightThigh", "Right thigh", true},
    HumanoidRole{"rightKnee", "Right shin (knee)", true},
    HumanoidRole{"rightAnkle", "Right foot (ankle)", true},
    HumanoidRole{"rightToe", "Right toe", false},
    HumanoidRole{"rightLegTip", "Right shin tail (foot beside the leg)", false},
    HumanoidRole{"leftClavicle", "Left shoulder (clavicle)", false},
    HumanoidRole{"leftUpperArm", "Left upper arm", true},
    HumanoidRole{"leftForearm", "Left forearm", true},
    HumanoidRole{"leftHand", "Left hand", true},
    HumanoidRole{"rightClavicle", "Right shoulder (clavicle)", false},
    HumanoidRole{"rightUpperArm", "Right upper arm", true},
    HumanoidRole{"rightForearm", "Right forearm", true},
    HumanoidRole{"rightHand", "Right hand", true},
};

// Joint fields of a map by role key, so reading and writing share one table.
template <typename Map>
auto roleField(Map& map, std::string_view key) -> decltype(&map.hips) {
  if (key == "hips") return &map.hips;
  if (key == "chest") return &map.chest;
  if (key == "neck") return &map.neck;
  if (key == "head") return &map.head;
  const bool left = key.starts_with("left");
  if (!left && !key.starts_with("right")) return nullptr;
  auto& leg = left ? map.leftLeg : map.rightLeg;
  auto& arm = left ? map.leftArm : map.rightArm;
  const std::string_view part = key.substr(left ? 4 : 5);
  if (part == "Thigh") return &leg.thigh;
  if (part == "Knee") return &leg.knee;
  if (part == "Ankle") return &leg.ankle;
  if (part == "Toe") return &leg.toe;
  if (part == "LegTip") return &leg.legTip;
  if (part == "Clavicle") return &arm.clavicle;
  if (part == "UpperArm") return &arm.upperArm;
  if (part == "Forearm") return &arm.forearm;
  if (part == "Hand") return &arm.hand;
  return nullptr;
}

// Checks the labelled chains hang together and completes what follows from the hierarchy:
// the spine from hips to chest, the shin's tail of a foot beside its leg.
class RoleChecker {
 public:
  explicit RoleChecker(const Skeleton& skeleton) : mSkeleton(skeleton) {}

  void below(const HumanoidMap& map, const char* upperKey, const char* lowerKey) {
    const int upper = *roleField(map, upperKey);
    const int lower = *roleField(map, lowerKey);
    if (upper < 0 || lower < 0 || (upper != lower && mSkeleton.isAncestorOrSelf(upper, lower))) return;
    problem(std::string(findHumanoidRole(lowerKey)->label) + " (" + mSkeleton.name(lower) + ") is not under the " +
            lowerCase(findHumanoidRole(upperKey)->label) + " (" + mSkeleton.name(upper) + ")");
  }

  void completeSpine(HumanoidMap& map) const {
    if (map.hips < 0 || map.chest < 0 || !mSkeleton.isAncestorOrSelf(map.hips, map.chest)) return;
    for (int j = map.chest; j != map.hips; j = mSkeleton.parent(j)) map.spine.push_back(j);
    map.spine.push_back(map.hips);
    std::reverse(map.spine.begin(), map.spine.end());
  }

  // A foot under its knee ends the leg; a foot beside it (an IK bone) needs the node at the
  // shin's tail: labelled, or the knee's child nearest the foot in the rest pose.
  void completeLegTip(HumanoidLeg& leg, const char* side) {
    if (leg.knee < 0 || leg.ankle < 0) return;
    if (mSkeleton.isAncestorOrSelf(leg.knee, leg.ankle)) {
      if (leg.legTip < 0) leg.legTip = leg.ankle;
      return;
    }
    if (leg.legTip >= 0) return;
    const std::vector<Affine> restModel = localToModel(mSkeleton, mSkeleton.restPose());
    const auto at = [&](int joint) { return restModel[static_cast<std::size_t>(joint)].translation(); };
    float best = 0.0f;
    for (int child : mSkeleton.children(leg.knee)) {
      const float d = (at(child) - at(leg.ankle)).norm();
      if (leg.legTip < 0 || d < best) {
        leg.legTip = child;
        best = d;
      }
    }
    if (leg.legTip < 0) {
      problem(std::string("the ") + side + " foot is not under the " + side +
              " knee and the knee has nothing at the shin's tail: label the shin tail");
    }
  }

  void problem(std::string text) { mProblems.push_back(std::move(text)); }
  const std::vector<std::string>& problems() const { return mProblems; }

 private:
  static std::string lowerCase(std::string text) {
    if (!text.empty()) text[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(text[0])));
    return text;
  }

  const Skeleton& mSkeleton;
  std::vector<std::string> mProblems;
};

}  // namespace

std::span<const HumanoidRole> humanoidRoles() { return kRoles; }

const HumanoidRole* findHumanoidRole(const std::string& key) {
  const auto it = std::find_if(kRoles.begin(), kRoles.end(), [&](const HumanoidRole& r) { return key == r.key; });
  return it == kRoles.end() ? nullptr : &*it;
}

std::vector<std::pair<std::string, int>> roleJoints(const HumanoidMap& map) {
  std::vector<std::pair<std::string, int>> roles;
  for (const HumanoidRole& role : kRoles) {
    const int joint = *roleField(map, role.key);
    const std::string_view key = role.key;
    const bool tip = key.ends_with("LegTip");
    if (tip && !(key.starts_with("left") ? map.leftLeg : map.rightLeg).footBesideLeg()) continue;
    if (joint >= 0) roles.emplace_back(role.key, joint);
  }
  return roles;
}

void labelRoles(Skeleton& skeleton, const HumanoidMap& map) {
  skeleton.clearRoles();
  for (const auto& [key, joint] : roleJoints(map)) {
    if (joint < skeleton.jointCount()) skeleton.setRole(joint, key);
  }
}

Result<HumanoidMap> mapHumanoidFromRoles(const Skeleton& skeleton) {
  HumanoidMap map;
  for (const HumanoidRole& role : kRoles) *roleField(map, role.key) = skeleton.findRole(role.key);
  RoleChecker check(skeleton);
  std::string missing;
  for (const HumanoidRole& role : kRoles) {
    if (role.required && *roleField(map, role.key) < 0)
      missing += (missing.empty() ? "" : ", ") + std::string(role.label) + " [" + role.key + "]";
  }
  if (!missing.empty()) check.problem("no joint for " + missing);
  for (const char* side : {"left", "right"}) {
    const std::string s = side;
    check.below(map, "hips", (s + "Thigh").c_str());
    check.below(map, (s + "Thigh").c_str(), (s + "Knee").c_str());
    check.below(map, (s + "Knee").c_str(), (s + "LegTip").c_str());
    check.below(map, (s + "Ankle").c_str(), (s + "Toe").c_str());
    const HumanoidArm& arm = s == "left" ? map.leftArm : map.rightArm;
    check.below(map, "chest", (s + (arm.clavicle >= 0 ? "Clavicle" : "UpperArm")).c_str());
    check.below(map, (s + "Clavicle").c_str(), (s + "UpperArm").c_str());
    check.below(map, (s + "UpperArm").c_str(), (s + "Forearm").c_str());
    check.below(map, (s + "Forearm").c_str(), (s + "Hand").c_str());
    check.completeLegTip(s == "left" ? map.leftLeg : map.rightLeg, side);
  }
  check.below(map, "hips", "chest");
  check.below(map, "chest", "neck");
  check.below(map, "chest", "head");
  check.below(map, "neck", "head");
  check.completeSpine(map);
  if (!check.problems().empty()) {
    std::string message = "the humanoid characterisation is incomplete: ";
    for (std::size_t i = 0; i < check.problems().size(); ++i) message += (i ? "; " : "") + check.problems()[i];
    return makeError(message);
  }
  return map;
}

}  // namespace articula
