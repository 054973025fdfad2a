#include "core/project/project_file.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "core/anim/layer_stack.h"
#include "core/io/atomic_file.h"
#include "core/io/import.h"
#include "core/project/export_options.h"
#include "core/project/rig_json.h"
#include "core/rig/humanoid_rig.h"
#include "core/samples/mannequin.h"

namespace articula {
namespace {

namespace fs = std::filesystem;

const std::string kData = std::string(ARTICULA_TEST_DATA_DIR);

class ProjectFile : public ::testing::Test {
 protected:
  void SetUp() override {
    mDir = fs::temp_directory_path() /
           ("articula_project_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(mDir);
    fs::create_directories(mDir);
  }
  void TearDown() override { fs::remove_all(mDir); }

  std::string path(const std::string& name) const { return (mDir / name).string(); }
  static std::string read(const std::string& file) {
    std::string text;
    EXPECT_FALSE(readWholeFile(file, text).has_value());
    return text;
  }
  static void write(const std::string& file, const std::string& text) { std::ofstream(file, std::ios::binary) << text; }
  int filesIn(const fs::path& dir) const {
    int n = 0;
    for ([[maybe_unused]] const auto& entry : fs::directory_iterator(dir)) ++n;
    return n;
  }

  fs::path mDir;
};

Project mannequinProject(const Scene& scene) {
  Project project;
  project.asset.builtin = "mannequin";
  project.clips = scene.clips;
  project.clips[0].name = "walk edited";
  project.clips[0].curves["contact.left_foot"].insertKey(0.55, 0.25, Interpolation::Linear);
  project.ground = {true, Vec3(0.0f, -0.01f, 0.0f), Vec3(0.0f, 1.0f, 0.1f).normalized()};
  project.bake = {2, 20, 2, 2e-3f, false, true, true, true};
  project.view.clip = "walk edited";
  project.view.frame = 7;
  project.view.hasCamera = true;
  project.view.cameraTarget = Vec3(0.1f, 0.9f, 0.0f);
  project.view.cameraDistance = 3.5f;
  project.view.cameraYawRad = 0.4f;
  project.view.cameraPitchRad = -0.2f;
  // The humanoid rig with hand edits: a weaker left leg and a lowered spine tolerance; and a
  // second, inactive rig with one CCD handle; the active rig switched off.
  Result<RigDefinition> humanoid = buildHumanoidRig(scene.skeleton);
  EXPECT_TRUE(humanoid.ok()) << humanoid.error();
  if (humanoid) {
    humanoid->handles[1].weight = 0.25f;
    humanoid->handles[0].toleranceModel = 5e-4f;
    project.rigs.rigs.push_back(*humanoid);
    RigDefinition arm;
    arm.name = "arm only";
    arm.handles.push_back(humanoid->handles.back());
    project.rigs.rigs.push_back(std::move(arm));
  }
  project.rigs.active = 0;
  project.rigs.enabled = false;
  return project;
}

TEST_F(ProjectFile, RoundTripKeepsEveryKeyAndSetting) {
  const Scene scene = makeMannequin();
  const Project project = mannequinProject(scene);
  ASSERT_FALSE(saveProject(path("walk.articula"), project, scene.skeleton).has_value());
  const auto opened = openProject(path("walk.articula"));
  ASSERT_TRUE(opened.ok()) << opened.error();
  EXPECT_TRUE(opened->warnings.empty());
  // Saving what was opened writes the same bytes: every key, handle and setting came back.
  EXPECT_EQ(projectToJson(opened->project, opened->scene.skeleton), projectToJson(project, scene.skeleton));
  ASSERT_EQ(opened->scene.clips.size(), 1u);
  EXPECT_EQ(opened->scene.clips[0].name, "walk edited");
  EXPECT_EQ(opened->project.view.frame, 7);
  EXPECT_TRUE(opened->project.view.hasCamera);
  EXPECT_FLOAT_EQ(opened->project.view.cameraDistance, 3.5f);
  EXPECT_EQ(opened->project.bake.step, 2);
  EXPECT_FALSE(opened->project.bake.rootMotion);
  EXPECT_TRUE(opened->project.bake.fewestBytes);
  EXPECT_TRUE(opened->project.bake.cubicKeys);
  ASSERT_EQ(opened->project.rigs.rigs.size(), 2u);
  EXPECT_EQ(opened->project.rigs.rigs, project.rigs.rigs);
  EXPECT_EQ(opened->project.rigs.active, 0);
  EXPECT_FALSE(opened->project.rigs.enabled);
  // The clip samples exactly as the original.
  Pose a(scene.skeleton.restPose().begin(), scene.skeleton.restPose().end());
  Pose b = a;
  ClipSampler(&project.clips[0]).sample(0.37, a);
  ClipSampler(&opened->scene.clips[0]).sample(0.37, b);
  for (std::size_t j = 0; j < a.size(); ++j) {
    EXPECT_EQ(a[j].translation, b[j].translation) << j;
    EXPECT_EQ(a[j].rotation.coeffs(), b[j].rotation.coeffs()) << j;
  }
}

// A clip with a raised-arm additive layer (weight keyed) and a muted override layer.
Project layeredProject(const Scene& scene) {
  Project project = mannequinProject(scene);
  Clip& clip = project.clips[0];
  AnimLayer& raise = clip.layers.emplace_back();
  raise.name = "raise arm";
  RotationKey key;
  key.time = 0.5;
  key.value = Quat(Eigen::AngleAxisf(0.35f, Vec3::UnitZ()));
  raise.trackFor(scene.skeleton.findJoint("LeftArm")).rotation.setKeys({key});
  raise.weight.insertKey(0.0, 0.0, Interpolation::Linear);
  raise.weight.insertKey(1.0, 1.0, Interpolation::Linear);
  AnimLayer& hips = clip.layers.emplace_back();
  hips.name = "hips down";
  hips.mode = LayerMode::Override;
  hips.muted = true;
  hips.locked = true;
  hips.trackFor(scene.skeleton.findJoint("Hips")).translation.y.insertKey(0.2, 0.9);
  return project;
}

TEST_F(ProjectFile, LayersRoundTripAndAMissingJointsChannelsStayAsOrphans) {
  const Scene scene = makeMannequin();
  const Project project = layeredProject(scene);
  ASSERT_FALSE(saveProject(path("layers.articula"), project, scene.skeleton).has_value());
  const auto opened = openProject(path("layers.articula"));
  ASSERT_TRUE(opened.ok()) << opened.error();
  EXPECT_EQ(projectToJson(opened->project, opened->scene.skeleton), projectToJson(project, scene.skeleton));
  const std::vector<AnimLayer>& layers = opened->scene.clips[0].layers;
  ASSERT_EQ(layers.size(), 2u);
  EXPECT_EQ(layers[0].name, "raise arm");
  EXPECT_EQ(layers[1].mode, LayerMode::Override);
  EXPECT_TRUE(layers[1].muted && layers[1].locked && !layers[1].solo);
  EXPECT_EQ(layers[0].weight.size(), 2u);

  // The asset lost the joint a layer keys: the project opens, the channel is kept by name.
  std::string text = read(path("layers.articula"));
  const std::size_t layersAt = text.find("\"layers\"");
  ASSERT_NE(layersAt, std::string::npos);
  const std::size_t at = text.find("\"joint\": \"Hips\"", layersAt);
  ASSERT_NE(at, std::string::npos);
  text.replace(at, std::string("\"joint\": \"Hips\"").size(), "\"joint\": \"Tail\"");
  const auto orphaned = openProjectFromText(text, path("orphan.articula"));
  ASSERT_TRUE(orphaned.ok()) << orphaned.error();
  const AnimLayer& hips = orphaned->scene.clips[0].layers[1];
  EXPECT_TRUE(hips.tracks.empty());
  ASSERT_EQ(hips.orphans.size(), 1u);
  EXPECT_EQ(hips.orphans[0].jointName, "Tail");
  EXPECT_EQ(hips.orphans[0].track.translation.y.size(), 1u);
  const std::string saved = projectToJson(orphaned->project, orphaned->scene.skeleton);
  EXPECT_NE(saved.find("\"joint\": \"Tail\""), std::string::npos);
}

// Chosen clips must be ascending indices of the scene's clips: anything else is refused in one
// line naming the file, and nothing is written.
TEST_F(ProjectFile, ExportOfChosenClipsRefusesIndicesOutOfOrderOrRange) {
  const auto robot = importScene(kData + "/gltf/RobotExpressive/RobotExpressive.glb");
  ASSERT_TRUE(robot.ok()) << robot.error();
  for (const std::vector<int>& chosen : {std::vector<int>{3, 1}, {2, 2}, {-1}, {14}}) {
    KeyWriteOptions keys;
    keys.clips = chosen;
    const auto error = writeSceneGltf(*robot, path("chosen.glb"), keys);
    ASSERT_TRUE(error.has_value());
    EXPECT_EQ(*error, path("chosen.glb") + ": the chosen clips are not ascending indices of the scene's 14 clips");
    EXPECT_FALSE(fs::exists(path("chosen.glb")));
  }
  KeyWriteOptions keys;
  keys.clips = {1, 13};
  ASSERT_FALSE(writeSceneGltf(*robot, path("chosen.glb"), keys).has_value());
  const auto written = importScene(path("chosen.glb"));
  ASSERT_TRUE(written.ok()) << written.error();
  ASSERT_EQ(written->clips.size(), 2u);
  EXPECT_EQ(written->clips[0].name, robot->clips[1].name);
  EXPECT_EQ(written->clips[1].name, robot->clips[13].name);
}

// Export plays the stack: the written clip has the unmuted layers merged in.
TEST_F(ProjectFile, ExportWritesTheLayeredMotion) {
  Scene scene = makeMannequin();
  const Project project = layeredProject(scene);
  scene.clips = {project.clips[0]};
  ASSERT_FALSE(writeSceneGltf(scene, path("layered.glb")).has_value());
  const auto written = importScene(path("layered.glb"));
  ASSERT_TRUE(written.ok()) << written.error();
  const int arm = written->skeleton.findJoint("LeftArm");
  ASSERT_GE(arm, 0);
  const Clip& clip = scene.clips[0];
  float worst = 0.0f;
  float raised = 0.0f;
  for (double t : {0.2, 0.5, 0.8, 1.0}) {
    const std::vector<Transform> layered = sampleLayered(clip, scene.skeleton.restPose(), t);
    std::vector<Transform> base(scene.skeleton.restPose().begin(), scene.skeleton.restPose().end());
    ClipSampler(&clip).sample(t, base);
    std::vector<Transform> read(written->skeleton.restPose().begin(), written->skeleton.restPose().end());
    ClipSampler(&written->clips[0]).sample(t, read);
    const auto a = static_cast<std::size_t>(arm);
    worst = std::max(worst, read[a].rotation.angularDistance(layered[a].rotation));
    raised = std::max(raised, base[a].rotation.angularDistance(layered[a].rotation));
  }
  EXPECT_GT(raised, 0.1f);
  EXPECT_LT(worst, 0.01f);
}

TEST_F(ProjectFile, AssetTravelsByRelativePathAndAChangeIsNoticed) {
  fs::create_directories(mDir / "assets");
  fs::copy_file(kData + "/gltf/RiggedSimple/RiggedSimple.glb", mDir / "assets/rigged.glb");
  const auto scene = loadSceneOrProject(path("assets/rigged.glb"));
  ASSERT_TRUE(scene.ok()) << scene.error();
  auto project = projectForAsset(path("assets/rigged.glb"), path("shot.articula"), *scene);
  ASSERT_TRUE(project.ok()) << project.error();
  EXPECT_EQ(project->asset.path, "assets/rigged.glb");
  ASSERT_FALSE(saveProject(path("shot.articula"), *project, scene->skeleton).has_value());

  // The project and its asset move together: still opens.
  fs::rename(mDir, mDir.string() + "_moved");
  const std::string moved = mDir.string() + "_moved/shot.articula";
  auto opened = openProject(moved);
  ASSERT_TRUE(opened.ok()) << opened.error();
  EXPECT_TRUE(opened->warnings.empty());
  EXPECT_EQ(opened->scene.skeleton.jointCount(), scene->skeleton.jointCount());
  ASSERT_EQ(opened->scene.clips.size(), 1u);
  EXPECT_EQ(opened->scene.clips[0].keyCount(), scene->clips[0].keyCount());
  const auto viaLoader = loadSceneOrProject(moved);
  ASSERT_TRUE(viaLoader.ok()) << viaLoader.error();

  // The asset changes: opens, with a warning.
  std::ofstream(mDir.string() + "_moved/assets/rigged.glb", std::ios::app | std::ios::binary) << std::string(4, '\0');
  opened = openProject(moved);
  ASSERT_TRUE(opened.ok()) << opened.error();
  ASSERT_EQ(opened->warnings.size(), 1u);
  EXPECT_NE(opened->warnings[0].find("has changed since the project was saved"), std::string::npos);

  // The asset goes away: a message naming it, nothing opened.
  fs::remove(mDir.string() + "_moved/assets/rigged.glb");
  opened = openProject(moved);
  ASSERT_FALSE(opened.ok());
  EXPECT_NE(opened.error().find("its asset 'assets/rigged.glb' is missing"), std::string::npos) << opened.error();
  fs::rename(mDir.string() + "_moved", mDir);
}

TEST_F(ProjectFile, NewerCorruptAndForeignFilesAreRefusedWithAReason) {
  const Scene scene = makeMannequin();
  const std::string good = projectToJson(mannequinProject(scene), scene.skeleton);

  std::string newer = good;
  const std::string version = "\"format_version\": " + std::to_string(kProjectFormatVersion);
  newer.replace(newer.find(version), version.size(), "\"format_version\": 7");
  write(path("newer.articula"), newer);
  auto opened = openProject(path("newer.articula"));
  ASSERT_FALSE(opened.ok());
  EXPECT_NE(opened.error().find("saved by a newer Articula (format 7; this version reads formats 1 to " +
                                std::to_string(kProjectFormatVersion) + ")"),
            std::string::npos)
      << opened.error();

  write(path("cut.articula"), good.substr(0, good.size() / 2));
  opened = openProject(path("cut.articula"));
  ASSERT_FALSE(opened.ok());
  EXPECT_NE(opened.error().find("not valid JSON"), std::string::npos) << opened.error();

  write(path("other.articula"), "{\"asset\": {}}");
  opened = openProject(path("other.articula"));
  ASSERT_FALSE(opened.ok());
  EXPECT_NE(opened.error().find("not an Articula project"), std::string::npos) << opened.error();

  std::string unknownJoint = good;
  unknownJoint.replace(unknownJoint.find("\"LeftArm\""), 9, "\"LeftArmX\"");
  write(path("joint.articula"), unknownJoint);
  opened = openProject(path("joint.articula"));
  ASSERT_FALSE(opened.ok());
  EXPECT_NE(opened.error().find("no joint named 'LeftArmX' in the asset"), std::string::npos) << opened.error();
  EXPECT_NE(opened.error().find("clips[0] 'walk edited': tracks["), std::string::npos) << opened.error();

  std::string badKey = good;
  badKey.replace(badKey.find("\"bezier\""), 8, "\"wobbly\"");
  write(path("key.articula"), badKey);
  opened = openProject(path("key.articula"));
  ASSERT_FALSE(opened.ok());
  EXPECT_NE(opened.error().find("interpolation must be one of 'constant', 'linear', 'bezier'"), std::string::npos)
      << opened.error();

  opened = openProject(path("absent.articula"));
  ASSERT_FALSE(opened.ok());
  EXPECT_NE(opened.error().find("absent.articula': no such file"), std::string::npos) << opened.error();
}

TEST_F(ProjectFile, RigsNamingMissingJointsOrABadActiveIndexAreRefused) {
  const Scene scene = makeMannequin();
  const std::string good = projectToJson(mannequinProject(scene), scene.skeleton);
  const std::size_t rigs = good.find("\"rigs\"");
  ASSERT_NE(rigs, std::string::npos);

  std::string unknownJoint = good;
  unknownJoint.replace(unknownJoint.find("\"LeftUpLeg\"", rigs), 11, "\"LeftUpLegX\"");
  auto opened = openProjectFromText(unknownJoint, path("joint.articula"));
  ASSERT_FALSE(opened.ok());
  EXPECT_NE(opened.error().find("rigs.definitions[0]: "), std::string::npos) << opened.error();
  EXPECT_NE(opened.error().find("'LeftUpLegX'"), std::string::npos) << opened.error();

  std::string badActive = good;
  badActive.replace(badActive.find("\"active\": 0", rigs), 11, "\"active\": 2");
  opened = openProjectFromText(badActive, path("active.articula"));
  ASSERT_FALSE(opened.ok());
  EXPECT_NE(opened.error().find("rigs.active 2 names no rig (there are 2)"), std::string::npos) << opened.error();

  std::string notObject =
      good.substr(0, rigs) + "\"rigs\": [],\n \"unused\": {" + good.substr(good.find('{', rigs) + 1);
  opened = openProjectFromText(notObject, path("array.articula"));
  ASSERT_FALSE(opened.ok());
  EXPECT_NE(opened.error().find("'rigs' must be an object"), std::string::npos) << opened.error();
}

TEST_F(ProjectFile, RigsFollowJointRenames) {
  Scene scene = makeMannequin();
  Project project = mannequinProject(scene);
  const int knee = scene.skeleton.findJoint("LeftLeg");
  project.jointRenames.push_back({"LeftLeg", "knee_L"});
  scene.skeleton.setName(knee, "knee_L");
  ASSERT_FALSE(saveProject(path("renamed.articula"), project, scene.skeleton).has_value());
  const auto opened = openProject(path("renamed.articula"));
  ASSERT_TRUE(opened.ok()) << opened.error();
  EXPECT_NE(read(path("renamed.articula")).find("\"knee_L\""), std::string::npos);
  ASSERT_EQ(opened->project.rigs.rigs.size(), 2u);
  EXPECT_EQ(opened->project.rigs.rigs[0], project.rigs.rigs[0]) << "same joint indices, found by the new name";
}

// The user's characterisation (role labels) is part of the project: saved by joint name,
// after renames, and back on the same joints when it opens.
TEST_F(ProjectFile, HumanoidRolesSurviveSaveAndOpenAfterARename) {
  Scene scene = makeMannequin();
  Project project = mannequinProject(scene);
  const int knee = scene.skeleton.findJoint("LeftLeg");
  project.jointRenames.push_back({"LeftLeg", "knee_L"});
  scene.skeleton.setName(knee, "knee_L");
  scene.skeleton.setRole(scene.skeleton.findJoint("Hips"), "hips");
  scene.skeleton.setRole(knee, "leftKnee");
  ASSERT_FALSE(saveProject(path("roles.articula"), project, scene.skeleton).has_value());
  const auto opened = openProject(path("roles.articula"));
  ASSERT_TRUE(opened.ok()) << opened.error();
  const Skeleton& skeleton = opened->scene.skeleton;
  EXPECT_EQ(skeleton.findRole("hips"), skeleton.findJoint("Hips"));
  EXPECT_EQ(skeleton.findRole("leftKnee"), knee);
  EXPECT_EQ(skeleton.findRole("rightKnee"), -1);

  const std::string unknownRole = R"({"format_version": 2, "asset": {"builtin": "mannequin"},
                                      "humanoid_roles": {"leftElbow": "LeftForeArm"}})";
  const auto refused = openProjectFromText(unknownRole, path("elbow.articula"));
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().find("humanoid_roles: unknown role 'leftElbow'"), std::string::npos) << refused.error();
}

