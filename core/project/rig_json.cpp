#include "core/project/rig_json.h"

#include <array>

#include "core/project/rig_json_value.h"

namespace articula {

namespace {

using Json = nlohmann::ordered_json;

constexpr const char* kFormat = "articula-rig";
constexpr int kVersion = 1;

Json vec3(const Vec3& v) { return Json::array({v.x(), v.y(), v.z()}); }
Json quat(const Quat& q) { return Json::array({q.w(), q.x(), q.y(), q.z()}); }
// An index the skeleton does not have is written as null (reading it back then fails where
// a joint is required, naming the field).
Json jointName(const Skeleton& skeleton, int joint) {
  return joint < 0 || joint >= skeleton.jointCount() ? Json(nullptr) : Json(skeleton.name(joint));
}

std::string_view targetSourceName(TargetSource s) { return s == TargetSource::InputPose ? "pose" : "handle"; }
std::string_view orientationName(OrientationMode m) {
  switch (m) {
    case OrientationMode::KeepPose:
      return "keep_pose";
    case OrientationMode::Target:
      return "target";
    case OrientationMode::Free:
      break;
  }
  return "free";
}
std::string_view poleSpaceName(IkPole::Space s) {
  switch (s) {
    case IkPole::Space::Model:
      return "model";
    case IkPole::Space::Joint:
      return "joint";
    case IkPole::Space::None:
      break;
  }
  return "none";
}
std::string_view limitKindName(JointLimit::Kind k) {
  switch (k) {
    case JointLimit::Kind::Cone:
      return "cone";
    case JointLimit::Kind::Hinge:
      return "hinge";
    case JointLimit::Kind::Free:
      break;
  }
  return "free";
}

Json limitJson(const JointLimit& l) {
  Json j;
  j["kind"] = limitKindName(l.kind);
  j["axis"] = vec3(l.axisParent);
  j["x_axis"] = vec3(l.xParent);
  j["half_angle_x_rad"] = l.halfAngleXRad;
  j["half_angle_y_rad"] = l.halfAngleYRad;
  j["min_rad"] = l.minAngleRad;
  j["max_rad"] = l.maxAngleRad;
  j["reference"] = quat(l.referenceLocal);
  if (l.twistLimited) {
    j["twist"] =
        Json{{"min_rad", l.twistMinRad}, {"max_rad", l.twistMaxRad}, {"reference", quat(l.twistReferenceLocal)}};
  } else {
    j["twist"] = nullptr;
  }
  return j;
}

Json footJson(const FootGrounding& f, const Skeleton& skeleton) {
  return Json{{"toe", jointName(skeleton, f.toe)}, {"ankle_height", f.ankleHeight}, {"contact_curve", f.contactCurve}};
}

// Reads one JSON object with a path for messages ("handles[2] 'left_arm': pole").
class Reader {
 public:
  Reader(const Json& value, std::string path, const Skeleton& skeleton)
      : mValue(value), mPath(std::move(path)), mSkeleton(skeleton) {}

  const std::string& path() const { return mPath; }
  std::string fail(std::string_view what) const {
    std::string m = "rig JSON: ";
    if (!mPath.empty()) m.append(mPath).append(": ");
    m.append(what);
    return m;
  }

  // The member, or an error when it is missing.
  const Json* member(const char* key, std::string& error) const {
    if (!mValue.is_object()) {
      error = fail("is not an object");
      return nullptr;
    }
    const auto it = mValue.find(key);
    if (it == mValue.end()) {
      error = fail(std::string("missing \"").append(key).append("\""));
      return nullptr;
    }
    return &*it;
  }

  Reader child(const Json& value, std::string_view name) const {
    std::string p = mPath;
    if (!p.empty()) p.append(".");
    p.append(name);
    return Reader(value, std::move(p), mSkeleton);
  }

