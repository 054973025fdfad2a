#include "ui/widgets/handle_edits.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>
#include <numbers>

#include "ui/commands/handle_commands.h"
#include "ui/document/document.h"

namespace articula::ui {

namespace {

constexpr float kRadToDeg = 180.0f / std::numbers::pi_v<float>;
// Angles come back from degree spin boxes: allow the rounding of a value typed as ±180°.
constexpr float kAngleSlackRad = 1e-5f;

QString translate(const char* text) { return QCoreApplication::translate("HandleEdits", text); }

QString degrees(float radians) {
  return QString::number(static_cast<double>(radians * kRadToDeg), 'g', 4) + QStringLiteral("°");
}

QString rangeProblem(const char* what, float minRad, float maxRad) {
  if (!std::isfinite(minRad) || !std::isfinite(maxRad))
    return translate("the %1 range is not a number").arg(QLatin1String(what));
  if (minRad > maxRad) {
    return translate("the %1 minimum (%2) is above its maximum (%3)")
        .arg(QLatin1String(what), degrees(minRad), degrees(maxRad));
  }
  if (minRad < -kPi - kAngleSlackRad || maxRad > kPi + kAngleSlackRad) {
    return translate("the %1 range (%2 to %3) reaches outside -180° to 180°")
        .arg(QLatin1String(what), degrees(minRad), degrees(maxRad));
  }
  return {};
}

}  // namespace

QString limitProblem(const JointLimit& limit) {
  if (!limit.axisParent.allFinite() || limit.axisParent.norm() < 1e-6f) {
    return translate("the limit's axis is zero or not a number");
  }
  if (limit.kind == JointLimit::Kind::Cone) {
    for (float half : {limit.halfAngleXRad, limit.halfAngleYRad}) {
      if (!std::isfinite(half) || half <= 0.0f || half > kPi + kAngleSlackRad) {
        return translate("a cone angle must be above 0° and at most 180° (got %1)").arg(degrees(half));
      }
    }
  }
  if (limit.kind == JointLimit::Kind::Hinge) {
    if (QString problem = rangeProblem("hinge", limit.minAngleRad, limit.maxAngleRad); !problem.isEmpty())
      return problem;
  }
  if (limit.twistLimited) {
    if (QString problem = rangeProblem("twist", limit.twistMinRad, limit.twistMaxRad); !problem.isEmpty())
      return problem;
  }
  if (const auto problem = limit.validate()) return QString::fromStdString(*problem);
  return {};
}

QString handleProblem(const Document& document, int handle, const IkHandle& value) {
  const Skeleton& skeleton = document.scene().skeleton;
  for (std::size_t i = 0; i < value.limits.size() && i < value.chain.size(); ++i) {
    const QString problem = limitProblem(value.limits[i]);
    if (!problem.isEmpty()) {
      return translate("limit of %1: %2").arg(QString::fromStdString(skeleton.name(value.chain[i])), problem);
    }
  }
  if (!std::isfinite(value.weight) || value.weight < 0.0f || value.weight > 1.0f) {
    return translate("the weight must be between 0 and 1 (got %1)").arg(static_cast<double>(value.weight));
  }
  if (value.maxIterations < 1) return translate("iterations must be at least 1 (got %1)").arg(value.maxIterations);
  if (!std::isfinite(value.toleranceModel) || value.toleranceModel <= 0.0f) {
    return translate("the tolerance must be above 0 (got %1)").arg(static_cast<double>(value.toleranceModel));
  }
  if (!value.pole.position.allFinite()) return translate("the pole position is not a number");
  return EditHandleCommand::validate(document, handle, value);
}

QString pushHandleEditOrRefuse(Document& document, int handle, IkHandle value, const QString& text, bool mergeable) {
  const QString problem = handleProblem(document, handle, value);
  if (!problem.isEmpty()) return translate("Not applied: %1").arg(problem);
  auto* command = new EditHandleCommand(&document, handle, std::move(value), text);
  command->setMergeable(mergeable);
  document.undoStack()->push(command);
  return {};
}

std::vector<JointLimit> limitsPerJoint(const IkHandle& handle) {
  std::vector<JointLimit> limits = handle.limits;
  limits.resize(handle.chain.size());
  return limits;
}

IkHandle withChainRoot(const Skeleton& skeleton, IkHandle handle, int root) {
  if (handle.chain.empty()) return handle;
  std::vector<int> chain;
  for (int j = handle.chain.back(); j != kNoParent; j = skeleton.parent(j)) {
    chain.push_back(j);
    if (j == root) break;
  }
  if (chain.back() != root) return handle;
  std::reverse(chain.begin(), chain.end());
  const std::vector<JointLimit> old = limitsPerJoint(handle);
  std::vector<JointLimit> limits(chain.size());
  bool anyLimit = false;
  for (std::size_t i = 0; i < chain.size(); ++i) {
    const auto found = std::find(handle.chain.begin(), handle.chain.end(), chain[i]);
    if (found != handle.chain.end()) limits[i] = old[static_cast<std::size_t>(found - handle.chain.begin())];
    anyLimit |= limits[i] != JointLimit::free();
  }
  handle.chain = std::move(chain);
  handle.limits = anyLimit ? std::move(limits) : std::vector<JointLimit>{};
  return handle;
}

Vec3 boneDirectionParent(const Skeleton& skeleton, std::span<const Transform> localPose, const IkHandle& handle,
                         int chainIndex) {
  const auto index = static_cast<std::size_t>(chainIndex);
  if (index >= handle.chain.size()) return Vec3::UnitX();
  const int joint = handle.chain[index];
  int next = index + 1 < handle.chain.size() ? handle.chain[index + 1] : -1;
  if (next < 0) {
    for (int j = joint + 1; j < skeleton.jointCount(); ++j) {
      if (skeleton.parent(j) == joint) {
        next = j;
        break;
      }
    }
  }
  // The next joint on the line may sit below twist joints: walk up to the child of `joint`.
  while (next >= 0 && skeleton.parent(next) != joint) next = skeleton.parent(next);
  if (next < 0 || static_cast<std::size_t>(joint) >= localPose.size()) return Vec3::UnitX();
  const Vec3 boneLocal = localPose[static_cast<std::size_t>(next)].translation;
  if (boneLocal.norm() < 1e-9f) return Vec3::UnitX();
  return (localPose[static_cast<std::size_t>(joint)].rotation * boneLocal).normalized();
}

std::optional<Quat> requestedOrientation(const Document& document, int handle) {
  const std::optional<IkHandle> shown = document.shownHandle(handle);
  if (!shown) return std::nullopt;
  const auto incoming = document.inputModelPose();
  if (shown->orientation == OrientationMode::Target || shown->chain.empty() ||
      static_cast<std::size_t>(shown->chain.back()) >= incoming.size())
    return shown->orientationModel.normalized();
  return Quat(incoming[static_cast<std::size_t>(shown->chain.back())].rotation()).normalized();
}

Vec3 withinHalfTurn(Vec3 anglesRad) {
  constexpr float kTurn = 2.0f * std::numbers::pi_v<float>;
  for (int axis = 0; axis < 3; ++axis) {
    float& angle = anglesRad[axis];
    angle = std::remainder(angle, kTurn);  // [-π, π]
    if (angle <= -std::numbers::pi_v<float>) angle += kTurn;
  }
  return anglesRad;
}

}  // namespace articula::ui