TEST_F(ProjectFile, TheCaptureConventionTheUserSetIsKeptAndAnOldProjectIsAuto) {
  const Scene scene = makeMannequin();
  Project project = mannequinProject(scene);
  project.convention = {Vec3(0.0f, 0.0f, 1.0f), Vec3(-1.0f, 0.0f, 0.0f), 100.0};
  ASSERT_FALSE(saveProject(path("convention.articula"), project, scene.skeleton).has_value());
  const std::string saved = read(path("convention.articula"));
  for (const char* line : {R"("capture_convention": {)", R"("up": "+Z")", R"("facing": "-X")", R"("units_per_metre": 100)"})
    EXPECT_NE(saved.find(line), std::string::npos) << line;
  const auto opened = openProject(path("convention.articula"));
  ASSERT_TRUE(opened.ok()) << opened.error();
  EXPECT_EQ(opened->project.convention, project.convention);
  EXPECT_EQ(opened->scene.convention, project.convention);
  // Only what was set is written: the units alone.
  project.convention = {std::nullopt, std::nullopt, 39.3701};
  const auto unitsOnly = openProjectFromText(projectToJson(project, scene.skeleton), path("units.articula"));
  ASSERT_TRUE(unitsOnly.ok()) << unitsOnly.error();
  EXPECT_EQ(unitsOnly->scene.convention, project.convention);
  // Every project written before the override opens as Auto.
  const auto v2 = openProject(kData + "/projects/mannequin_v2.articula");
  ASSERT_TRUE(v2.ok()) << v2.error();
  EXPECT_TRUE(v2->scene.convention.isAuto());
  EXPECT_EQ(projectToJson(v2->project, v2->scene.skeleton).find("capture_convention"), std::string::npos);
  for (const auto& [convention, message] :
       {std::pair{R"({"up": "up"})", R"(capture_convention.up: expected +X, -X, +Y, -Y, +Z or -Z, got "up")"},
        std::pair{R"({"up": "+Y", "facing": "-Y"})", "capture_convention: the facing -Y is parallel to the up +Y"},
        std::pair{R"({"units_per_metre": -3})", "capture_convention: the units must be a positive"},
        std::pair{R"("+Y")", "'capture_convention' must be an object"}}) {
    const std::string text =
        std::string(R"({"format_version": 2, "asset": {"builtin": "mannequin"}, "capture_convention": )") + convention + "}";
    const auto refused = openProjectFromText(text, path("bad.articula"));
    ASSERT_FALSE(refused.ok()) << convention;
    EXPECT_NE(refused.error().find(message), std::string::npos) << refused.error();
  }
}

