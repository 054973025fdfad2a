#pragma once
// Rigs as JSON (hand-editable; what the project file embeds). Joints are written by name so
// a rig survives re-ordering of the skeleton; angles in radians, positions in model space,
// quaternions as [w, x, y, z]. Every field of the definition is written, so reading what
// was written gives back an equal RigDefinition.
//
//   {"format": "articula-rig", "version": 1, "name": "humanoid",
//    "handles": [{"name": "left_leg", "role": "left_leg", "solver": "two_bone",
//                 "chain": ["LeftUpLeg", "LeftLeg", "LeftFoot"], "limits": [],
//                 "target": {"source": "pose", "position": [0, 0, 0]},
//                 "orientation": {"mode": "keep_pose", "rotation": [1, 0, 0, 0]},
//                 "pole": {"space": "joint", "joint": "LeftUpLeg", "position": [0, -0.42, 0.84]},
//                 "weight": 1, "iterations": 16, "tolerance": 8.4e-05, "soften": 1,
//                 "enabled": true}, ...],
//    "grounding": {"enabled": true, "pelvis": "Hips", "up": [0, 1, 0], "max_reach": 0.995,
//                  "left": {"toe": "LeftToeBase", "ankle_height": 0.08,
//                           "contact_curve": "contact.left_foot"}, "right": {...}}}
//
// A limit: {"kind": "free" | "cone" | "hinge", "axis": [x, y, z], "x_axis": [x, y, z],
// "half_angle_x_rad", "half_angle_y_rad", "min_rad", "max_rad", "reference": [w, x, y, z],
// "twist": null | {"min_rad", "max_rad", "reference"}}.
#include <string>
#include <string_view>

#include "core/rig/rig.h"

namespace articula {

// Joint indices of the definition must be valid for the skeleton (Rig::bind checks that).
std::string rigToJson(const RigDefinition& rig, const Skeleton& skeleton);

// Parses and resolves joint names against the skeleton. Errors name where the problem is,
// e.g. "rig JSON: handles[2] 'left_arm': chain[1]: no joint named 'LeftForeArmX' in the
// skeleton", or the parser's message with its byte offset for malformed text. Values are
// checked for type and, for enumerations, spelling; ranges are Rig::bind's to check.
Result<RigDefinition> rigFromJson(std::string_view text, const Skeleton& skeleton);

}  // namespace articula
