// The mannequin's skinned mesh: one closed lofted surface per body part (torso, neck, head,
// upper arms, forearms, hands, thighs, shins, feet), overlapping at the joints like the
// segments of an artist's mannequin. Each part is a stack of elliptical rings along an axis,
// closed by elliptical domes, and skinned by the vertex's position along that axis, so
// parts that meet at a joint blend the same two bones with the same weights there.
#include <algorithm>
#include <array>
#include <cmath>
#include <string>

#include "core/samples/mannequin.h"

namespace articula {

namespace {

// One cross-section of a part. `h` is measured along the part's axis from its origin;
// `rx`/`rz` are the half-widths along the part's side axis and its front axis (axis × side);
// `offset` shifts the ring's centre, in model space.
struct Ring {
  float h = 0.0f;
  float rx = 0.0f;
  float rz = 0.0f;
  Vec3 offset = Vec3::Zero();
};

// Skinning along a part's axis: from `h` on (axial coordinate, same space as Ring::h) the
// vertex belongs to `joint`, blended over ±halfWidth with the previous station's joint.
// The first station's `h` is ignored.
struct Station {
  std::string joint;
  float h = 0.0f;
  float halfWidth = 0.0f;
};

struct Part {
  Vec3 origin = Vec3::Zero();   // model space
  Vec3 axis = Vec3::UnitY();    // model space, unit
  Vec3 sideHint = Vec3::UnitX();
  std::vector<Ring> rings;      // increasing h
  float capStart = 0.0f;        // dome length before the first ring, along the axis
  float capEnd = 0.0f;          // dome length after the last ring
  float exponent = 2.0f;        // cross-section super-ellipse exponent (2 = ellipse)
  int segments = 20;            // vertices around (plus a seam duplicate for the UVs)
  int rowsPerSpan = 3;
  int capRows = 4;
  std::vector<Station> stations;
};

float smoothstep01(float x) {
  const float t = std::clamp(x, 0.0f, 1.0f);
  return t * t * (3.0f - 2.0f * t);
}

// Uniform Catmull-Rom between rings b and c (a and d their neighbours, clamped at the ends):
// smooth radii and centres without creases at the ring heights.
Ring interpolateRing(const Ring& a, const Ring& b, const Ring& c, const Ring& d, float u) {
  const auto cr = [u](float p0, float p1, float p2, float p3) {
    return 0.5f * ((2.0f * p1) + (-p0 + p2) * u + (2.0f * p0 - 5.0f * p1 + 4.0f * p2 - p3) * u * u +
                   (-p0 + 3.0f * p1 - 3.0f * p2 + p3) * u * u * u);
  };
  Ring r;
  r.h = cr(a.h, b.h, c.h, d.h);
  r.rx = std::max(cr(a.rx, b.rx, c.rx, d.rx), 1e-3f);
  r.rz = std::max(cr(a.rz, b.rz, c.rz, d.rz), 1e-3f);
  for (int k = 0; k < 3; ++k) r.offset[k] = cr(a.offset[k], b.offset[k], c.offset[k], d.offset[k]);
  return r;
}

// Rows of the loft from the start pole to the end pole. Pole rows have zero radii.
std::vector<Ring> buildRows(const Part& part) {
  std::vector<Ring> rows;
  const Ring& first = part.rings.front();
  const Ring& last = part.rings.back();
  for (int k = 0; k < part.capRows; ++k) {
    const float angle = 0.5f * kPi * static_cast<float>(k) / static_cast<float>(part.capRows);
    rows.push_back({first.h - part.capStart * std::cos(angle), first.rx * std::sin(angle),
                    first.rz * std::sin(angle), first.offset});
  }
  const std::size_t n = part.rings.size();
  for (std::size_t i = 0; i + 1 < n; ++i) {
    const Ring& a = part.rings[i == 0 ? 0 : i - 1];
    const Ring& d = part.rings[std::min(i + 2, n - 1)];
    for (int k = 0; k < part.rowsPerSpan; ++k) {
      const float u = static_cast<float>(k) / static_cast<float>(part.rowsPerSpan);
      rows.push_back(interpolateRing(a, part.rings[i], part.rings[i + 1], d, u));
    }
  }
  rows.push_back(last);
  for (int k = part.capRows - 1; k >= 0; --k) {
    const float angle = 0.5f * kPi * static_cast<float>(k) / static_cast<float>(part.capRows);
    rows.push_back({last.h + part.capEnd * std::cos(angle), last.rx * std::sin(angle),
                    last.rz * std::sin(angle), last.offset});
  }
  return rows;
}

float signedPower(float v, float p) { return std::copysign(std::pow(std::abs(v), p), v); }

// Skin weights of a point at axial coordinate h: a partition of unity made of shifted
// smoothsteps, one per station boundary, so neighbouring parts agree at shared joints.
struct Influence {
  int joint = 0;
  float weight = 0.0f;
};
std::vector<Influence> stationWeights(const Part& part, const std::vector<int>& stationJoints, float h) {
  const std::size_t n = part.stations.size();
  std::vector<float> above(n + 1, 0.0f);  // above[k]: how much the point lies past station k
  above[0] = 1.0f;
  for (std::size_t k = 1; k < n; ++k) {
    const Station& s = part.stations[k];
    above[k] = smoothstep01((h - s.h + s.halfWidth) / (2.0f * s.halfWidth));
  }
  std::vector<Influence> result;
  for (std::size_t k = 0; k < n; ++k) {
    const float w = std::max(above[k] - above[k + 1], 0.0f);
    if (w > 1e-4f) result.push_back({stationJoints[k], w});
  }
  return result;
}

void appendPart(const Part& part, int tile, const Skeleton& skeleton, Mesh& mesh,
                std::vector<std::array<Influence, 4>>& influences) {
  const Vec3 axis = part.axis.normalized();
  const Vec3 side = (part.sideHint - part.sideHint.dot(axis) * axis).normalized();
  const Vec3 front = axis.cross(side);  // (side, front, axis) is right-handed
  const std::vector<Ring> rows = buildRows(part);
  const int rowCount = static_cast<int>(rows.size());
  const int columns = part.segments + 1;
  const float exponent = 2.0f / part.exponent;

  std::vector<int> stationJoints;
  for (const Station& s : part.stations) stationJoints.push_back(skeleton.findJoint(s.joint));

  const auto base = static_cast<std::uint32_t>(mesh.positions.size());
  std::vector<Vec3> grid(static_cast<std::size_t>(rowCount * columns));
  for (int r = 0; r < rowCount; ++r) {
    const Ring& ring = rows[static_cast<std::size_t>(r)];
    for (int c = 0; c < columns; ++c) {
      const float angle = 2.0f * kPi * static_cast<float>(c % part.segments) / static_cast<float>(part.segments);
      const float cx = signedPower(std::cos(angle), exponent);
      const float cz = signedPower(std::sin(angle), exponent);
      grid[static_cast<std::size_t>(r * columns + c)] =
          part.origin + ring.offset + ring.h * axis + ring.rx * cx * side + ring.rz * cz * front;
    }
  }
  const auto at = [&](int r, int c) -> const Vec3& { return grid[static_cast<std::size_t>(r * columns + c)]; };

  // UVs: the part's (around, along) square packed into one tile of a 4 × 4 atlas.
  const float tileU = static_cast<float>(tile % 4) * 0.25f;
  const float tileV = static_cast<float>(tile / 4) * 0.25f;
  for (int r = 0; r < rowCount; ++r) {
    for (int c = 0; c < columns; ++c) {
      const Vec3& p = at(r, c);
      // Central differences on the grid (around wraps past the seam); the cross product
      // of around × along points outwards for the (side, front, axis) frame.
      Vec3 normal;
      if (r == 0) {
        normal = -axis;
      } else if (r == rowCount - 1) {
        normal = axis;
      } else {
        const int prev = c == 0 ? part.segments - 1 : c - 1;
        const int next = c == part.segments ? 1 : c + 1;
        const Vec3 around = at(r, next) - at(r, prev);
        const Vec3 along = at(r + 1, c) - at(r - 1, c);
        normal = around.cross(along).normalized();
      }
      mesh.positions.push_back(p);
      mesh.normals.push_back(normal);
      const float u = static_cast<float>(c) / static_cast<float>(part.segments);
      const float v = static_cast<float>(r) / static_cast<float>(rowCount - 1);
      mesh.texCoords.emplace_back(tileU + 0.25f * (0.02f + 0.96f * u), tileV + 0.25f * (0.02f + 0.96f * v));

      std::vector<Influence> weights = stationWeights(part, stationJoints, (p - part.origin).dot(axis));
      std::sort(weights.begin(), weights.end(), [](const Influence& a, const Influence& b) { return a.weight > b.weight; });
      weights.resize(std::min<std::size_t>(weights.size(), 4));
      float sum = 0.0f;
      for (const Influence& w : weights) sum += w.weight;
      std::array<Influence, 4> slots{};
      for (std::size_t k = 0; k < weights.size(); ++k) slots[k] = {weights[k].joint, weights[k].weight / sum};
      influences.push_back(slots);
    }
  }

  // Two triangles per grid quad, counter-clockwise seen from outside; the degenerate one
  // touching each pole is skipped.
  for (int r = 0; r + 1 < rowCount; ++r) {
    for (int c = 0; c < part.segments; ++c) {
      const std::uint32_t i00 = base + static_cast<std::uint32_t>(r * columns + c);
      const std::uint32_t i01 = i00 + 1;
      const std::uint32_t i10 = i00 + static_cast<std::uint32_t>(columns);
      const std::uint32_t i11 = i10 + 1;
      if (r != 0) mesh.indices.insert(mesh.indices.end(), {i00, i01, i11});
      if (r + 2 != rowCount) mesh.indices.insert(mesh.indices.end(), {i00, i11, i10});
    }
  }
}

Vec3 mirrored(const Vec3& v, float side) { return Vec3(side * v.x(), v.y(), v.z()); }

// Arm and leg parts of one side, placed from the skeleton's rest joints.
void addLimbParts(std::vector<Part>& parts, const std::vector<Affine>& rest, const Skeleton& skeleton,
                  const std::string& prefix, float side) {
  const auto pos = [&](const std::string& name) {
    return rest[static_cast<std::size_t>(skeleton.findJoint(prefix + name))].translation();
  };
  const auto name = [&](const char* suffix) { return prefix + suffix; };

  const Vec3 shoulder = pos("Arm");
  const Vec3 elbow = pos("ForeArm");
  const Vec3 wrist = pos("Hand");
  const Vec3 armDir = (elbow - shoulder).normalized();
  const float upperLength = (elbow - shoulder).norm();
  const float foreLength = (wrist - elbow).norm();

  Part upperArm;
  upperArm.origin = shoulder;
  upperArm.axis = armDir;
  upperArm.sideHint = Vec3::UnitZ();
  upperArm.rings = {{0.0f, 0.054f, 0.050f}, {0.45f * upperLength, 0.047f, 0.044f}, {upperLength, 0.039f, 0.037f}};
  upperArm.capStart = 0.05f;
  upperArm.capEnd = 0.035f;
  upperArm.stations = {{name("Shoulder")}, {name("Arm"), 0.0f, 0.04f},
                       {name("ForeArm"), upperLength, 0.04f}};
  parts.push_back(upperArm);

  Part foreArm;
  foreArm.origin = elbow;
  foreArm.axis = armDir;
  foreArm.sideHint = Vec3::UnitZ();
  foreArm.rings = {{0.0f, 0.037f, 0.035f}, {0.3f * foreLength, 0.041f, 0.036f}, {foreLength, 0.028f, 0.021f}};
  foreArm.capStart = 0.035f;
  foreArm.capEnd = 0.02f;
  foreArm.stations = {{name("Arm")}, {name("ForeArm"), 0.0f, 0.04f}, {name("Hand"), foreLength, 0.025f}};
  parts.push_back(foreArm);

  // Palm across Z (facing the thigh once the arm hangs down), thin across the arm's plane.
  Part hand;
  hand.origin = wrist;
  hand.axis = armDir;
  hand.sideHint = Vec3::UnitZ();
  hand.rings = {{0.01f, 0.036f, 0.019f}, {0.07f, 0.047f, 0.022f}, {0.13f, 0.043f, 0.015f}};
  hand.capStart = 0.025f;
  hand.capEnd = 0.05f;
  hand.segments = 16;
  hand.stations = {{name("ForeArm")}, {name("Hand"), 0.0f, 0.02f}};
  parts.push_back(hand);

  const Vec3 hip = pos("UpLeg");
  const Vec3 knee = pos("Leg");
  const Vec3 ankle = pos("Foot");
  const float thighLength = (knee - hip).norm();
  const float shinLength = (ankle - knee).norm();

  Part thigh;
  thigh.origin = hip;
  thigh.axis = (knee - hip).normalized();
  thigh.sideHint = Vec3::UnitX();
  thigh.rings = {{0.0f, 0.082f, 0.088f, mirrored(Vec3(0.006f, 0.0f, 0.0f), side)},
                 {0.3f * thighLength, 0.078f, 0.082f},
                 {0.7f * thighLength, 0.062f, 0.066f},
                 {thighLength, 0.051f, 0.054f}};
  thigh.capStart = 0.06f;
  thigh.capEnd = 0.04f;
  thigh.segments = 20;
  thigh.stations = {{"Hips"}, {name("UpLeg"), 0.0f, 0.06f}, {name("Leg"), thighLength, 0.05f}};
  parts.push_back(thigh);

  // Calf bulging backwards (−Z) a third of the way down.
  Part shin;
  shin.origin = knee;
  shin.axis = (ankle - knee).normalized();
  shin.sideHint = Vec3::UnitX();
  shin.rings = {{0.0f, 0.049f, 0.052f},
                {0.3f * shinLength, 0.052f, 0.060f, Vec3(0.0f, 0.0f, -0.01f)},
                {0.65f * shinLength, 0.040f, 0.043f, Vec3(0.0f, 0.0f, -0.004f)},
                {shinLength, 0.032f, 0.034f}};
  shin.capStart = 0.04f;
  shin.capEnd = 0.035f;
  shin.segments = 20;
  shin.stations = {{name("UpLeg")}, {name("Leg"), 0.0f, 0.05f}, {name("Foot"), shinLength, 0.03f}};
  parts.push_back(shin);

  // Foot along +Z from heel to toe tip, flat sole just above the ground (front axis = +Y).
  const Vec3 ball = pos("ToeBase");
  Part foot;
  foot.origin = Vec3(ankle.x(), 0.0f, ankle.z());
  foot.axis = Vec3::UnitZ();
  foot.sideHint = Vec3::UnitX();
  foot.exponent = 2.6f;
  foot.rings = {{-0.04f, 0.034f, 0.035f, Vec3(0.0f, 0.038f, 0.0f)},
                {0.0f, 0.040f, 0.047f, Vec3(0.0f, 0.049f, 0.0f)},
                {0.07f, 0.046f, 0.037f, Vec3(side * 0.004f, 0.039f, 0.0f)},
                {0.13f, 0.047f, 0.025f, Vec3(side * 0.006f, 0.027f, 0.0f)},
                {0.18f, 0.041f, 0.018f, Vec3(side * 0.006f, 0.020f, 0.0f)}};
  foot.capStart = 0.025f;
  foot.capEnd = 0.03f;
  foot.segments = 20;
  foot.rowsPerSpan = 2;
  foot.stations = {{name("Foot")}, {name("ToeBase"), ball.z() - ankle.z(), 0.02f}};
  parts.push_back(foot);
}

}  // namespace

Mesh makeMannequinMesh(const Skeleton& skeleton) {
  const std::vector<Affine> rest = localToModel(skeleton, skeleton.restPose());
  const auto y = [&](const char* name) { return rest[static_cast<std::size_t>(skeleton.findJoint(name))].translation().y(); };

  std::vector<Part> parts;

  // Torso from the crotch to the base of the neck; axial coordinate = model height. The
  // waist narrows at Spine, the chest widens at Spine2; the pelvis and buttocks sit back.
  Part torso;
  torso.axis = Vec3::UnitY();
  torso.sideHint = Vec3::UnitX();
  torso.rings = {{0.84f, 0.125f, 0.095f, Vec3(0.0f, 0.0f, -0.008f)}, {0.92f, 0.165f, 0.112f, Vec3(0.0f, 0.0f, -0.012f)},
                 {1.00f, 0.160f, 0.108f, Vec3(0.0f, 0.0f, -0.006f)}, {1.08f, 0.140f, 0.098f},
                 {1.18f, 0.148f, 0.104f, Vec3(0.0f, 0.0f, 0.006f)},  {1.28f, 0.168f, 0.114f, Vec3(0.0f, 0.0f, 0.010f)},
                 {1.37f, 0.178f, 0.108f, Vec3(0.0f, 0.0f, 0.004f)},  {1.43f, 0.150f, 0.088f}};
  torso.capStart = 0.05f;
  torso.capEnd = 0.05f;
  torso.segments = 28;
  torso.rowsPerSpan = 3;
  torso.capRows = 5;
  torso.stations = {{"Hips"}, {"Spine", y("Spine") - 0.02f, 0.05f}, {"Spine1", y("Spine1"), 0.05f},
                    {"Spine2", y("Spine2"), 0.05f}};
  parts.push_back(torso);

  Part neck;
  neck.axis = Vec3::UnitY();
  neck.rings = {{y("Neck") - 0.07f, 0.056f, 0.060f}, {y("Neck") + 0.03f, 0.050f, 0.054f},
                {y("Head") + 0.01f, 0.048f, 0.052f, Vec3(0.0f, 0.0f, 0.005f)}};
  neck.capStart = 0.02f;
  neck.capEnd = 0.02f;
  neck.segments = 20;
  neck.rowsPerSpan = 2;
  neck.stations = {{"Spine2"}, {"Neck", y("Neck") - 0.02f, 0.03f}, {"Head", y("Head"), 0.02f}};
  parts.push_back(neck);

  // Egg-shaped head, deeper than wide, its top at HeadTop_End; rigid on Head.
  const float top = y("HeadTop_End");
  Part head;
  head.axis = Vec3::UnitY();
  head.rings = {{top - 0.165f, 0.058f, 0.068f, Vec3(0.0f, 0.0f, 0.018f)},
                {top - 0.12f, 0.078f, 0.094f, Vec3(0.0f, 0.0f, 0.012f)},
                {top - 0.07f, 0.085f, 0.100f, Vec3(0.0f, 0.0f, 0.002f)},
                {top - 0.03f, 0.070f, 0.084f, Vec3(0.0f, 0.0f, -0.004f)}};
  head.capStart = 0.03f;
  head.capEnd = 0.03f;
  head.segments = 24;
  head.capRows = 6;
  head.stations = {{"Head"}};
  parts.push_back(head);

  addLimbParts(parts, rest, skeleton, "Left", 1.0f);
  addLimbParts(parts, rest, skeleton, "Right", -1.0f);

  Mesh mesh;
  mesh.name = "Mannequin";
  mesh.node = -1;
  mesh.material = 0;
  mesh.hasSkin = true;
  std::vector<std::array<Influence, 4>> influences;
  for (std::size_t i = 0; i < parts.size(); ++i) appendPart(parts[i], static_cast<int>(i), skeleton, mesh, influences);

  // Every Joint node is a skin joint, in skeleton order; bind pose = rest pose.
  Skin& skin = mesh.skin;
  skin.name = "MannequinSkin";
  std::vector<int> skinIndexOfJoint(static_cast<std::size_t>(skeleton.jointCount()), -1);
  for (int j = 0; j < skeleton.jointCount(); ++j) {
    if (skeleton.kind(j) != NodeKind::Joint) continue;
    skinIndexOfJoint[static_cast<std::size_t>(j)] = static_cast<int>(skin.joints.size());
    skin.joints.push_back(j);
    skin.inverseBindMatrices.push_back(rest[static_cast<std::size_t>(j)].inverse().matrix());
  }
  skin.influencesPerVertex = 4;
  for (const auto& slots : influences) {
    for (const Influence& inf : slots) {
      const bool used = inf.weight > 0.0f;
      skin.vertexJoints.push_back(used ? static_cast<std::uint16_t>(skinIndexOfJoint[static_cast<std::size_t>(inf.joint)]) : 0);
      skin.vertexWeights.push_back(used ? inf.weight : 0.0f);
    }
  }
  return mesh;
}

}  // namespace articula
