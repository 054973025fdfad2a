#pragma once
// The .articula project file: everything needed to reopen a character exactly where the
// user left it. JSON with a "format_version"; files of older versions keep loading, a newer
// one is refused with a message (tests/data/projects keeps one file per version).
//
// The asset is not copied in: the project names it by a path relative to the project file
// and a content hash, so a moved asset is reported missing and a changed one is noticed.
// The bundled mannequin is named {"builtin": "mannequin"} instead. Clips are stored whole
// (clip_json.h), replacing the asset's own clips when the project opens. The user's humanoid
// characterisation (the skeleton's role labels) is "humanoid_roles", role → joint name. The
// user's override of the capture convention (Scene::convention) is "capture_convention":
// {"up": "+Z", "facing": "+Y", "units_per_metre": 100}, each key only when set; a project
// without it (every older one) is Auto. Format 3 adds each clip's animation layers.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/rig/rig.h"
#include "core/scene/scene.h"
#include "core/util/result.h"

namespace articula {

inline constexpr int kProjectFormatVersion = 3;

struct ProjectAsset {
  std::string path;         // relative to the project file's folder, '/' separators
  std::string builtin;      // "mannequin" for the bundled character (then `path` is empty)
  std::string contentHash;  // "fnv1a64:<16 hex digits>" of the asset file's bytes
};

// Where the character stands (the foot-grounding ground), model space.
struct ProjectGround {
  bool enabled = false;
  Vec3 pointModel = Vec3::Zero();
  Vec3 normalModel = Vec3::UnitY();
};

// The bake dialog's last settings.
struct ProjectBakeSettings {
  int firstFrame = 0;
  int lastFrame = -1;  // -1: the clip's last frame
  int step = 1;
  float toleranceRelative = 1.0f / 1750.0f;  // of the character's height: 1 mm at 1.75 m
  bool rootMotion = true;
  bool detectContacts = false;
  bool fewestBytes = false;  // each channel in the form that makes the smallest file (cubic keys)
  // Cubic keys (KeyInterpolation::Cubic) instead of lines; written "interpolation": "cubic"
  // or "linear", which older projects without it are.
  bool cubicKeys = false;
};

// The editor's view when the project was saved.
struct ProjectView {
  std::string clip;  // current clip's name
  int frame = 0;
  bool hasCamera = false;
  Vec3 cameraTarget = Vec3::Zero();
  float cameraDistance = 0.0f;
  float cameraYawRad = 0.0f;
  float cameraPitchRad = 0.0f;
};

// A joint renamed in the editor: its name in the asset and in the project. Clips name the
// joint by `projectName`; opening applies every rename before the clips are read.
struct ProjectJointRename {
  std::string assetName;
  std::string projectName;
};

// The character's IK rigs as the Rig panel left them. Joints are written by name (their
// project names, after joint_renames).
struct ProjectRigs {
  std::vector<RigDefinition> rigs;
  int active = -1;  // index into rigs, -1: no rig solves
  bool enabled = true;
};

struct Project {
  ProjectAsset asset;
  std::vector<ProjectJointRename> jointRenames;  // written as "joint_renames" when not empty
  std::vector<Clip> clips;
  ProjectGround ground;
  ProjectBakeSettings bake;
  ProjectView view;
  ProjectRigs rigs;  // written as "rigs" when there is one
  ConventionOverride convention;  // written as "capture_convention" when not Auto
};

// A project with its scene: the asset imported, the project's clips in place of the
// asset's own. `warnings` holds what the user should know but does not stop the opening
// (the asset changed since the save), each one line naming the project: the CLI prints
// them on stderr; an editor opening a project shows them (ProjectSession::load keeps them).
struct OpenedProject {
  Project project;
  Scene scene;
  std::vector<std::string> warnings;
};

// Opens a project file completely or not at all. Errors name the project and what is
// wrong: not a project (bad JSON, no format_version), a newer format, a missing asset (with
// the path it looked at), an asset that does not import, a rename of a joint the asset does
// not have (or to a name already taken), a clip or rig whose joint the asset does not have,
// an active rig index out of range, a malformed field (with its place, e.g.
// "clips[1] 'walk': tracks[3].rotation[5]" or "rigs.definitions[0]: handles[2] ...").
Result<OpenedProject> openProject(const std::string& projectPath);
// The same from the file's text (fuzzing); the asset path resolves against projectPath's folder.
Result<OpenedProject> openProjectFromText(std::string_view text, const std::string& projectPath);

// The project as JSON text. Clip joints are written by their names in `skeleton`.
std::string projectToJson(const Project& project, const Skeleton& skeleton);
// Writes the project atomically (atomic_file.h): a failed save leaves the old file as it
// was and returns the reason.
std::optional<std::string> saveProject(const std::string& projectPath, const Project& project,
                                       const Skeleton& skeleton);

// A project for an asset file: its clips, the path made relative to the project's folder,
// the asset's content hash. Fails when the asset cannot be read.
Result<Project> projectForAsset(const std::string& assetPath, const std::string& projectPath, const Scene& scene);

// "fnv1a64:<16 hex digits>" of the bytes: detects a changed asset, not an attacker.
std::string contentHash(std::string_view bytes);

// Any file the CLI or the editor accepts: a project (.articula) opened with its clips, or an
// asset imported (importScene). `rigs`, when given, receives the project's rigs (none for
// an asset); `warnings`, when given, OpenedProject::warnings or what the reader repaired in
// an asset (importScene's repairs), for the user to see: the CLI prints them on stderr, the editor
// shows them in its message bar.
Result<Scene> loadSceneOrProject(const std::string& path, ProjectRigs* rigs = nullptr,
                                 std::vector<std::string>* warnings = nullptr);

}  // namespace articula