  bool number(const char* key, float& out, std::string& error) const {
    const Json* v = member(key, error);
    if (v == nullptr) return false;
    if (!v->is_number()) return typeError(key, "a number", error);
    out = static_cast<float>(v->get<double>());
    return true;
  }
  bool integer(const char* key, int& out, std::string& error) const {
    const Json* v = member(key, error);
    if (v == nullptr) return false;
    if (!v->is_number_integer()) return typeError(key, "an integer", error);
    out = v->get<int>();
    return true;
  }
  bool boolean(const char* key, bool& out, std::string& error) const {
    const Json* v = member(key, error);
    if (v == nullptr) return false;
    if (!v->is_boolean()) return typeError(key, "true or false", error);
    out = v->get<bool>();
    return true;
  }
  bool string(const char* key, std::string& out, std::string& error) const {
    const Json* v = member(key, error);
    if (v == nullptr) return false;
    if (!v->is_string()) return typeError(key, "a string", error);
    out = v->get<std::string>();
    return true;
  }
  bool vector(const char* key, float* out, std::size_t count, std::string& error) const {
    const Json* v = member(key, error);
    if (v == nullptr) return false;
    if (!v->is_array() || v->size() != count)
      return typeError(key, count == 3 ? "an array of 3 numbers" : "an array of 4 numbers", error);
    for (std::size_t i = 0; i < count; ++i) {
      if (!(*v)[i].is_number())
        return typeError(key, count == 3 ? "an array of 3 numbers" : "an array of 4 numbers", error);
      out[i] = static_cast<float>((*v)[i].get<double>());
    }
    return true;
  }
  bool vec3(const char* key, Vec3& out, std::string& error) const { return vector(key, out.data(), 3, error); }
  bool quat(const char* key, Quat& out, std::string& error) const {
    float wxyz[4];
    if (!vector(key, wxyz, 4, error)) return false;
    out = Quat(wxyz[0], wxyz[1], wxyz[2], wxyz[3]);
    return true;
  }
  // A joint name (or null for "none" when allowed) resolved in the skeleton.
  bool joint(const Json& v, const std::string& where, bool nullable, int& out, std::string& error) const {
    if (nullable && v.is_null()) {
      out = -1;
      return true;
    }
    if (!v.is_string()) {
      error = fail(where + (nullable ? " must be a joint name or null" : " must be a joint name"));
      return false;
    }
    const std::string name = v.get<std::string>();
    out = mSkeleton.findJoint(name);
    if (out < 0) {
      error = fail(where + ": no joint named '" + name + "' in the skeleton");
      return false;
    }
    return true;
  }
  bool joint(const char* key, bool nullable, int& out, std::string& error) const {
    const Json* v = member(key, error);
    return v != nullptr && joint(*v, std::string("\"").append(key).append("\""), nullable, out, error);
  }
  // An enumeration spelled as one of `names`.
  template <typename E, std::size_t N>
  bool enumeration(const char* key, const std::array<std::pair<std::string_view, E>, N>& names, E& out,
                   std::string& error) const {
    std::string s;
    if (!string(key, s, error)) return false;
    for (const auto& [name, value] : names) {
      if (name == s) {
        out = value;
        return true;
      }
    }
    std::string what = "\"";
    what.append(key).append("\" is '").append(s).append("', expected one of");
    for (std::size_t i = 0; i < N; ++i) what.append(i == 0 ? " " : ", ").append(names[i].first);
    error = fail(what);
    return false;
  }

 private:
  bool typeError(const char* key, const char* expected, std::string& error) const {
    error = fail(std::string("\"").append(key).append("\" must be ").append(expected));
    return false;
  }

