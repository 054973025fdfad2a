#pragma once
#include <QString>

#include <optional>
#include <span>
#include <vector>

#include "core/math/transform.h"
#include "core/rig/ik_handle.h"

namespace articula {
class Skeleton;
}

namespace articula::ui {

class Document;

// Why `limit` cannot be used, in the editors' words (angles in degrees): a value that is
// not finite, a zero axis, a cone angle outside (0°, 180°], a hinge or twist minimum above
// its maximum or a range outside [-180°, 180°]. Empty when it can.
QString limitProblem(const JointLimit& limit);

// Why handle `handle` of the active rig cannot become `value`: the limits (limitProblem,
// naming the joint), a weight outside [0, 1], iterations below 1, a tolerance that is not
// positive, a pole position that is not finite, then anything Rig::bind refuses. Empty when
// it can.
QString handleProblem(const Document& document, int handle, const IkHandle& value);

// What the handle and limit editors do with an edit: push `value` for handle `handle` as
// one EditHandleCommand named `text` (folded into the previous command when `mergeable`,
// so a spin-box drag is one undo step), or refuse it when handleProblem finds a problem.
// Returns the refusal in the editors' words ("Not applied: ..."), empty when pushed.
QString pushHandleEditOrRefuse(Document& document, int handle, IkHandle value, const QString& text, bool mergeable);

// The orientation handle `handle` of the active rig asks of its tip, model space, which its
// Target rotation fields show: its orientation target (OrientationMode::Target, from its
// pose, curves or definition), else the tip's in the incoming pose (what KeepPose keeps), so
// a move of the target alone leaves the fields as they were, as a control's rotate channels
// stay when it is translated (the solved tip may still turn: grounding, limits). nullopt for
// a bad index.
std::optional<Quat> requestedOrientation(const Document& document, int handle);

// `anglesRad` with each angle in (-π, π], as rotation fields show angles (5.78°, never
// 365.78°).
Vec3 withinHalfTurn(Vec3 anglesRad);

// `handle` with its chain running from `root` (the tip itself or one of its ancestors) down
// to its tip; each joint that stays in the chain keeps its limit, new joints are free (and
// the limits stay empty when every one is free).
IkHandle withChainRoot(const Skeleton& skeleton, IkHandle handle, int root);

// The limits of `handle`, one per chain joint (free ones added when it had none).
std::vector<JointLimit> limitsPerJoint(const IkHandle& handle);

// Direction of the bone from chain joint `chainIndex` towards the next chain joint (the
// tip: towards its first child, else +x), in that joint's parent space at `localPose`.
Vec3 boneDirectionParent(const Skeleton& skeleton, std::span<const Transform> localPose, const IkHandle& handle,
                         int chainIndex);

}  // namespace articula::ui
