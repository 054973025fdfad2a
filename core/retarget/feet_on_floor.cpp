#include "core/retarget/feet_on_floor.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "core/bake/contact_detection.h"
#include "core/ik/two_bone_ik.h"
#include "core/retarget/retarget_frame.h"
#include "core/skeleton/local_to_model.h"

namespace articula {

namespace {

// The joint that carries a leg's foot: the ankle, or the leg's tip without one.
int footRoot(const HumanoidLeg& leg) { return leg.ankle >= 0 ? leg.ankle : leg.legTip; }

// Which foot (0 left, 1 right) `joint` belongs to, -1 for none.
int footOf(const Skeleton& skeleton, const HumanoidMap& map, int joint) {
  const HumanoidLeg* legs[] = {&map.leftLeg, &map.rightLeg};
  for (int side = 0; side < 2; ++side) {
    const int root = footRoot(*legs[side]);
    if (root >= 0 && joint >= 0 && skeleton.isAncestorOrSelf(root, joint)) return side;
  }
  return -1;
}

// A mesh vertex at rest: where it is, the joint weighing most on it (-1 for none) and how
// its joints carry it.
struct RestVertex {
  Vec3 position = Vec3::Zero();
  int strongest = -1;
  FootPoint point;
};

RestVertex skinnedAtRest(const Mesh& mesh, std::size_t v, std::span<const Affine> restModel) {
  const Skin& skin = mesh.skin;
  const auto n = static_cast<std::size_t>(skin.influencesPerVertex);
  RestVertex vertex;
  float strongestWeight = 0.0f;
  for (std::size_t k = v * n; k < (v + 1) * n && k < skin.vertexWeights.size(); ++k) {
    const float weight = skin.vertexWeights[k];
    const std::size_t slot = skin.vertexJoints[k];
    if (!(weight > 0.0f) || slot >= skin.joints.size() || slot >= skin.inverseBindMatrices.size()) continue;
    const int joint = skin.joints[slot];
    const Vec3 local = (skin.inverseBindMatrices[slot] * mesh.positions[v].homogeneous()).head<3>();
    vertex.point.carriers.push_back({joint, weight, local});
    if (weight > strongestWeight) {
      strongestWeight = weight;
      vertex.strongest = joint;
    }
  }
  // A vertex no joint weighs on stays where the skin's bind put it.
  vertex.position = vertex.point.carriers.empty() ? mesh.positions[v] : vertex.point.at(restModel);
  return vertex;
}

// Every mesh vertex at rest.
std::vector<RestVertex> verticesAtRest(const Scene& character, std::span<const Affine> restModel) {
  std::vector<RestVertex> vertices;
  const int joints = character.skeleton.jointCount();
  for (const Mesh& mesh : character.meshes) {
    for (std::size_t v = 0; v < mesh.positions.size(); ++v) {
      if (mesh.hasSkin) {
        vertices.push_back(skinnedAtRest(mesh, v, restModel));
      } else if (mesh.node >= 0 && mesh.node < joints) {
        const Vec3 position = restModel[static_cast<std::size_t>(mesh.node)] * mesh.positions[v];
        vertices.push_back({position, mesh.node, {{{mesh.node, 1.0f, mesh.positions[v]}}}});
      } else {
        vertices.push_back({mesh.positions[v], -1, {}});
      }
    }
  }
  return vertices;
}

// The lowest foot point of `model` above the floor, per side (infinity for a foot without points).
std::array<float, 2> clearances(const CharacterSoles& soles, std::span<const Affine> model) {
  std::array<float, 2> lowest{std::numeric_limits<float>::infinity(), std::numeric_limits<float>::infinity()};
  for (std::size_t side = 0; side < 2; ++side) {
    for (const FootPoint& point : soles.feet[side]) {
      lowest[side] = std::min(lowest[side], soles.up.dot(point.at(model)) - soles.floorHeight);
    }
  }
  return lowest;
}

// Half-width of the windows the hips' move is smoothed over.
constexpr double kHipsSmoothingSeconds = 0.025;

// `values` per frame filtered over `half` frames on either side (the window shortened at the
// ends): the lowest, or the mean.
std::vector<float> filtered(const std::vector<float>& values, std::size_t half, bool lowest) {
  std::vector<float> out(values.size(), 0.0f);
  for (std::size_t f = 0; f < values.size(); ++f) {
    const auto first = values.begin() + static_cast<std::ptrdiff_t>(f > half ? f - half : 0);
    const auto last = values.begin() + static_cast<std::ptrdiff_t>(std::min(values.size() - 1, f + half)) + 1;
    out[f] = lowest ? *std::min_element(first, last)
                    : static_cast<float>(std::accumulate(first, last, 0.0) / static_cast<double>(last - first));
  }
  return out;
}

// `move` without steps: the lowest within kHipsSmoothingSeconds, then the mean of that. It
// is nowhere above `move`, so a planted foot is never left above the floor for its leg to
// reach down to (a straight leg cannot), only below it, which a leg bending lifts it from.
std::vector<float> smoothed(const std::vector<float>& move, double frameRate) {
  const auto half = static_cast<std::size_t>(std::lround(kHipsSmoothingSeconds * frameRate));
  return filtered(filtered(move, half, true), half, false);
}

// The hips' move per frame: where a foot is planted, what puts the highest planted sole on
// the floor (a lower one is raised by its leg, which can always bend, where reaching down
// may need a leg longer than it is); between, the line between the moves on either side
// (held before the first and after the last); none planted anywhere: 0. Smoothed, as the
// highest planted foot changes where a contact starts or ends (CMU 02_01 on the mannequin:
// the hips rose 27 mm from one frame to the next as the left foot left the floor); the legs
// then put the planted feet down (reachTheFloor).
std::vector<float> plantedMoves(const std::vector<std::array<float, 2>>& clearance,
                                const std::array<std::vector<bool>, 2>& planted, double frameRate) {
  const auto frames = clearance.size();
  std::vector<float> move(frames, 0.0f);
  std::vector<std::size_t> known;
  for (std::size_t f = 0; f < frames; ++f) {
    float highest = -std::numeric_limits<float>::infinity();
    for (std::size_t side = 0; side < 2; ++side) {
      if (f < planted[side].size() && planted[side][f]) highest = std::max(highest, clearance[f][side]);
    }
    if (highest == -std::numeric_limits<float>::infinity()) continue;
    move[f] = -highest;
    known.push_back(f);
  }
  if (known.empty()) return move;
  for (std::size_t f = 0; f < known.front(); ++f) move[f] = move[known.front()];
  for (std::size_t f = known.back() + 1; f < frames; ++f) move[f] = move[known.back()];
  for (std::size_t k = 0; k + 1 < known.size(); ++k) {
    const std::size_t a = known[k];
    const std::size_t b = known[k + 1];
    for (std::size_t f = a + 1; f < b; ++f) {
      const float s = static_cast<float>(f - a) / static_cast<float>(b - a);
      move[f] = (1.0f - s) * move[a] + s * move[b];
    }
  }
  return smoothed(move, frameRate);
}

DenseTrack* translationTrack(DenseClip& dense, int joint) {
  for (DenseTrack& track : dense.tracks) {
    if (track.joint == joint && track.translates) return &track;
  }
  return nullptr;
}

DenseTrack* rotationTrack(DenseClip& dense, int joint) {
  for (DenseTrack& track : dense.tracks) {
    if (track.joint == joint && track.rotates) return &track;
  }
  return nullptr;
}

// Moves the hips by `move` (per frame, along `up`), and a foot beside its leg with them.
void moveHips(const Skeleton& target, const HumanoidMap& map, const Vec3& up, const std::vector<float>& move,
              DenseClip& dense) {
  std::vector<int> moved{map.hips};
  for (const HumanoidLeg* leg : {&map.leftLeg, &map.rightLeg}) {
    if (leg->ankle >= 0 && leg->footBesideLeg() && !target.isAncestorOrSelf(map.hips, leg->ankle))
      moved.push_back(leg->ankle);
  }
  std::vector<Transform> pose(target.restPose().begin(), target.restPose().end());
  for (std::size_t f = 0; f < move.size(); ++f) {
    if (move[f] == 0.0f) continue;
    dense.samplePose(static_cast<int>(f), pose);
    const std::vector<Affine> model = localToModel(target, pose);
    for (const int joint : moved) {
      DenseTrack* track = translationTrack(dense, joint);
      if (track == nullptr || f >= track->translation.size()) continue;
      const int parent = target.parent(joint);
      const Vec3 shift = up * move[f];
      track->translation[f] +=
          parent == kNoParent ? shift : Vec3(model[static_cast<std::size_t>(parent)].linear().inverse() * shift);
    }
  }
}

// Largest turn toeUp gives a foot, and the step it searches in.
constexpr float kMostToeUpRad = 60.0f * 3.14159265f / 180.0f;
constexpr float kToeUpStepRad = 2.0f * 3.14159265f / 180.0f;

// The lowest of `points` above the floor once turned by `turn` about `pivot`.
float lowestTurned(const std::vector<Vec3>& points, const Vec3& pivot, const Quat& turn, const CharacterSoles& soles) {
  float lowest = std::numeric_limits<float>::infinity();
  for (const Vec3& p : points) lowest = std::min(lowest, soles.up.dot(pivot + turn * (p - pivot)) - soles.floorHeight);
  return lowest;
}

// Turns the foot of `side` (its ankle's rotation at frame f in `ankle`) toe up about the
// ankle, by the least angle up to kMostToeUpRad that brings its points onto the floor (the
// best angle when none does); returns their lowest height above the floor after the turn.
float toeUp(const Skeleton& target, const CharacterSoles& soles, std::size_t side, std::span<const Affine> model,
            DenseTrack& ankle, std::size_t f) {
  const Vec3 pivot = model[static_cast<std::size_t>(ankle.joint)].translation();
  std::vector<Vec3> points;
  for (const FootPoint& point : soles.feet[side]) points.push_back(point.at(model));
  const auto lowestPoint = std::min_element(
      points.begin(), points.end(), [&](const Vec3& a, const Vec3& b) { return soles.up.dot(a) < soles.up.dot(b); });
  const Vec3 axis = (*lowestPoint - pivot).cross(soles.up);
  const float before = lowestTurned(points, pivot, Quat::Identity(), soles);
  if (axis.norm() < 1e-6f) return before;
  const auto turnBy = [&](float angle) { return Quat(Eigen::AngleAxisf(angle, axis.normalized())); };
  float below = 0.0f;
  float best = 0.0f;
  float bestLowest = before;
  const int steps = static_cast<int>(std::lround(kMostToeUpRad / kToeUpStepRad));
  for (int step = 1; step <= steps; ++step) {
    const float angle = static_cast<float>(step) * kToeUpStepRad;
    const float lowest = lowestTurned(points, pivot, turnBy(angle), soles);
    if (lowest > bestLowest) {
      best = angle;
      bestLowest = lowest;
    }
    if (lowest >= 0.0f) break;
    below = angle;
  }
  // The least angle on the floor, between the last step below and the first above.
  for (int i = 0; i < 12 && bestLowest >= 0.0f; ++i) {
    const float middle = 0.5f * (below + best);
    const float lowest = lowestTurned(points, pivot, turnBy(middle), soles);
    if (lowest >= 0.0f) {
      best = middle;
      bestLowest = lowest;
    } else {
      below = middle;
    }
  }
  if (best == 0.0f || f >= ankle.rotation.size()) return before;
  const int parent = target.parent(ankle.joint);
  const Quat parentModel =
      parent == kNoParent ? Quat::Identity() : Quat(model[static_cast<std::size_t>(parent)].rotation());
  ankle.rotation[f] = (parentModel.conjugate() * turnBy(best) * parentModel * ankle.rotation[f]).normalized();
  return bestLowest;
}

// How long a planted foot's leg eases into and out of the reach that puts it on the floor.
constexpr double kLegRampSeconds = 0.05;

// Per frame, how far each foot's leg moves it along the up: where planted, onto the floor
// (by its clearance); elsewhere the move of the nearest planted frame, eased to nothing over
// kLegRampSeconds.
std::array<std::vector<float>, 2> legMoves(const std::vector<std::array<float, 2>>& clearance,
                                           const std::array<std::vector<bool>, 2>& planted, double frameRate) {
  const auto frames = clearance.size();
  const double ramp = std::max(1.0, kLegRampSeconds * frameRate);
  std::array<std::vector<float>, 2> move{std::vector<float>(frames, 0.0f), std::vector<float>(frames, 0.0f)};
  // Frames before the first contact and after the last play the source's legs (a capture's
  // T-pose frame is no contact's approach).
  std::size_t firstContact = frames, lastContact = 0;
  for (std::size_t f = 0; f < frames; ++f) {
    if (!((f < planted[0].size() && planted[0][f]) || (f < planted[1].size() && planted[1][f]))) continue;
    firstContact = std::min(firstContact, f);
    lastContact = f;
  }
  for (std::size_t side = 0; side < 2; ++side) {
    const auto isPlanted = [&](std::size_t f) { return f < planted[side].size() && planted[side][f]; };
    for (std::size_t f = 0; f < frames; ++f) {
      if (isPlanted(f)) move[side][f] = -clearance[f][side];
    }
    // Eased out after each contact and in before the next, the larger where they meet.
    for (std::size_t f = 0; f < frames; ++f) {
      if (!isPlanted(f)) continue;
      for (std::size_t k = 1; k < static_cast<std::size_t>(ramp); ++k) {
        const auto weight = static_cast<float>(1.0 - static_cast<double>(k) / ramp);
        for (const std::size_t g : {f + k, f - k}) {
          // f - k wraps above frames at the start.
          if (g >= frames || g < firstContact || g > lastContact || isPlanted(g)) continue;
          const float eased = weight * move[side][f];
          if (std::abs(eased) > std::abs(move[side][g])) move[side][g] = eased;
        }
      }
    }
  }
  return move;
}

// Writes the channels `dense` animates of `joints` at frame f from `pose`.
void storeFrame(DenseClip& dense, std::size_t f, std::span<const Transform> pose, const std::vector<int>& joints) {
  for (DenseTrack& track : dense.tracks) {
    if (std::find(joints.begin(), joints.end(), track.joint) == joints.end()) continue;
    const Transform& local = pose[static_cast<std::size_t>(track.joint)];
    if (track.rotates && f < track.rotation.size()) {
      const bool flip = f > 0 && track.rotation[f - 1].dot(local.rotation) < 0.0f;
      track.rotation[f] = flip ? Quat(-local.rotation.coeffs()) : local.rotation;
    }
    if (track.translates && f < track.translation.size()) track.translation[f] = local.translation;
  }
}

// Moves the foot of `leg` by `move` along `up` with the leg's two-bone IK (the knee kept in
// the plane it bends in), the foot keeping its turn in model space; a foot beside the leg
// goes to the shin's new tail. Returns the joints whose local transforms changed.
std::vector<int> reachWithLeg(const Skeleton& target, const HumanoidLeg& leg, const Vec3& up, float move,
                              std::vector<Transform>& pose) {
  const std::vector<Affine> model = localToModel(target, pose);
  TwoBoneIkJob ik;
  ik.skeleton = &target;
  ik.startJoint = leg.thigh;
  ik.midJoint = leg.knee;
  ik.endJoint = leg.legTip;
  ik.pose = pose;
  ik.model = model;
  ik.targetModel = model[static_cast<std::size_t>(leg.legTip)].translation() + up * move;
  ik.poleMode = TwoBoneIkJob::PoleMode::Target;
  ik.poleModel = model[static_cast<std::size_t>(leg.knee)].translation();
  ik.soften = 1.0f;
  if (!ik.run()) return {};
  std::vector<int> changed{leg.thigh, leg.knee};
  if (leg.ankle < 0) return changed;
  const std::vector<Affine> solved = localToModel(target, pose);
  const int parent = target.parent(leg.ankle);
  const auto a = static_cast<std::size_t>(leg.ankle);
  if (leg.footBesideLeg()) {
    const Vec3 tail = solved[static_cast<std::size_t>(leg.legTip)].translation();
    pose[a].translation = parent == kNoParent ? tail : solved[static_cast<std::size_t>(parent)].inverse() * tail;
  } else if (parent != kNoParent) {
    const Quat footModel(model[a].rotation());
    pose[a].rotation = (Quat(solved[static_cast<std::size_t>(parent)].rotation()).conjugate() * footModel).normalized();
  }
  changed.push_back(leg.ankle);
  return changed;
}

// Each planted foot onto the floor by its leg (legMoves), eased in and out. A planted foot
// without toes that goes below the floor turns toe up instead: a rigid shoe pitched as the
// source's foot rolls onto its toes (RobotExpressive's on CMU 02_01) dips its tip through
// the floor, where bending the knee to lift it would turn the shin by 25°.
void reachTheFloor(const Skeleton& target, const HumanoidMap& map, const CharacterSoles& soles,
                   const std::array<std::vector<bool>, 2>& planted, DenseClip& dense) {
  const auto frames = static_cast<std::size_t>(std::max(dense.frames, 0));
  const HumanoidLeg* legs[] = {&map.leftLeg, &map.rightLeg};
  std::vector<Transform> pose(target.restPose().begin(), target.restPose().end());
  std::vector<std::array<float, 2>> clearance(frames);
  for (std::size_t f = 0; f < frames; ++f) {
    dense.samplePose(static_cast<int>(f), pose);
    clearance[f] = clearances(soles, localToModel(target, pose));
    for (std::size_t side = 0; side < 2; ++side) {
      DenseTrack* ankle = rotationTrack(dense, footRoot(*legs[side]));
      const bool held = f < planted[side].size() && planted[side][f];
      if (!held || legs[side]->toe >= 0 || !(clearance[f][side] < 0.0f) || ankle == nullptr) continue;
      clearance[f][side] = toeUp(target, soles, side, localToModel(target, pose), *ankle, f);
    }
  }
  const std::array<std::vector<float>, 2> move = legMoves(clearance, planted, dense.frameRate);
  for (std::size_t f = 0; f < frames; ++f) {
    if (move[0][f] == 0.0f && move[1][f] == 0.0f) continue;
    dense.samplePose(static_cast<int>(f), pose);
    for (std::size_t side = 0; side < 2; ++side) {
      if (move[side][f] == 0.0f) continue;
      storeFrame(dense, f, pose, reachWithLeg(target, *legs[side], soles.up, move[side][f], pose));
    }
  }
}

// How far a free foot's leg lifts it before the foot turns instead, in leg lengths: the
// leg's bones turn by about as many radians, the foot's by tens of degrees.
constexpr float kMostLegLiftOfLegs = 0.1f;

// A free foot that would go through the floor, on a frame where the other foot is planted,
// is lifted by its leg (up to kMostLegLiftOfLegs), else (and a foot without toes, a rigid
// shoe, first) turns toe up, then its leg lifts what is left; returns per frame how far the hips must rise for what
// stays below (all of it where no foot is planted: the body rises as it is, a capture's T-pose frame hanging below).
std::vector<float> freeFeetAboveFloor(const Skeleton& target, const HumanoidMap& map, const CharacterSoles& soles,
                                      const std::array<std::vector<bool>, 2>& planted, DenseClip& dense) {
  const auto frames = static_cast<std::size_t>(std::max(dense.frames, 0));
  std::vector<Transform> pose(target.restPose().begin(), target.restPose().end());
  const HumanoidLeg* legs[] = {&map.leftLeg, &map.rightLeg};
  const auto held = [&](std::size_t side, std::size_t f) { return f < planted[side].size() && planted[side][f]; };
  std::vector<float> lift(frames, 0.0f);
  for (std::size_t f = 0; f < frames; ++f) {
    dense.samplePose(static_cast<int>(f), pose);
    std::array<float, 2> lowest = clearances(soles, localToModel(target, pose));
    for (std::size_t side = 0; side < 2 && (held(0, f) || held(1, f)); ++side) {
      DenseTrack* ankle = rotationTrack(dense, footRoot(*legs[side]));
      if (held(side, f) || !(lowest[side] < 0.0f) || ankle == nullptr) continue;
      if (legs[side]->toe < 0 || -lowest[side] > kMostLegLiftOfLegs * soles.legLength) {
        toeUp(target, soles, side, localToModel(target, pose), *ankle, f);
        dense.samplePose(static_cast<int>(f), pose);
        lowest[side] = clearances(soles, localToModel(target, pose))[side];
      }
      if (!(lowest[side] < 0.0f)) continue;
      storeFrame(dense, f, pose, reachWithLeg(target, *legs[side], soles.up, -lowest[side], pose));
      lowest[side] = clearances(soles, localToModel(target, pose))[side];
    }
    lift[f] = std::max(0.0f, -std::min(lowest[0], lowest[1]));
  }
  return lift;
}

}  // namespace

CharacterSoles characterSoles(const Scene& character, const HumanoidMap& map) {
  const Skeleton& skeleton = character.skeleton;
  const std::vector<Affine> restModel = localToModel(skeleton, skeleton.restPose());
  CharacterSoles soles;
  soles.up = groundFrame(characterFrame(map, restModel)).col(1);
  soles.legLength = legLength(map, restModel);
  soles.floorHeight = std::numeric_limits<float>::infinity();
  for (RestVertex& vertex : verticesAtRest(character, restModel)) {
    soles.floorHeight = std::min(soles.floorHeight, soles.up.dot(vertex.position));
    const int side = footOf(skeleton, map, vertex.strongest);
    if (side >= 0) soles.feet[static_cast<std::size_t>(side)].push_back(std::move(vertex.point));
  }
  if (!soles.feet[0].empty() && !soles.feet[1].empty()) return soles;
  // No mesh on the feet: their joints stand for them.
  soles.feet = {};
  const HumanoidLeg* legs[] = {&map.leftLeg, &map.rightLeg};
  for (int side = 0; side < 2; ++side) {
    for (const int joint : {legs[side]->ankle, legs[side]->toe, legs[side]->legTip}) {
      if (joint >= 0) soles.feet[static_cast<std::size_t>(side)].push_back({{{joint, 1.0f, Vec3::Zero()}}});
    }
  }
  soles.floorHeight = lowestFootHeight(map, restModel, soles.up);
  return soles;
}

std::array<std::vector<bool>, 2> plantedFrames(const Skeleton& skeleton, const HumanoidMap& map, const Clip& clip,
                                               const Vec3& up) {
  const auto frames = static_cast<std::size_t>(std::max(clip.frameCount(), 0));
  std::array<std::vector<bool>, 2> planted{std::vector<bool>(frames, false), std::vector<bool>(frames, false)};
  if (map.leftLeg.ankle < 0 || map.rightLeg.ankle < 0) return planted;
  Scene scene;
  scene.skeleton = skeleton;
  Clip detected = clip;
  auto foot = [](const char* curve, const HumanoidLeg& leg) {
    return FootJoints{curve, leg.ankle, leg.toe, leg.footBesideLeg() ? leg.legTip : -1};
  };
  ContactDetectionOptions options;
  options.upModel = up;
  auto detection = detectContacts(
      scene, detected, {foot("contact.left_foot", map.leftLeg), foot("contact.right_foot", map.rightLeg)}, options);
  if (!detection) return planted;
  for (std::size_t side = 0; side < 2 && side < detection->feet.size(); ++side) {
    for (const ContactInterval& span : detection->feet[side].foot) {
      for (int f = std::max(span.first, 0); f <= span.last && static_cast<std::size_t>(f) < frames; ++f)
        planted[side][static_cast<std::size_t>(f)] = true;
    }
  }
  return planted;
}

void standOnFloor(const Skeleton& target, const HumanoidMap& map, const CharacterSoles& soles,
                  const std::array<std::vector<bool>, 2>& planted, DenseClip& dense) {
  const auto frames = static_cast<std::size_t>(std::max(dense.frames, 0));
  std::vector<Transform> pose(target.restPose().begin(), target.restPose().end());
  std::vector<std::array<float, 2>> clearance(frames);
  for (std::size_t f = 0; f < frames; ++f) {
    dense.samplePose(static_cast<int>(f), pose);
    clearance[f] = clearances(soles, localToModel(target, pose));
  }
  moveHips(target, map, soles.up, plantedMoves(clearance, planted, dense.frameRate), dense);
  reachTheFloor(target, map, soles, planted, dense);
  moveHips(target, map, soles.up, freeFeetAboveFloor(target, map, soles, planted, dense), dense);
}

}  // namespace articula
