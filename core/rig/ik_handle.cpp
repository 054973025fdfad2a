#include "core/rig/ik_handle.h"

#include <array>
#include <cctype>

namespace articula {

namespace {

constexpr std::array<std::string_view, kIkSolverKindCount> kSolverNames = {"two_bone",
                                                                           "two_bone_trig_free",
                                                                           "ccd",
                                                                           "fabrik",
                                                                           "jacobian_transpose",
                                                                           "jacobian_pseudo_inverse",
                                                                           "damped_least_squares",
                                                                           "selectively_damped_least_squares"};

constexpr std::array<std::string_view, 6> kRoleNames = {"generic",   "spine",    "left_leg",
                                                        "right_leg", "left_arm", "right_arm"};

}  // namespace

std::string_view solverKindName(IkSolverKind kind) {
  const auto i = static_cast<std::size_t>(kind);
  return i < kSolverNames.size() ? kSolverNames[i] : std::string_view("unknown");
}

std::optional<IkSolverKind> solverKindFromName(std::string_view name) {
  for (std::size_t i = 0; i < kSolverNames.size(); ++i) {
    if (kSolverNames[i] == name) return static_cast<IkSolverKind>(i);
  }
  return std::nullopt;
}

bool isSolverAvailable(IkSolverKind kind) {
  switch (kind) {
    case IkSolverKind::TwoBone:
    case IkSolverKind::TwoBoneTrigFree:
    case IkSolverKind::Ccd:
    case IkSolverKind::Fabrik:
    case IkSolverKind::JacobianTranspose:
    case IkSolverKind::JacobianPseudoInverse:
    case IkSolverKind::DampedLeastSquares:
    case IkSolverKind::SelectivelyDampedLeastSquares:
      return true;
  }
  return false;  // a value outside the enumeration (a corrupted or newer description)
}

std::string_view handleRoleName(HandleRole role) { return kRoleNames[static_cast<std::size_t>(role)]; }

std::optional<HandleRole> handleRoleFromName(std::string_view name) {
  for (std::size_t i = 0; i < kRoleNames.size(); ++i) {
    if (kRoleNames[i] == name) return static_cast<HandleRole>(i);
  }
  return std::nullopt;
}

bool IkHandle::operator==(const IkHandle& o) const {
  return name == o.name && role == o.role && solver == o.solver && chain == o.chain && limits == o.limits &&
         targetSource == o.targetSource && targetModel == o.targetModel && orientation == o.orientation &&
         orientationModel.coeffs() == o.orientationModel.coeffs() && pole == o.pole && weight == o.weight &&
         maxIterations == o.maxIterations && toleranceModel == o.toleranceModel && soften == o.soften &&
         rollRad == o.rollRad &&
         enabled == o.enabled && followers == o.followers;
}

std::string handleCurveName(std::string_view handle, std::string_view channel) {
  std::string name = "ik.";
  name.append(handle);
  name.push_back('.');
  name.append(channel);
  return name;
}

std::optional<std::string> validateHandleName(std::string_view name) {
  if (name.empty()) return std::string("the handle name is empty");
  for (const char c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-') {
      std::string message = "the handle name '";
      message.append(name);
      message.append("' has a character other than letters, digits, '_' and '-'");
      return message;
    }
  }
  return std::nullopt;
}

}  // namespace articula