  const Json& mValue;
  std::string mPath;
  const Skeleton& mSkeleton;
};

constexpr std::array<std::pair<std::string_view, JointLimit::Kind>, 3> kLimitKinds = {
    {{"free", JointLimit::Kind::Free}, {"cone", JointLimit::Kind::Cone}, {"hinge", JointLimit::Kind::Hinge}}};
constexpr std::array<std::pair<std::string_view, TargetSource>, 2> kTargetSources = {
    {{"pose", TargetSource::InputPose}, {"handle", TargetSource::Handle}}};
constexpr std::array<std::pair<std::string_view, OrientationMode>, 3> kOrientationModes = {
    {{"free", OrientationMode::Free}, {"keep_pose", OrientationMode::KeepPose}, {"target", OrientationMode::Target}}};
constexpr std::array<std::pair<std::string_view, IkPole::Space>, 3> kPoleSpaces = {
    {{"none", IkPole::Space::None}, {"model", IkPole::Space::Model}, {"joint", IkPole::Space::Joint}}};

std::array<std::pair<std::string_view, IkSolverKind>, kIkSolverKindCount> solverNames() {
  std::array<std::pair<std::string_view, IkSolverKind>, kIkSolverKindCount> names;
  for (int i = 0; i < kIkSolverKindCount; ++i) {
    const auto kind = static_cast<IkSolverKind>(i);
    names[static_cast<std::size_t>(i)] = {solverKindName(kind), kind};
  }
  return names;
}

std::array<std::pair<std::string_view, HandleRole>, 6> roleNames() {
  std::array<std::pair<std::string_view, HandleRole>, 6> names;
  for (int i = 0; i < 6; ++i) {
    const auto role = static_cast<HandleRole>(i);
    names[static_cast<std::size_t>(i)] = {handleRoleName(role), role};
  }
  return names;
}

bool readLimit(const Reader& r, JointLimit& l, std::string& error) {
  if (!r.enumeration("kind", kLimitKinds, l.kind, error) || !r.vec3("axis", l.axisParent, error) ||
      !r.vec3("x_axis", l.xParent, error) || !r.number("half_angle_x_rad", l.halfAngleXRad, error) ||
      !r.number("half_angle_y_rad", l.halfAngleYRad, error) || !r.number("min_rad", l.minAngleRad, error) ||
      !r.number("max_rad", l.maxAngleRad, error) || !r.quat("reference", l.referenceLocal, error))
    return false;
  const Json* twist = r.member("twist", error);
  if (twist == nullptr) return false;
  l.twistLimited = !twist->is_null();
  if (!l.twistLimited) return true;
  const Reader t = r.child(*twist, "twist");
  return t.number("min_rad", l.twistMinRad, error) && t.number("max_rad", l.twistMaxRad, error) &&
         t.quat("reference", l.twistReferenceLocal, error);
}

bool readHandle(const Reader& r, IkHandle& h, std::string& error) {
  if (!r.string("name", h.name, error) || !r.enumeration("role", roleNames(), h.role, error) ||
      !r.enumeration("solver", solverNames(), h.solver, error))
    return false;
  const Json* chain = r.member("chain", error);
  if (chain == nullptr) return false;
  if (!chain->is_array()) {
    error = r.fail("\"chain\" must be an array of joint names");
    return false;
  }
  for (std::size_t k = 0; k < chain->size(); ++k) {
    int joint = -1;
    if (!r.joint((*chain)[k], "chain[" + std::to_string(k) + "]", false, joint, error)) return false;
    h.chain.push_back(joint);
  }
  const Json* limits = r.member("limits", error);
  if (limits == nullptr) return false;
  if (!limits->is_array()) {
    error = r.fail("\"limits\" must be an array");
    return false;
  }
  for (std::size_t k = 0; k < limits->size(); ++k) {
    JointLimit l;
    if (!readLimit(r.child((*limits)[k], "limits[" + std::to_string(k) + "]"), l, error)) return false;
    h.limits.push_back(l);
  }
  const Json* target = r.member("target", error);
  if (target == nullptr) return false;
  const Reader t = r.child(*target, "target");
  if (!t.enumeration("source", kTargetSources, h.targetSource, error) || !t.vec3("position", h.targetModel, error))
    return false;
  const Json* orientation = r.member("orientation", error);
  if (orientation == nullptr) return false;
  const Reader o = r.child(*orientation, "orientation");
  if (!o.enumeration("mode", kOrientationModes, h.orientation, error) || !o.quat("rotation", h.orientationModel, error))
    return false;
  const Json* pole = r.member("pole", error);
  if (pole == nullptr) return false;
  const Reader p = r.child(*pole, "pole");
  if (!p.enumeration("space", kPoleSpaces, h.pole.space, error) || !p.joint("joint", true, h.pole.joint, error) ||
      !p.vec3("position", h.pole.position, error))
    return false;
  if (!r.number("weight", h.weight, error) || !r.integer("iterations", h.maxIterations, error) ||
      !r.number("tolerance", h.toleranceModel, error) || !r.number("soften", h.soften, error) ||
      !r.boolean("enabled", h.enabled, error))
    return false;
  // Optional: rigs saved before foot roll and followers existed have neither.
  std::string ignored;
  if (r.member("roll", ignored) != nullptr && !r.number("roll", h.rollRad, error)) return false;
  const Json* followers = r.member("followers", ignored);
  if (followers == nullptr) return true;
  if (!followers->is_array()) {
    error = r.fail("\"followers\" must be an array of joint names");
    return false;
  }
  for (std::size_t k = 0; k < followers->size(); ++k) {
    int joint = -1;
    if (!r.joint((*followers)[k], "followers[" + std::to_string(k) + "]", false, joint, error)) return false;
    h.followers.push_back(joint);
  }
  return true;
}

bool readFoot(const Reader& r, FootGrounding& f, std::string& error) {
  return r.joint("toe", true, f.toe, error) && r.number("ankle_height", f.ankleHeight, error) &&
         r.string("contact_curve", f.contactCurve, error);
}

}  // namespace

Json rigToJsonValue(const RigDefinition& rig, const Skeleton& skeleton) {
  Json root;
  root["format"] = kFormat;
  root["version"] = kVersion;
  root["name"] = rig.name;
  Json handles = Json::array();
  for (const IkHandle& h : rig.handles) {
    Json j;
    j["name"] = h.name;
    j["role"] = handleRoleName(h.role);
    j["solver"] = solverKindName(h.solver);
    Json chain = Json::array();
    for (const int joint : h.chain) chain.push_back(jointName(skeleton, joint));
    j["chain"] = std::move(chain);
    Json limits = Json::array();
    for (const JointLimit& l : h.limits) limits.push_back(limitJson(l));
    j["limits"] = std::move(limits);
    j["target"] = Json{{"source", targetSourceName(h.targetSource)}, {"position", vec3(h.targetModel)}};
    j["orientation"] = Json{{"mode", orientationName(h.orientation)}, {"rotation", quat(h.orientationModel)}};
    j["pole"] = Json{{"space", poleSpaceName(h.pole.space)},
                     {"joint", jointName(skeleton, h.pole.joint)},
                     {"position", vec3(h.pole.position)}};
    j["weight"] = h.weight;
    j["iterations"] = h.maxIterations;
    j["tolerance"] = h.toleranceModel;
    j["soften"] = h.soften;
    j["enabled"] = h.enabled;
    if (h.rollRad != 0.0f) j["roll"] = h.rollRad;
    if (!h.followers.empty()) {
      Json followers = Json::array();
      for (const int joint : h.followers) followers.push_back(jointName(skeleton, joint));
      j["followers"] = std::move(followers);
    }
    handles.push_back(std::move(j));
  }
  root["handles"] = std::move(handles);
  const GroundingSetup& g = rig.grounding;
  root["grounding"] = Json{
      {"enabled", g.enabled},    {"pelvis", jointName(skeleton, g.pelvis)}, {"up", vec3(g.upModel)},
      {"max_reach", g.maxReach}, {"left", footJson(g.left, skeleton)},      {"right", footJson(g.right, skeleton)}};
  return root;
}

std::string rigToJson(const RigDefinition& rig, const Skeleton& skeleton) {
  return rigToJsonValue(rig, skeleton).dump(2);
}

Result<RigDefinition> rigFromJson(std::string_view text, const Skeleton& skeleton) {
  Json root;
  try {
    root = Json::parse(text.begin(), text.end());
  } catch (const Json::parse_error& e) {
    // The parser's message carries the line and byte offset.
    return makeError(std::string("rig JSON: not valid JSON: ").append(e.what()));
  }
  return rigFromJsonValue(root, skeleton);
}

Result<RigDefinition> rigFromJsonValue(const Json& root, const Skeleton& skeleton) {
  const Reader r(root, "", skeleton);
  std::string error;
  std::string format;
  int version = 0;
  if (!r.string("format", format, error) || !r.integer("version", version, error)) return makeError(error);
  if (format != kFormat) return makeError(r.fail("\"format\" is '" + format + "', expected '" + kFormat + "'"));
  if (version < 1 || version > kVersion)
    return makeError(r.fail("version " + std::to_string(version) + " is not supported (this build reads 1 to " +
                            std::to_string(kVersion) + ")"));
  RigDefinition rig;
  if (!r.string("name", rig.name, error)) return makeError(error);
  const Json* handles = r.member("handles", error);
  if (handles == nullptr) return makeError(error);
  if (!handles->is_array()) return makeError(r.fail("\"handles\" must be an array"));
  for (std::size_t i = 0; i < handles->size(); ++i) {
    const Json& hj = (*handles)[i];
    std::string path = "handles[" + std::to_string(i) + "]";
    if (hj.is_object() && hj.contains("name") && hj["name"].is_string())
      path.append(" '").append(hj["name"].get<std::string>()).append("'");
    IkHandle h;
    if (!readHandle(Reader(hj, path, skeleton), h, error)) return makeError(error);
    rig.handles.push_back(std::move(h));
  }
  const Json* grounding = r.member("grounding", error);
  if (grounding == nullptr) return makeError(error);
  const Reader g = r.child(*grounding, "grounding");
  GroundingSetup& s = rig.grounding;
  const Json* left = g.member("left", error);
  const Json* right = left != nullptr ? g.member("right", error) : nullptr;
  if (!g.boolean("enabled", s.enabled, error) || !g.joint("pelvis", true, s.pelvis, error) ||
      !g.vec3("up", s.upModel, error) || !g.number("max_reach", s.maxReach, error) || left == nullptr ||
      right == nullptr || !readFoot(g.child(*left, "left"), s.left, error) ||
      !readFoot(g.child(*right, "right"), s.right, error))
    return makeError(error);
  return rig;
}

}  // namespace articula