TEST_F(ProjectFile, EveryPrefixOfAProjectFailsCleanlyOrOpens) {
  const Scene scene = makeMannequin();
  const std::string good = projectToJson(mannequinProject(scene), scene.skeleton);
  // Cut anywhere before the closing brace: refused with a message, never a crash.
  for (std::size_t n = 0; n < good.rfind('}'); n += 97) {
    const auto opened = openProjectFromText(std::string_view(good).substr(0, n), path("prefix.articula"));
    EXPECT_FALSE(opened.ok());
  }
  EXPECT_TRUE(openProjectFromText(good, path("whole.articula")).ok());
}

TEST_F(ProjectFile, OlderFormatsKeepLoading) {
  // One file per format version, written by that version and never rewritten.
  for (const char* file :
       {"projects/mannequin_v1.articula", "projects/rigged_simple_v1.articula", "projects/mannequin_v2.articula"}) {
    const auto opened = openProject(kData + "/" + file);
    ASSERT_TRUE(opened.ok()) << file << ": " << opened.error();
    EXPECT_FALSE(opened->scene.clips.empty()) << file;
    EXPECT_FALSE(opened->scene.clips[0].validate(opened->scene.skeleton.jointCount()).has_value()) << file;
    EXPECT_TRUE(opened->scene.clips[0].layers.empty()) << file;  // a base alone
  }
  // Version 2 carries the rig it was written with (articula-cli export --rig auto).
  const auto v2 = openProject(kData + "/projects/mannequin_v2.articula");
  ASSERT_TRUE(v2.ok()) << v2.error();
  ASSERT_EQ(v2->project.rigs.rigs.size(), 1u);
  EXPECT_EQ(v2->project.rigs.active, 0);
  EXPECT_EQ(v2->project.rigs.rigs[0].handles.size(), 5u);
}

