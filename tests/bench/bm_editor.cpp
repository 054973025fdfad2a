// Editor costs on a heavy character and a long clip, through the real window: what one scrub
// step, one joint pick and one mouse move of a key drag cost. Each runs twice:
// - painted:0, the window hidden: the model work (sampling, rig solve, picking, the edit)
//   and every panel's update, without drawing anything;
// - painted:1, the window shown and drawn before the next step as the event loop would, the
//   viewport's OpenGL frame included. It needs a display: run articula-bench under
//   `xvfb-run -a` (Mesa's llvmpipe), as the issue measured; without one it is skipped.
//
// The heavy character is RobotExpressive with its meshes subdivided to at least 35,000
// skinned triangles (the issue measured a 35k-triangle Mixamo dancer) playing its Dance clip,
// its humanoid rig solving; the long clip is CMU 01_01 (2,752 frames, 38 nodes).
#include <benchmark/benchmark.h>

#include <QApplication>
#include <QElapsedTimer>
#include <QMouseEvent>
#include <QStandardPaths>
#include <QUndoStack>

#include <array>
#include <memory>
#include <string>

#include "core/io/import.h"
#include "ui/commands/rig_set_command.h"
#include "ui/docks/timeline_dock.h"
#include "ui/document/document.h"
#include "ui/main_window.h"
#include "ui/timeline/dope_sheet.h"
#include "ui/timeline/time_axis.h"
#include "ui/timeline/timeline_widget.h"
#include "ui/viewport/skeleton_overlay.h"
#include "ui/viewport/viewport.h"

