#include "core/project/project_file.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <tuple>

#include "core/io/atomic_file.h"
#include "core/io/import.h"
#include "core/project/clip_json.h"
#include "core/project/humanoid_map_json.h"
#include "core/project/rig_json_value.h"
#include "core/retarget/capture_convention.h"
#include "core/samples/mannequin.h"
#include "core/util/message_text.h"

namespace articula {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

constexpr const char* kFormatName = "articula-project";
constexpr const char* kBuiltinMannequin = "mannequin";

Json vec3ToJson(const Vec3& v) { return Json::array({v.x(), v.y(), v.z()}); }

// Checked field reads; a missing optional field keeps the default.
struct Fields {
  const Json& object;
  std::string where;
  std::string error;

  bool fail(const std::string& field, const std::string& what) {
    error = where + "." + field + ": " + what;
    return false;
  }
  bool number(const char* field, double& out) {
    if (!object.contains(field)) return true;
    const Json& v = object.at(field);
    if (!v.is_number() || !std::isfinite(v.get<double>())) return fail(field, "expected a finite number");
    out = v.get<double>();
    return true;
  }
  bool number(const char* field, float& out) {
    double value = out;
    if (!number(field, value)) return false;
    // A finite double beyond float's range would become infinity.
    if (!std::isfinite(static_cast<float>(value))) return fail(field, "expected a number within float range");
    out = static_cast<float>(value);
    return true;
  }
  bool integer(const char* field, int& out) {
    if (!object.contains(field)) return true;
    const Json& v = object.at(field);
    if (!v.is_number_integer()) return fail(field, "expected a whole number");
    // Unsigned JSON integers above INT64_MAX and values beyond int would wrap silently.
    if (v.is_number_unsigned() && v.get<std::uint64_t>() > static_cast<std::uint64_t>(INT32_MAX)) {
      return fail(field, "expected a whole number within int range");
    }
    const std::int64_t value = v.get<std::int64_t>();
    if (value < INT32_MIN || value > INT32_MAX) return fail(field, "expected a whole number within int range");
    out = static_cast<int>(value);
    return true;
  }
  bool boolean(const char* field, bool& out) {
    if (!object.contains(field)) return true;
    if (!object.at(field).is_boolean()) return fail(field, "expected true or false");
    out = object.at(field).get<bool>();
    return true;
  }
  bool string(const char* field, std::string& out) {
    if (!object.contains(field)) return true;
    if (!object.at(field).is_string()) return fail(field, "expected a string");
    out = object.at(field).get<std::string>();
    return true;
  }
  bool vec3(const char* field, Vec3& out) {
    if (!object.contains(field)) return true;
    const Json& v = object.at(field);
    if (!v.is_array() || v.size() != 3 || !v[0].is_number() || !v[1].is_number() || !v[2].is_number()) {
      return fail(field, "expected [x, y, z]");
    }
    const Vec3 value(v[0].get<float>(), v[1].get<float>(), v[2].get<float>());
    if (!value.allFinite()) return fail(field, "expected finite numbers");
    out = value;
    return true;
  }
};

const Json& objectOr(const Json& parent, const char* field, const Json& fallback) {
  return parent.contains(field) ? parent.at(field) : fallback;
}

std::optional<std::string> readSettings(const Json& json, const std::string& where, Project& project) {
  const Json empty = Json::object();
  const Json& ground = objectOr(json, "ground", empty);
  const Json& bake = objectOr(json, "bake", empty);
  const Json& view = objectOr(json, "view", empty);
  for (const auto& [field, value] :
       {std::pair{"ground", &ground}, std::pair{"bake", &bake}, std::pair{"view", &view}}) {
    if (!value->is_object()) return where + ": '" + field + "' must be an object";
  }
  Fields g{ground, where + ": ground", {}};
  if (!g.boolean("enabled", project.ground.enabled) || !g.vec3("point", project.ground.pointModel) ||
      !g.vec3("normal", project.ground.normalModel)) {
    return g.error;
  }
  if (!(project.ground.normalModel.norm() > 0.0f)) return where + ": ground.normal: must not be zero";
  ProjectBakeSettings& b = project.bake;
  Fields f{bake, where + ": bake", {}};
  if (!f.integer("first_frame", b.firstFrame) || !f.integer("last_frame", b.lastFrame) || !f.integer("step", b.step) ||
      !f.number("tolerance_relative", b.toleranceRelative) || !f.boolean("root_motion", b.rootMotion) ||
      !f.boolean("detect_contacts", b.detectContacts) || !f.boolean("fewest_bytes", b.fewestBytes)) {
    return f.error;
  }
  std::string interpolation = b.cubicKeys ? "cubic" : "linear";
  if (!f.string("interpolation", interpolation)) return f.error;
  if (interpolation != "linear" && interpolation != "cubic")
    return where + ": bake.interpolation: expected \"linear\" or \"cubic\", got \"" + interpolation + "\"";
  b.cubicKeys = interpolation == "cubic";
  ProjectView& v = project.view;
  Fields r{view, where + ": view", {}};
  if (!r.string("clip", v.clip) || !r.integer("frame", v.frame)) return r.error;
  if (view.contains("camera")) {
    const Json& camera = view.at("camera");
    if (!camera.is_object()) return where + ": view.camera must be an object";
    Fields c{camera, where + ": view.camera", {}};
    if (!c.vec3("target", v.cameraTarget) || !c.number("distance", v.cameraDistance) ||
        !c.number("yaw_rad", v.cameraYawRad) || !c.number("pitch_rad", v.cameraPitchRad)) {
      return c.error;
    }
    v.hasCamera = true;
  }
  return std::nullopt;
}

// Reads "capture_convention" (absent: Auto); an axis or units the job would refuse is an error.
std::optional<std::string> readConvention(const Json& json, const std::string& where, ConventionOverride& out) {
  if (!json.contains("capture_convention")) return std::nullopt;
  const Json& object = json.at("capture_convention");
  if (!object.is_object()) return where + ": 'capture_convention' must be an object";
  Fields f{object, where + ": capture_convention", {}};
  std::string up, facing;
  if (!f.string("up", up) || !f.string("facing", facing)) return f.error;
  for (const auto& [field, text, axis] : {std::tuple{"up", &up, &out.upModel}, std::tuple{"facing", &facing, &out.forwardModel}}) {
    if (text->empty()) continue;
    *axis = axisFromName(*text);
    if (!*axis) return f.where + "." + field + ": expected +X, -X, +Y, -Y, +Z or -Z, got \"" + *text + "\"";
  }
  if (object.contains("units_per_metre")) {
    double unitsPerMetre = 0.0;
    if (!f.number("units_per_metre", unitsPerMetre)) return f.error;
    out.unitsPerMetre = unitsPerMetre;
  }
  if (auto error = checkOverride(out)) return f.where + ": " + *error;
  return std::nullopt;
}

Json conventionToJson(const ConventionOverride& convention) {
  Json json = Json::object();
  if (convention.upModel) json["up"] = axisName(*convention.upModel);
  if (convention.forwardModel) json["facing"] = axisName(*convention.forwardModel);
  if (convention.unitsPerMetre) json["units_per_metre"] = *convention.unitsPerMetre;
  return json;
}

// Reads "joint_renames" into the project and renames the asset's joints (all at once, so
// two joints may swap names); the skeleton must still validate afterwards.
std::optional<std::string> applyJointRenames(const Json& json, const std::string& where, Project& project,
                                             Skeleton& skeleton) {
  const Json noRenames = Json::array();
  const Json& renames = objectOr(json, "joint_renames", noRenames);
  if (!renames.is_array()) return where + ": 'joint_renames' must be an array";
  std::vector<int> joints;
  for (std::size_t i = 0; i < renames.size(); ++i) {
    const std::string place = where + ": joint_renames[" + std::to_string(i) + "]";
    if (!renames[i].is_object()) return place + ": expected {\"asset_name\": ..., \"project_name\": ...}";
    ProjectJointRename rename;
    Fields r{renames[i], place, {}};
    if (!r.string("asset_name", rename.assetName) || !r.string("project_name", rename.projectName)) return r.error;
    const int joint = skeleton.findJoint(rename.assetName);
    if (joint < 0) return place + ": the asset has no joint '" + rename.assetName + "'";
    if (std::find(joints.begin(), joints.end(), joint) != joints.end()) {
      return place + ": joint '" + rename.assetName + "' is renamed twice";
    }
    joints.push_back(joint);
    project.jointRenames.push_back(std::move(rename));
  }
  for (std::size_t i = 0; i < joints.size(); ++i) skeleton.setName(joints[i], project.jointRenames[i].projectName);
  if (joints.empty()) return std::nullopt;
  if (auto error = skeleton.validate()) return where + ": joint_renames: " + *error;
  return std::nullopt;
}

// Reads "rigs" against the skeleton the clips use (renames applied). Absent: no rigs.
std::optional<std::string> readRigs(const Json& json, const std::string& where, const Skeleton& skeleton,
                                    ProjectRigs& rigs) {
  if (!json.contains("rigs")) return std::nullopt;
  const Json& object = json.at("rigs");
  if (!object.is_object()) return where + ": 'rigs' must be an object";
  Fields r{object, where + ": rigs", {}};
  if (!r.integer("active", rigs.active) || !r.boolean("enabled", rigs.enabled)) return r.error;
  const Json noDefinitions = Json::array();
  const Json& definitions = objectOr(object, "definitions", noDefinitions);
  if (!definitions.is_array()) return where + ": rigs.definitions must be an array";
  for (std::size_t i = 0; i < definitions.size(); ++i) {
    Result<RigDefinition> rig = rigFromJsonValue(definitions[i], skeleton);
    if (!rig) return where + ": rigs.definitions[" + std::to_string(i) + "]: " + rig.error();
    rigs.rigs.push_back(std::move(*rig));
  }
  if (rigs.active < -1 || rigs.active >= static_cast<int>(rigs.rigs.size())) {
    return where + ": rigs.active " + std::to_string(rigs.active) + " names no rig (there are " +
           std::to_string(rigs.rigs.size()) + ")";
  }
  return std::nullopt;
}

Result<Scene> loadAsset(const ProjectAsset& asset, const fs::path& folder, const std::string& where,
                        std::vector<std::string>& warnings) {
  if (!asset.builtin.empty()) {
    if (asset.builtin != kBuiltinMannequin) {
      return makeError(where + ": unknown built-in asset '" + asset.builtin + "' (this Articula has 'mannequin')");
    }
    return makeMannequin();
  }
  if (asset.path.empty()) return makeError(where + ": the project names no asset");
  const std::string resolved = (folder / fs::path(asset.path)).lexically_normal().string();
  std::string bytes;
  if (readWholeFile(resolved, bytes)) {
    return makeError(where + ": its asset '" + asset.path + "' is missing (looked for " + resolved + ")");
  }
  if (!asset.contentHash.empty() && contentHash(bytes) != asset.contentHash) {
    warnings.push_back(where + ": the asset '" + asset.path +
                       "' has changed since the project was saved; its clips and rigs may no longer fit it");
  }
  Result<Scene> scene = importScene(resolved);
  if (!scene) return makeError(where + ": its asset does not import: " + scene.error());
  return scene;
}

// Indented JSON in which each key (an array of numbers, strings and small arrays) stays on
// one line, so a project diffs key by key in version control.
bool isLeafArray(const Json& value) {
  if (!value.is_array()) return false;
  for (const Json& element : value) {
    if (element.is_object()) return false;
    if (element.is_array()) {
      for (const Json& inner : element) {
        if (inner.is_structured()) return false;
      }
    }
  }
  return true;
}

void writeReadable(const Json& value, int depth, std::string& out) {
  const std::string indent(static_cast<std::size_t>(depth) * 1, ' ');
  const std::string inner(static_cast<std::size_t>(depth + 1) * 1, ' ');
  if (value.is_object() && !value.empty()) {
    out += "{\n";
    std::size_t i = 0;
    for (const auto& [key, element] : value.items()) {
      out += inner + Json(key).dump() + ": ";
      writeReadable(element, depth + 1, out);
      out += ++i < value.size() ? ",\n" : "\n";
    }
    out += indent + "}";
  } else if (value.is_array() && !value.empty() && !isLeafArray(value)) {
    out += "[\n";
    for (std::size_t i = 0; i < value.size(); ++i) {
      out += inner;
      writeReadable(value[i], depth + 1, out);
      out += i + 1 < value.size() ? ",\n" : "\n";
    }
    out += indent + "]";
  } else {
    out += value.dump();
  }
}

}  // namespace