TEST_F(ProjectFile, AtomicSaveReplacesWholeOrLeavesTheOldFile) {
  const std::string target = path("scene.articula");
  ASSERT_FALSE(writeFileAtomically(target, "first version").has_value());
  ASSERT_FALSE(writeFileAtomically(target, "second").has_value());
  EXPECT_EQ(read(target), "second");
  EXPECT_EQ(filesIn(mDir), 1);  // no temporary left behind

  // The target is a folder: the rename fails, the folder is untouched, no temporary stays.
  fs::create_directories(mDir / "folder.articula" / "inside");
  const auto error = writeFileAtomically(path("folder.articula"), "x");
  ASSERT_TRUE(error.has_value());
  EXPECT_NE(error->find("cannot save '" + path("folder.articula") + "': replacing the old file"), std::string::npos)
      << *error;
  EXPECT_TRUE(fs::is_directory(mDir / "folder.articula" / "inside"));
  EXPECT_EQ(filesIn(mDir), 2);

  // The folder does not exist.
  const auto missing = writeFileAtomically(path("no/such/folder/x.articula"), "x");
  ASSERT_TRUE(missing.has_value());
  EXPECT_NE(missing->find("creating a temporary file: No such file or directory"), std::string::npos) << *missing;
}

}  // namespace
}  // namespace articula
