// Issue 37 through the window: a capture whose rest lies along +X with every rotation zero
// (LaFAN1's and Bandai-Namco's convention, built from CMU 02_01 by the metamorphic suite's
// restAlongX) finds the same contacts and bakes the same motion in the editor as the standing
// original, as articula-cli does.
#include <gtest/gtest.h>

#include <cmath>

#include <QComboBox>
#include <QLabel>
#include <QTemporaryDir>
#include <QUndoStack>

#include <fstream>

#include "convention_variants.h"
#include "core/io/import.h"
#include "core/project/export_options.h"
#include "core/retarget/rest_pose.h"
#include "core/skeleton/local_to_model.h"
#include "ui/docks/characterise_dock.h"
#include "ui/docks/characterise_dock_convention.h"
#include "ui/document/project_session.h"
#include "ui/document/document.h"
#include "ui/main_window.h"
#include "ui_test_support.h"

namespace articula::ui {
namespace {

constexpr const char* kCurves[] = {"contact.left_foot", "contact.right_foot"};

Scene cmu0201() {
  auto scene = importScene(test::dataPath("bvh/cmu-mb-2010/02_01.bvh"));
  EXPECT_TRUE(scene) << (scene ? "" : scene.error());
  return std::move(*scene);
}

// The largest difference of the two clips' stride curves over the clip's frames.
float strideDifference(const Clip& a, const Clip& b) {
  float worst = 0.0f;
  for (const char* name : kCurves) {
    if (!a.curves.count(name) || !b.curves.count(name)) return 1.0f;
    for (int f = 0; f < a.frameCount(); ++f) {
      const double t = a.timeOf(f);
      worst =
          std::max(worst, static_cast<float>(std::abs(a.curves.at(name).evaluate(t) - b.curves.at(name).evaluate(t))));
    }
  }
  return worst;
}

// The largest distance between the joints of two documents' current clips over their frames,
// in millimetres of a 1.75 m figure.
float motionDistanceMm(const Scene& a, const Clip& clipA, const Scene& b, const Clip& clipB) {
  float worst = 0.0f;
  for (int f = 0; f < clipA.frameCount(); ++f) {
    const auto modelA = localToModel(a.skeleton, poseAtFrame(a.skeleton, clipA, f));
    const auto modelB = localToModel(b.skeleton, poseAtFrame(b.skeleton, clipB, f));
    for (std::size_t j = 0; j < modelA.size(); ++j)
      worst = std::max(worst, (modelA[j].translation() - modelB[j].translation()).norm());
  }
  return worst * kReferenceHeightMm / standingHeightOf(a);
}

TEST(ConventionWindow, ALyingRestFindsTheContactsOfTheStandingOriginal) {
  const Scene original = cmu0201();
  MainWindow standing, lying;
  standing.openScene(original, QStringLiteral("02_01"));
  lying.openScene(articula::test::restAlongX(original).scene, QStringLiteral("02_01 lying"));
  ASSERT_TRUE(standing.detectContacts(ContactDetectionOptions{}));
  ASSERT_TRUE(lying.detectContacts(ContactDetectionOptions{}));
  EXPECT_LE(strideDifference(*standing.document()->currentClip(), *lying.document()->currentClip()), 1e-3f);
  // The stride curves go onto the document's clip; its keys and rest are untouched.
  EXPECT_LE(
      motionDistanceMm(original, original.clips.front(), lying.document()->scene(), *lying.document()->currentClip()),
      0.01f);
}

TEST(ConventionWindow, ALyingRestBakesTheMotionOfTheStandingOriginal) {
  const Scene original = cmu0201();
  const Scene variant = articula::test::restAlongX(original).scene;
  MainWindow standing, lying;
  standing.openScene(original, QStringLiteral("02_01"));
  lying.openScene(variant, QStringLiteral("02_01 lying"));
  ProjectBakeSettings settings;
  settings.detectContacts = true;
  settings.toleranceRelative = 0.05f / kReferenceHeightMm;  // keys within 0.05 mm: the bake is compared
  ASSERT_TRUE(standing.bake(settings));
  ASSERT_TRUE(lying.bake(settings));
  const Document& a = *standing.document();
  const Document& b = *lying.document();
  ASSERT_EQ(b.scene().clips.size(), 2u);
  EXPECT_LE(motionDistanceMm(a.scene(), *a.currentClip(), b.scene(), *b.currentClip()), 1.0f);
  // The baked clip plays on the document's rest, which still lies down.
  for (int j = 0; j < variant.skeleton.jointCount(); ++j)
    EXPECT_TRUE(b.scene().skeleton.restLocal(j).rotation.isApprox(variant.skeleton.restLocal(j).rotation)) << j;
}

// The Characterise panel says what was assumed and why: the lying rest is "not standing", the
// up found from the motion; the original's rest stands, the up from the rest.
TEST(ConventionWindow, TheCharacterisePanelSaysWhatTheCaptureAssumes) {
  const Scene original = cmu0201();
  MainWindow window;
  auto* dock = window.findChild<CharacteriseDock*>();
  ASSERT_NE(dock, nullptr);
  window.openScene(articula::test::restAlongX(original).scene, QStringLiteral("02_01 lying"));
  const QString lying = dock->conventionLabel()->text();
  EXPECT_TRUE(lying.contains(QStringLiteral("<b>Rest pose</b> not standing"))) << lying.toStdString();
  EXPECT_TRUE(lying.contains(QStringLiteral("<b>Up</b> +Y"))) << lying.toStdString();
  EXPECT_TRUE(lying.contains(QStringLiteral("<b>Frame rate</b> 120"))) << lying.toStdString();
  window.openScene(original, QStringLiteral("02_01"));
  const QString standing = dock->conventionLabel()->text();
  EXPECT_FALSE(standing.contains(QStringLiteral("not standing"))) << standing.toStdString();
  EXPECT_TRUE(standing.contains(QStringLiteral("<b>Units</b> CMU units"))) << standing.toStdString();
}

// Chooses the item of `box` whose data is `data`, as a click on it does.
void choose(QComboBox* box, const QString& data) {
  const int index = box->findData(data);
  ASSERT_GE(index, 0) << data.toStdString();
  box->setCurrentIndex(index);
  emit box->activated(index);
}

// CMU 02_01 somersaulting twice, its rest laid along +X: nothing says where up is until the
// user sets it in the panel. The choice is one undo step, the project keeps it, and Export
// writes what the standing original writes.
TEST(ConventionWindow, TheUpSetInThePanelIsOneUndoStepKeptByTheProjectAndExported) {
  const Scene somersault = articula::test::somersaulting(cmu0201(), 2.0f);
  QTemporaryDir dir;
  const QString bvh = dir.filePath(QStringLiteral("somersault_lying.bvh"));
  std::ofstream(bvh.toStdString(), std::ios::binary)
      << articula::test::bvhText(articula::test::restAlongX(somersault).scene);
  const QString project = dir.filePath(QStringLiteral("somersault.articula"));
  {
    MainWindow window;
    ASSERT_TRUE(window.openFile(bvh));
    ConventionEditor* editor = window.findChild<CharacteriseDock*>()->conventionEditor();
    EXPECT_TRUE(editor->label()->text().contains(QStringLiteral("set the up"))) << editor->label()->text().toStdString();
    const int undoBefore = window.document()->undoStack()->count();
    choose(editor->upBox(), QStringLiteral("+Y"));
    EXPECT_EQ(window.document()->undoStack()->count(), undoBefore + 1);
    EXPECT_EQ(window.document()->scene().convention.upModel, Vec3(Vec3::UnitY()));
    EXPECT_TRUE(editor->label()->text().contains(QStringLiteral("<b>Up</b> +Y <span style='color:gray'>(set by the user)")))
        << editor->label()->text().toStdString();
    // The facing offers the axes across the up only.
    EXPECT_EQ(editor->facingBox()->findData(QStringLiteral("+Y")), -1);
    EXPECT_GE(editor->facingBox()->findData(QStringLiteral("+Z")), 0);
    window.document()->undoStack()->undo();
    EXPECT_TRUE(window.document()->scene().convention.isAuto());
    EXPECT_EQ(editor->upBox()->currentIndex(), 0);
    EXPECT_TRUE(editor->label()->text().contains(QStringLiteral("set the up")));
    window.document()->undoStack()->redo();
    EXPECT_EQ(editor->upBox()->currentData().toString(), QStringLiteral("+Y"));
    ASSERT_FALSE(window.session()->saveAs(project).has_value());
  }
  MainWindow window;
  ASSERT_TRUE(window.openFile(project));
  ConventionEditor* editor = window.findChild<CharacteriseDock*>()->conventionEditor();
  EXPECT_EQ(window.document()->scene().convention.upModel, Vec3(Vec3::UnitY()));
  EXPECT_EQ(editor->upBox()->currentData().toString(), QStringLiteral("+Y"));
  const QString exported = dir.filePath(QStringLiteral("lying.glb"));
  ASSERT_TRUE(window.exportGltfTo(exported));
  // The original as a BVH file too, so both files hold the same nodes.
  const std::string originalBvh = dir.filePath(QStringLiteral("somersault.bvh")).toStdString();
  std::ofstream(originalBvh, std::ios::binary) << articula::test::bvhText(somersault);
  auto standing = importScene(originalBvh);
  ASSERT_TRUE(standing) << standing.error();
  const std::string original = dir.filePath(QStringLiteral("original.glb")).toStdString();
  ASSERT_FALSE(writeSceneGltf(*standing, original));
  auto a = importScene(original);
  auto b = importScene(exported.toStdString());
  ASSERT_TRUE(a && b);
  EXPECT_LE(motionDistanceMm(*a, a->clips.front(), *b, b->clips.front()), 1.0f);
}

}  // namespace
}  // namespace articula::ui
