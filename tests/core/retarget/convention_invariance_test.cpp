// Issue 37's metamorphic suite: a capture rewritten in another convention (rest lying along
// +X, Z-up, centimetres, inches, 30 fps, other joint names, an extra root, an A-pose rest)
// without changing its motion gives the same export (in metres whatever its units), contacts,
// foot-skate bake and retarget as the original, through the functions articula-cli runs
// (exportOptionsFor, standUpright, detectContacts, bakeThroughRig, retargetClip).
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <map>

#include "convention_variants.h"
#include "core/bake/bake_pipeline.h"
#include "core/bake/key_reduction.h"
#include "core/bake/leading_rest_frame.h"
#include "core/io/gltf_export.h"
#include "core/io/import.h"
#include "core/project/export_options.h"
#include "core/retarget/rest_pose.h"
#include "core/retarget/retarget_clip.h"
#include "core/rig/humanoid_map.h"
#include "core/rig/humanoid_rig.h"
#include "core/skeleton/local_to_model.h"

namespace articula::test {
namespace {

struct Capture {
  const char* path;  // under tests/data
  const char* clip;  // the clip analysed ("" = the first)
  // Why its shape alone gives no humanoid (mapHumanoidByStructure), so nameless joints are
  // not one of its conventions; null when the shape maps it.
  const char* shapeDoesNotMap;
};

const Capture kCaptures[] = {
    {"bvh/cmu-mb-2010/02_01.bvh", "", nullptr},
    {"bvh/makehuman/walk1.bvh", "", nullptr},
    {"gltf/RobotExpressive/RobotExpressive.glb", "Walking",
     "its feet are IK bones beside the legs, so the shape finds no pair of matching leg chains"},
    {"bvh/cmu-mb-2010/09_11.bvh", "", nullptr},
    {"bvh/cmu-mb-2010/02_03.bvh", "", nullptr},
    {"fbx/cmu-blender/02_01_armature.fbx", "", nullptr},
    {"collada/cmu-blender/02_01_armature.dae", "", nullptr},
    {"gltf/CesiumMan/CesiumMan.glb", "", nullptr},
};

using Convention = Variant (*)(const Scene&);
// The capture's own units in one metre (CMU's are 1/0.45 in).
float unitsPerMetreOf(const Scene& s) {
  auto map = mapHumanoid(s.skeleton);
  return static_cast<float>(conventionJobFor(s, *map).run()->unitsPerMetre);
}
Variant centimetres(const Scene& s) { return scaled(s, 100.0f / unitsPerMetreOf(s), "centimetres"); }
Variant decimetres(const Scene& s) { return scaled(s, 10.0f / unitsPerMetreOf(s), "decimetres"); }
Variant inches(const Scene& s) { return scaled(s, 39.3701f / unitsPerMetreOf(s), "inches"); }
Variant at30(const Scene& s) { return resampled(s, 30.0); }
Variant at60(const Scene& s) { return resampled(s, 60.0); }

const Convention kConventions[] = {restAlongX,   aPoseRest,       zUp,
                                   centimetres,  decimetres,      inches,
                                   at30,         at60,            indexedNames,
                                   sideSuffixNames, sidePrefixNames, mixamoNames,
                                   extraRoot};

// Conventions a capture does not keep yet, with what was measured: skipped, saying so, until
// the gap is closed (then its line goes).
struct KnownGap {
  int capture;  // index in kCaptures
  Convention convention;
  const char* measured;
};
const KnownGap kKnownGaps[] = {
    {4, at60, "a 25 ms touch of the left toe (3 frames at 120 fps, joined to its contact across a 2-frame "
              "gap) falls between 60 fps frames: the span starts 0.042 s later"},
    {5, restAlongX, "the convention refuses it: the hips are above the feet in 0 % of the frames"},
    {5, at30, "the bake's foot slide differs by up to 0.46 mm"},
    {5, at60, "the bake's foot slide differs by up to 0.21 mm"},
    {6, indexedNames, "the shape maps other joints than the names: the retarget differs by 19.5 mm"},
    {7, indexedNames, "the shape maps other joints than the names: the retarget differs by 21.4 mm"},
};

// The clip from its second frame on: a capture's calibration T-pose, held one frame and left at
// once (CMU's), is a jump that no resample keeps.
Clip withoutFirstFrame(const Clip& clip) {
  Clip out = clip;
  out.startTime = clip.timeOf(1);
  for (JointTrack& track : out.tracks) {
    for (Curve* c : {&track.translation.x, &track.translation.y, &track.translation.z, &track.scale.x, &track.scale.y,
                     &track.scale.z}) {
      while (c->size() > 1 && c->keys()[0].time < out.startTime - 1e-9) c->removeKey(0);
    }
    while (track.rotation.size() > 1 && track.rotation.keys()[0].time < out.startTime - 1e-9) track.rotation.removeKey(0);
  }
  return out;
}

// The capture with only its analysed clip (without a calibration first frame).
Scene load(const Capture& capture) {
  auto scene = importScene(std::string(ARTICULA_TEST_DATA_DIR) + "/" + capture.path);
  EXPECT_TRUE(scene) << (scene ? "" : scene.error());
  for (const Clip& clip : scene->clips) {
    if (std::string(capture.clip).empty() || clip.name == capture.clip) {
      const Clip kept = leadsWithRestFrame(scene->skeleton, clip) ? withoutFirstFrame(clip) : clip;
      scene->clips.assign(1, kept);
      break;
    }
  }
  return std::move(*scene);
}

// What the CLI's export, contacts and bake --contacts detect make of a scene.
struct Outcome {
  Scene exported;                                          // the written glTF, read back
  std::map<std::string, std::vector<ContactInterval>> spans;  // contacts, per stride curve
  Scene baked;                                             // the baked clip as bake writes it, read back
  std::map<std::string, std::vector<float>> slideModel;     // bake: slide per planted span
  Scene retargeted;                                        // the robot with the clip retargeted
  double frameRate = 0.0;
};

// The character the captures are retargeted onto, and its map.
const Scene& robot() {
  static const Scene scene = *importScene(std::string(ARTICULA_TEST_DATA_DIR) + "/gltf/RobotExpressive/RobotExpressive.glb");
  return scene;
}

Outcome outcomeOf(const Scene& scene, const std::string& tag) {
  Outcome o;
  o.frameRate = scene.clips.front().frameRate;
  const std::string path =
      (std::filesystem::path(ARTICULA_BINARY_DIR) / ("convention_" + tag + ".glb")).string();
  EXPECT_FALSE(exportGltf(scene, path, exportOptionsFor(scene)));
  auto exported = importScene(path);
  EXPECT_TRUE(exported) << (exported ? "" : exported.error());
  o.exported = std::move(*exported);

  auto standing = standUpright(scene, 0);
  EXPECT_TRUE(standing) << (standing ? "" : standing.error());
  Scene stood = standing->scene;
  auto feet = humanoidFeet(stood.skeleton);
  EXPECT_TRUE(feet) << (feet ? "" : feet.error());
  ContactDetectionOptions detection;
  detection.upModel = standing->convention->upModel;
  Clip analysed = stood.clips.front();
  auto contacts = detectContacts(stood, analysed, *feet, detection);
  EXPECT_TRUE(contacts) << (contacts ? "" : contacts.error());
  for (const FootContacts& foot : contacts->feet) o.spans[foot.curveName] = foot.foot;

  auto rig = buildHumanoidRig(stood.skeleton);
  EXPECT_TRUE(rig) << (rig ? "" : rig.error());
  BakePipelineOptions bake;
  bake.detectContacts = true;
  // Keys kept within 0.05 mm, so the comparison sees the bake, not the key reduction.
  bake.bake.reduction.toleranceModel = 0.05f / kReferenceHeightMm * standingHeight(*standing);
  auto baked = bakeThroughRig(stood, stood.clips.front(), *rig, bake);
  EXPECT_TRUE(baked) << (baked ? "" : baked.error());
  for (const FootCleanupSummary& foot : baked->feet) o.slideModel[foot.curveName] = foot.slideAfterModel;
  auto sourceMap = mapHumanoid(standing->scene.skeleton);
  auto robotMap = mapHumanoid(robot().skeleton);
  auto retargeted = retargetClip(standing->scene, *sourceMap, standing->scene.clips.front(), robot(), *robotMap,
                                 {1e-4f * robot().characterHeight(), false, 0.0, false, false});
  EXPECT_TRUE(retargeted) << (retargeted ? "" : retargeted.error());
  o.retargeted = robot();
  o.retargeted.clips.assign(1, *retargeted);

  stood.clips.assign(1, baked->clip);
  const std::string bakedPath = path.substr(0, path.size() - 4) + "_baked.glb";
  EXPECT_FALSE(exportGltf(stood, bakedPath, exportOptionsFor(stood)));
  auto bakedBack = importScene(bakedPath);
  EXPECT_TRUE(bakedBack) << (bakedBack ? "" : bakedBack.error());
  o.baked = std::move(*bakedBack);
  return o;
}

// The largest distance between the original's joints and the variant's (undone to the
// original's units) over the instants that are frames of both, in millimetres of a 1.75 m figure.
float maxJointDistanceMm(const Scene& original, const Scene& variant, const std::vector<std::string>& nodeName,
                         float unitsPerOriginal, const Scene& source, float heightModel) {
  const Clip& clipO = original.clips.front();
  const Clip& clipV = variant.clips.front();
  ClipSampler samplerO(&clipO), samplerV(&clipV);
  Pose poseO(original.skeleton.restPose().begin(), original.skeleton.restPose().end());
  Pose poseV(variant.skeleton.restPose().begin(), variant.skeleton.restPose().end());
  float worst = 0.0f;
  for (int f = 0; f < clipV.frameCount(); ++f) {
    const double t = clipV.timeOf(f);
    if (t > clipO.endTime + 1e-9) break;
    // Only instants that are frames of both: between its frames each clip is interpolated.
    const double frameO = (t - clipO.startTime) * clipO.frameRate;
    if (std::abs(frameO - std::round(frameO)) > 1e-4) continue;
    std::copy(original.skeleton.restPose().begin(), original.skeleton.restPose().end(), poseO.begin());
    std::copy(variant.skeleton.restPose().begin(), variant.skeleton.restPose().end(), poseV.begin());
    samplerO.sample(t, poseO);
    samplerV.sample(t, poseV);
    const auto modelO = localToModel(original.skeleton, poseO);
    const auto modelV = localToModel(variant.skeleton, poseV);
    for (int j = 0; j < source.skeleton.jointCount(); ++j) {
      if (source.skeleton.kind(j) != NodeKind::Joint) continue;
      const int jo = original.skeleton.findJoint(source.skeleton.name(j));
      const int jv = variant.skeleton.findJoint(nodeName[static_cast<std::size_t>(j)]);
      if (jo < 0 || jv < 0) {
        ADD_FAILURE() << "joint " << source.skeleton.name(j) << " missing after the round trip";
        return 1e9f;
      }
      const Vec3 pO = modelO[static_cast<std::size_t>(jo)].translation();
      const Vec3 pV = modelV[static_cast<std::size_t>(jv)].translation() / unitsPerOriginal;
      worst = std::max(worst, (pO - pV).norm());
    }
  }
  return worst * kReferenceHeightMm / heightModel;
}

// The original's outcome, made once per capture.
const Outcome& originalOutcome(int capture, const Scene& scene) {
  static std::map<int, Outcome> cache;
  auto it = cache.find(capture);
  if (it == cache.end()) it = cache.emplace(capture, outcomeOf(scene, "original" + std::to_string(capture))).first;
  return it->second;
}

class ConventionInvariance : public testing::TestWithParam<std::tuple<int, int>> {};

// The variant's export, retarget, bake, planted spans and foot slides against the original's
// (`before`, of `source`), each undone to the original's convention.
void expectSameOutcome(const Scene& source, const Variant& variant, const Outcome& before, const Outcome& after) {
  auto map = mapHumanoid(source.skeleton);
  ASSERT_TRUE(map);
  CaptureConventionJob job{&source.skeleton, &*map, &source.clips.front(), {}};
  const auto convention = job.run();
  const float heightModel = convention->heightModel;
  const float heightMetres = heightModel / static_cast<float>(convention->unitsPerMetre);

  // A written file is in metres whatever the capture's units, so it is compared as it is. A
  // capture of no person's size (the robot) keeps its units, and a copy scaled into one is
  // read in that unit: its file is undone by what each was taken for.
  const float fileUnitsPerOriginal =
      convention->units == "unknown" ? variant.unitsPerOriginal / unitsPerMetreOf(variant.scene) : 1.0f;
  auto fileDistanceMm = [&](const Scene& a, const Scene& b) {
    return maxJointDistanceMm(a, b, variant.nodeName, fileUnitsPerOriginal, source, heightMetres);
  };
  EXPECT_LE(fileDistanceMm(before.exported, after.exported), 1.0f) << "export";
  // The retarget reads the clip's frames: checked where they stay (a resample of MakeHuman or
  // the robot differs by up to 2.1 mm). An A-pose rest retargets as the T-pose it came from.
  if (variant.framesKept) {
    const std::vector<std::string> robotNames(robot().skeleton.names().begin(), robot().skeleton.names().end());
    EXPECT_LE(maxJointDistanceMm(before.retargeted, after.retargeted, robotNames, 1.0f, robot(),
                                 robot().characterHeight()),
              1.0f)
        << "retarget";
  }
  // A resample bakes other frames: the cleanup holds each foot where its contact starts, which
  // moves by up to a frame, so only its spans and slides are compared.
  if (variant.framesKept) {
    EXPECT_LE(fileDistanceMm(before.baked, after.baked), 1.0f) << "bake";
  }

  // Planted spans within one frame of the coarser rate, compared in seconds.
  const double frame = 1.0 / std::min(before.frameRate, after.frameRate) + 1e-6;
  ASSERT_EQ(before.spans.size(), after.spans.size());
  for (const auto& [curve, spans] : before.spans) {
    const auto& other = after.spans.at(curve);
    ASSERT_EQ(spans.size(), other.size()) << curve;
    for (std::size_t i = 0; i < spans.size(); ++i) {
      EXPECT_NEAR(spans[i].first / before.frameRate, other[i].first / after.frameRate, frame) << curve << " span " << i;
      EXPECT_NEAR(spans[i].last / before.frameRate, other[i].last / after.frameRate, frame) << curve << " span " << i;
    }
  }
  const float mmPerModel = kReferenceHeightMm / heightModel;
  for (const auto& [curve, slides] : before.slideModel) {
    const auto& other = after.slideModel.at(curve);
    ASSERT_EQ(slides.size(), other.size()) << curve;
    for (std::size_t i = 0; i < slides.size(); ++i)
      EXPECT_NEAR(slides[i] * mmPerModel, other[i] / variant.unitsPerOriginal * mmPerModel, 0.2f) << curve << " " << i;
  }
}

TEST_P(ConventionInvariance, SameExportContactsAndBake) {
  const auto [captureIndex, conventionIndex] = GetParam();
  const Scene source = load(kCaptures[captureIndex]);
  const Variant variant = kConventions[conventionIndex](source);
  SCOPED_TRACE(std::string(kCaptures[captureIndex].path) + " as " + variant.name);
  if (kConventions[conventionIndex] == indexedNames && kCaptures[captureIndex].shapeDoesNotMap) {
    ASSERT_FALSE(mapHumanoid(variant.scene.skeleton)) << "the shape maps it now: drop shapeDoesNotMap";
    GTEST_SKIP() << kCaptures[captureIndex].shapeDoesNotMap;
  }
  for (const KnownGap& gap : kKnownGaps) {
    if (gap.capture == captureIndex && gap.convention == kConventions[conventionIndex])
      GTEST_SKIP() << "known gap: " << gap.measured;
  }
  const Outcome& before = originalOutcome(captureIndex, source);
  const Outcome after = outcomeOf(variant.scene, std::to_string(captureIndex) + "_" + std::to_string(conventionIndex));
  expectSameOutcome(source, variant, before, after);
}

std::string nameOf(const testing::TestParamInfo<std::tuple<int, int>>& info) {
  static const char* const kCaptureNames[] = {"Cmu02_01",        "MakeHumanWalk1",        "RobotExpressive",
                                              "Cmu09_11",        "Cmu02_03",              "Cmu02_01BlenderFbx",
                                              "Cmu02_01BlenderDae", "CesiumMan"};
  static const char* const kConventionNames[] = {"RestAlongX", "APoseRest",    "OtherUp",      "Centimetres", "Decimetres",
                                                 "Inches",     "At30fps",      "At60fps",      "IndexedNames",
                                                 "SideSuffixes", "SidePrefixes", "MixamoPrefix", "ExtraRoot"};
  return std::string(kCaptureNames[std::get<0>(info.param)]) + "_" + kConventionNames[std::get<1>(info.param)];
}

INSTANTIATE_TEST_SUITE_P(Captures, ConventionInvariance,
                         testing::Combine(testing::Range(0, static_cast<int>(std::size(kCaptures))), testing::Range(0, 13)), nameOf);

// Where the analysis cannot tell the up, the user says it (the Characterise panel, --up): CMU
// 02_01 somersaulting twice (standing in under a fifth of its frames) is read by its standing
// rest; its rest laid along +X, nothing says where up is and the capture is refused; with the
// original's up set by the user it gives the original's export, contacts, bake and retarget.
TEST(ConventionOverride, TheUsersUpGivesTheOriginalsMotionWhereTheAnalysisCannotTell) {
  const Scene source = somersaulting(load(kCaptures[0]), 2.0f);
  auto map = mapHumanoid(source.skeleton);
  ASSERT_TRUE(map);
  ASSERT_EQ(source.skeleton.parent(map->hips), kNoParent);
  const auto convention = conventionJobFor(source, *map).run();
  ASSERT_TRUE(convention) << convention.error();
  Variant variant = restAlongX(source);
  auto refused = standUpright(variant.scene, 0);
  ASSERT_FALSE(refused) << "the analysis decides it now: this test needs a harder variant";
  EXPECT_NE(refused.error().find("set the up"), std::string::npos) << refused.error();
  variant.scene.convention.upModel = convention->upModel;
  const Outcome before = outcomeOf(source, "somersault");
  const Outcome after = outcomeOf(variant.scene, "somersault_override");
  expectSameOutcome(source, variant, before, after);
}

}  // namespace
}  // namespace articula::test