namespace articula {
namespace {

constexpr std::size_t kHeavyTriangles = 35000;

// One QApplication for the process, with settings in Qt's test location so a benchmark never
// touches the user's; on Qt's offscreen platform when there is no display. Never destroyed:
// Qt's own cleanup at exit needs it.
void ensureApplication() {
  if (QApplication::instance()) return;
  if (qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY")) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
  }
  QStandardPaths::setTestModeEnabled(true);
  QSurfaceFormat::setDefaultFormat(ui::Viewport::surfaceFormat());
  static int argc = 1;
  static char name[] = "articula-bench";
  static char* argv[] = {name, nullptr};
  new QApplication(argc, argv);
  QApplication::setOrganizationName(QStringLiteral("ArticulaBench"));
}

// Each triangle split in four at its edge midpoints (new vertices per triangle, skinned as
// the edge's first vertex): the same shape with four times the triangles.
void subdivide(Mesh& mesh) {
  const std::size_t influences = mesh.hasSkin ? static_cast<std::size_t>(mesh.skin.influencesPerVertex) : 0;
  const bool normals = mesh.normals.size() == mesh.vertexCount();
  const bool texCoords = mesh.texCoords.size() == mesh.vertexCount();
  auto addMidpoint = [&](std::uint32_t a, std::uint32_t b) {
    const auto index = static_cast<std::uint32_t>(mesh.positions.size());
    mesh.positions.push_back(0.5f * (mesh.positions[a] + mesh.positions[b]));
    if (normals) mesh.normals.push_back((mesh.normals[a] + mesh.normals[b]).normalized());
    if (texCoords) mesh.texCoords.push_back(0.5f * (mesh.texCoords[a] + mesh.texCoords[b]));
    for (std::size_t k = 0; k < influences; ++k) {
      mesh.skin.vertexJoints.push_back(mesh.skin.vertexJoints[a * influences + k]);
      mesh.skin.vertexWeights.push_back(mesh.skin.vertexWeights[a * influences + k]);
    }
    for (MorphTarget& target : mesh.morphTargets) {
      target.positionDeltas.push_back(0.5f * (target.positionDeltas[a] + target.positionDeltas[b]));
      if (!target.normalDeltas.empty()) {
        target.normalDeltas.push_back(0.5f * (target.normalDeltas[a] + target.normalDeltas[b]));
      }
    }
    return index;
  };
  std::vector<std::uint32_t> split;
  split.reserve(mesh.indices.size() * 4);
  for (std::size_t t = 0; t + 2 < mesh.indices.size(); t += 3) {
    const std::uint32_t a = mesh.indices[t], b = mesh.indices[t + 1], c = mesh.indices[t + 2];
    const std::uint32_t ab = addMidpoint(a, b), bc = addMidpoint(b, c), ca = addMidpoint(c, a);
    split.insert(split.end(), {a, ab, ca, ab, b, bc, ca, bc, c, ab, bc, ca});
  }
  mesh.indices = std::move(split);
}

std::size_t triangleCount(const Scene& scene) {
  std::size_t triangles = 0;
  for (const Mesh& mesh : scene.meshes) triangles += mesh.indices.size() / 3;
  return triangles;
}

Result<Scene> heavyRobot() {
  Result<Scene> scene = importScene(std::string(ARTICULA_TEST_DATA_DIR) + "/gltf/RobotExpressive/RobotExpressive.glb");
  if (!scene) return scene;
  while (triangleCount(*scene) < kHeavyTriangles) {
    for (Mesh& mesh : scene->meshes) subdivide(mesh);
  }
  return scene;
}

// The editor's main window with `scene` open and the humanoid rig built and solving when the
// skeleton has one; shown, with the viewport's first frame drawn, when the benchmark's
// argument asks for painting (skipped without a display: the offscreen platform cannot draw
// the viewport).
std::unique_ptr<ui::MainWindow> openWindow(benchmark::State& state, Result<Scene> scene) {
  ensureApplication();
  if (!scene) {
    state.SkipWithError(scene.error().c_str());
    return nullptr;
  }
  const bool painted = state.range(0) != 0;
  if (painted && QApplication::platformName() == QLatin1String("offscreen")) {
    state.SkipWithError("painting needs a display: run under xvfb-run -a");
    return nullptr;
  }
  auto window = std::make_unique<ui::MainWindow>();
  window->openScene(std::move(scene).value(), QStringLiteral("bench"));
  ui::Document* document = window->document();
  if (auto rig = ui::BuildHumanoidRigCommand::humanoidRig(*document)) {
    document->undoStack()->push(new ui::BuildHumanoidRigCommand(document, std::move(rig).value()));
  }
  if (!painted) return window;
  window->show();
  QElapsedTimer waited;
  waited.start();
  while (!window->viewport()->hasRenderedFrame() && waited.elapsed() < 10000) {
    QApplication::processEvents(QEventLoop::AllEvents, 20);
  }
  if (!window->viewport()->hasRenderedFrame()) {
    state.SkipWithError("the viewport did not draw within 10 s");
    return nullptr;
  }
  return window;
}

// Sets the counters every benchmark here reports: the scene's size.
void countScene(benchmark::State& state, const ui::Document& document) {
  state.counters["triangles"] = static_cast<double>(triangleCount(document.scene()));
  state.counters["joints"] = static_cast<double>(document.scene().skeleton.jointCount());
  state.counters["frames"] = static_cast<double>(document.frameCount());
  state.counters["rig"] = document.rigSolved() ? 1.0 : 0.0;
}

// One step of a scrub: the time jumps to another frame (as the ruler sets it) and the
// window's panels follow before the next mouse move.
void BM_ScrubStep(benchmark::State& state) {
  const auto window = openWindow(state, heavyRobot());
  if (!window) return;
  ui::Document* document = window->document();
  const int frames = document->frameCount();
  int frame = 0;
  for (auto _ : state) {
    frame = (frame + 7) % frames;
    document->setFrame(frame);
    QApplication::processEvents();
  }
  countScene(state, *document);
}
BENCHMARK(BM_ScrubStep)->ArgName("painted")->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

// Pixel of model-space `point` in the viewport (y down), as pickJoint reads the mouse.
QPointF projected(const ui::Viewport& viewport, const Vec3& point) {
  const Vec4 clip = viewport.viewProjection() * point.homogeneous();
  const double x = (clip.x() / clip.w() * 0.5 + 0.5) * viewport.width();
  const double y = (0.5 - clip.y() / clip.w() * 0.5) * viewport.height();
  return {x, y};
}

// One click on a joint in the viewport, alternating between the two forearms so the selection
// changes every time: the pick, the selection and every panel that follows it.
void BM_PickJoint(benchmark::State& state) {
  const auto window = openWindow(state, heavyRobot());
  if (!window) return;
  ui::Document* document = window->document();
  ui::Viewport* viewport = window->viewport();
  const Skeleton& skeleton = document->scene().skeleton;
  const std::array<int, 2> joints = {skeleton.findJoint("LowerArm.L"), skeleton.findJoint("LowerArm.R")};
  if (joints[0] < 0 || joints[1] < 0) {
    state.SkipWithError("RobotExpressive has no LowerArm.L and LowerArm.R");
    return;
  }
  document->setFrame(document->frameCount() / 2);
  std::size_t next = 0;
  int picked = 0;
  for (auto _ : state) {
    const int joint = joints[next];
    next = 1 - next;
    const QPointF at = projected(*viewport, document->modelPose()[static_cast<std::size_t>(joint)].translation());
    QMouseEvent press(QEvent::MouseButtonPress, at, viewport->mapToGlobal(at), Qt::LeftButton, Qt::LeftButton,
                      Qt::NoModifier);
    QApplication::sendEvent(viewport, &press);
    QMouseEvent release(QEvent::MouseButtonRelease, at, viewport->mapToGlobal(at), Qt::LeftButton, Qt::NoButton,
                        Qt::NoModifier);
    QApplication::sendEvent(viewport, &release);
    QApplication::processEvents();
    if (!document->selectedJoints().empty() && document->selectedJoints().front() == joint) ++picked;
  }
  countScene(state, *document);
  state.counters["picked"] = benchmark::Counter(static_cast<double>(picked), benchmark::Counter::kAvgIterations);
}
BENCHMARK(BM_PickJoint)->ArgName("painted")->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

// The model part of a pick alone: the screen-space test against every bone.
void BM_PickJointModel(benchmark::State& state) {
  const auto window = openWindow(state, heavyRobot());
  if (!window) return;
  ui::Document* document = window->document();
  ui::Viewport* viewport = window->viewport();
  const Skeleton& skeleton = document->scene().skeleton;
  const std::vector<ui::Bone> bones = ui::bonesOf(skeleton);
  const int hand = skeleton.findJoint("LowerArm.L");
  const QPointF at =
      projected(*viewport, document->modelPose()[static_cast<std::size_t>(std::max(hand, 0))].translation());
  const Vec2 mouse(static_cast<float>(at.x()), static_cast<float>(at.y()));
  for (auto _ : state) {
    benchmark::DoNotOptimize(ui::pickJoint(skeleton, bones, document->modelPose(), viewport->viewProjection(),
                                           static_cast<float>(viewport->width()),
                                           static_cast<float>(viewport->height()), mouse));
  }
  countScene(state, *document);
}
BENCHMARK(BM_PickJointModel)->ArgName("painted")->Arg(0)->Unit(benchmark::kMicrosecond);

// One mouse move of a key drag in the dope sheet on a long clip: the summary diamond of the
// selected joint (every channel it keys at that frame) moved back and forth by a few frames.
void BM_KeyDragStep(benchmark::State& state) {
  const auto window =
      openWindow(state, importScene(std::string(ARTICULA_TEST_DATA_DIR) + "/bvh/cmu-mb-2008/01_01.bvh"));
  if (!window) return;
  ui::Document* document = window->document();
  const int forearm = document->scene().skeleton.findJoint("LeftForeArm");
  if (forearm < 0) {
    state.SkipWithError("01_01 has no LeftForeArm");
    return;
  }
  document->setSelectedJoints({forearm});
  QApplication::processEvents();
  ui::TimelineWidget* timeline = window->timelineDock()->timeline();
  ui::DopeSheet* sheet = timeline->dopeSheet();
  const QPointF from = sheet->keyPosition(0, document->currentClip()->timeOf(20));
  const std::array<QPointF, 2> targets = {from + QPointF(3.0 * timeline->axis().pixelsPerFrame(), 0.0),
                                          from + QPointF(6.0 * timeline->axis().pixelsPerFrame(), 0.0)};
  QMouseEvent press(QEvent::MouseButtonPress, from, sheet->mapToGlobal(from), Qt::LeftButton, Qt::LeftButton,
                    Qt::NoModifier);
  QApplication::sendEvent(sheet, &press);
  std::size_t next = 0;
  for (auto _ : state) {
    const QPointF at = targets[next];
    next = 1 - next;
    QMouseEvent move(QEvent::MouseMove, at, sheet->mapToGlobal(at), Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(sheet, &move);
    QApplication::processEvents();
  }
  QMouseEvent release(QEvent::MouseButtonRelease, from, sheet->mapToGlobal(from), Qt::LeftButton, Qt::NoButton,
                      Qt::NoModifier);
  QApplication::sendEvent(sheet, &release);
  countScene(state, *document);
  state.counters["keys"] = static_cast<double>(document->currentClip()->keyCount());
  state.counters["undo_steps"] = static_cast<double>(document->undoStack()->count());
}
BENCHMARK(BM_KeyDragStep)->ArgName("painted")->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace articula