std::string contentHash(std::string_view bytes) {
  std::uint64_t hash = 0xcbf29ce484222325ull;
  for (const unsigned char c : bytes) {
    hash ^= c;
    hash *= 0x100000001b3ull;
  }
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(hash));
  return std::string("fnv1a64:") + text;
}

std::string projectToJson(const Project& project, const Skeleton& skeleton) {
  Json json;
  json["format"] = kFormatName;
  json["format_version"] = kProjectFormatVersion;
  Json asset = Json::object();
  if (!project.asset.builtin.empty()) {
    asset["builtin"] = project.asset.builtin;
  } else {
    asset["path"] = project.asset.path;
    asset["content_hash"] = project.asset.contentHash;
  }
  json["asset"] = std::move(asset);
  if (!project.jointRenames.empty()) {
    Json renames = Json::array();
    for (const ProjectJointRename& rename : project.jointRenames) {
      renames.push_back({{"asset_name", rename.assetName}, {"project_name", rename.projectName}});
    }
    json["joint_renames"] = std::move(renames);
  }
  Json clips = Json::array();
  for (const Clip& clip : project.clips) clips.push_back(clipToJson(clip, skeleton));
  json["clips"] = std::move(clips);
  const ProjectGround& g = project.ground;
  json["ground"] = {{"enabled", g.enabled}, {"point", vec3ToJson(g.pointModel)}, {"normal", vec3ToJson(g.normalModel)}};
  const ProjectBakeSettings& b = project.bake;
  json["bake"] = {{"first_frame", b.firstFrame},
                  {"last_frame", b.lastFrame},
                  {"step", b.step},
                  {"tolerance_relative", b.toleranceRelative},
                  {"root_motion", b.rootMotion},
                  {"detect_contacts", b.detectContacts},
                  {"fewest_bytes", b.fewestBytes},
                  {"interpolation", b.cubicKeys ? "cubic" : "linear"}};
  const ProjectView& v = project.view;
  Json view = {{"clip", v.clip}, {"frame", v.frame}};
  if (v.hasCamera) {
    view["camera"] = {{"target", vec3ToJson(v.cameraTarget)},
                      {"distance", v.cameraDistance},
                      {"yaw_rad", v.cameraYawRad},
                      {"pitch_rad", v.cameraPitchRad}};
  }
  json["view"] = std::move(view);
  if (!project.rigs.rigs.empty()) {
    Json definitions = Json::array();
    for (const RigDefinition& rig : project.rigs.rigs) definitions.push_back(rigToJsonValue(rig, skeleton));
    json["rigs"] = {
        {"active", project.rigs.active}, {"enabled", project.rigs.enabled}, {"definitions", std::move(definitions)}};
  }
  if (skeleton.hasRoles()) json["humanoid_roles"] = Json::parse(roleLabelsToJson(skeleton));
  if (!project.convention.isAuto()) json["capture_convention"] = conventionToJson(project.convention);
  std::string text;
  writeReadable(json, 0, text);
  text += '\n';
  return text;
}

Result<OpenedProject> openProjectFromText(std::string_view text, const std::string& projectPath) {
  const std::string where = "project '" + projectPath + "'";
  const Json json = Json::parse(text, nullptr, false);
  if (json.is_discarded()) return makeError(where + ": not valid JSON (a damaged or truncated file?)");
  if (!json.is_object() || !json.contains("format_version") || !json.at("format_version").is_number_integer()) {
    return makeError(where + ": not an Articula project (no format_version)");
  }
  const int version = json.at("format_version").get<int>();
  if (version > kProjectFormatVersion) {
    return makeError(where + ": saved by a newer Articula (format " + std::to_string(version) +
                     "; this version reads formats 1 to " + std::to_string(kProjectFormatVersion) + ")");
  }
  if (version < 1) return makeError(where + ": format_version " + std::to_string(version) + " is not a valid version");

  OpenedProject opened;
  Project& project = opened.project;
  const Json noAsset = Json::object();
  const Json& asset = objectOr(json, "asset", noAsset);
  if (!asset.is_object()) return makeError(where + ": 'asset' must be an object");
  Fields a{asset, where + ": asset", {}};
  if (!a.string("path", project.asset.path) || !a.string("builtin", project.asset.builtin) ||
      !a.string("content_hash", project.asset.contentHash)) {
    return makeError(a.error);
  }
  if (auto error = readSettings(json, where, project)) return makeError(*error);
  if (auto error = readConvention(json, where, project.convention)) return makeError(*error);

  const fs::path folder = fs::path(projectPath).parent_path();
  Result<Scene> scene = loadAsset(project.asset, folder, where, opened.warnings);
  if (!scene) return makeError(scene.error());
  opened.scene = std::move(*scene);
  opened.scene.convention = project.convention;
  if (auto error = applyJointRenames(json, where, project, opened.scene.skeleton)) return makeError(*error);
  if (json.contains("humanoid_roles")) {
    const std::string roles = json.at("humanoid_roles").dump();
    if (auto error = labelRolesFromJson(roles, opened.scene.skeleton, where + ": humanoid_roles")) return makeError(*error);
  }

  const Json noClips = Json::array();
  const Json& clips = objectOr(json, "clips", noClips);
  if (!clips.is_array()) return makeError(where + ": 'clips' must be an array");
  for (std::size_t i = 0; i < clips.size(); ++i) {
    Result<Clip> clip = clipFromJson(clips[i], opened.scene.skeleton, where + ": clips[" + std::to_string(i) + "]");
    if (!clip) return makeError(clip.error());
    project.clips.push_back(std::move(*clip));
  }
  opened.scene.clips = project.clips;
  if (auto error = readRigs(json, where, opened.scene.skeleton, project.rigs)) return makeError(*error);
  return opened;
}

Result<OpenedProject> openProject(const std::string& projectPath) {
  // A save of this project killed mid-write left its temporary (megabytes) beside it.
  removeAbandonedTemporaries(projectPath);
  std::string text;
  if (auto error = readWholeFile(projectPath, text)) return makeError("project " + *error);
  return openProjectFromText(text, projectPath);
}

std::optional<std::string> saveProject(const std::string& projectPath, const Project& project,
                                       const Skeleton& skeleton) {
  return writeFileAtomically(projectPath, projectToJson(project, skeleton));
}

Result<Project> projectForAsset(const std::string& assetPath, const std::string& projectPath, const Scene& scene) {
  std::string bytes;
  if (auto error = readWholeFile(assetPath, bytes)) return makeError("asset " + *error);
  Project project;
  const fs::path folder = fs::absolute(fs::path(projectPath)).parent_path();
  project.asset.path = fs::absolute(fs::path(assetPath)).lexically_normal().lexically_relative(folder).generic_string();
  project.asset.contentHash = contentHash(bytes);
  project.clips = scene.clips;
  project.convention = scene.convention;
  if (!scene.clips.empty()) project.view.clip = scene.clips.front().name;
  return project;
}

Result<Scene> loadSceneOrProject(const std::string& path, ProjectRigs* rigs, std::vector<std::string>* warnings) {
  if (fs::path(path).extension() == ".articula") {
    Result<OpenedProject> opened = openProject(path);
    if (!opened) return makeError(opened.error());
    if (rigs) *rigs = std::move(opened->project.rigs);
    if (warnings) *warnings = std::move(opened->warnings);
    return std::move(opened->scene);
  }
  std::vector<std::string> repairs;
  Result<Scene> scene = importScene(path, &repairs);
  if (scene && warnings) {
    for (const std::string& repair : repairs) warnings->push_back(printableLine(path + ": repaired " + repair));
  }
  return scene;
}

}  // namespace articula
