#include "ui_test_support.h"

#include <gtest/gtest.h>

#include <QApplication>
#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QUndoStack>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "core/io/import.h"
#include "core/project/rig_json.h"
#include "ui/commands/clip_list_command.h"
#include "ui/document/document.h"
#include "ui/main_window.h"
#include "ui/viewport/viewport.h"

namespace articula::ui::test {

namespace {

void printVec(std::ostringstream& out, const char* label, const Vec3& v) {
  char text[96];
  std::snprintf(text, sizeof(text), " %s(%.6g %.6g %.6g)", label, double(v.x()), double(v.y()), double(v.z()));
  out << text;
}

// A quaternion and its negation are the same rotation: print the one with w >= 0.
void printQuat(std::ostringstream& out, const char* label, Quat q) {
  if (q.w() < 0.0f) q.coeffs() = -q.coeffs();
  char text[112];
  std::snprintf(text, sizeof(text), " %s(%.6g %.6g %.6g %.6g)", label, double(q.w()), double(q.x()), double(q.y()),
                double(q.z()));
  out << text;
}

void printTransform(std::ostringstream& out, const Transform& t) {
  printVec(out, "t", t.translation);
  printQuat(out, "r", t.rotation);
  printVec(out, "s", t.scale);
}

void printCurve(std::ostringstream& out, const char* label, const Curve& curve) {
  out << "  " << label << ':';
  for (const CurveKey& key : curve.keys()) {
    char text[160];
    std::snprintf(text, sizeof(text), " [%.6g %.6g i%d l(%.6g %.6g) r(%.6g %.6g)]", key.time, key.value,
                  int(key.interpolation), key.left.x(), key.left.y(), key.right.x(), key.right.y());
    out << text;
  }
  out << '\n';
}

void printTrack(std::ostringstream& out, const JointTrack& track) {
  out << " track " << track.joint << '\n';
  printCurve(out, "tx", track.translation.x);
  printCurve(out, "ty", track.translation.y);
  printCurve(out, "tz", track.translation.z);
  out << "  rotation:";
  for (const RotationKey& key : track.rotation.keys()) {
    out << " [" << key.time << ' ' << int(key.interpolation);
    printQuat(out, "q", key.value);
    out << ']';
  }
  out << '\n';
  printCurve(out, "sx", track.scale.x);
  printCurve(out, "sy", track.scale.y);
  printCurve(out, "sz", track.scale.z);
}

}  // namespace

std::string dataPath(const std::string& relative) {
  std::string path = ARTICULA_TEST_DATA_DIR;
  path.append("/").append(relative);
  return path;
}

std::vector<std::filesystem::path> importableTestFiles() {
  static const char* const kExtensions[] = {".glb", ".gltf", ".bvh", ".fbx", ".dae"};
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(ARTICULA_TEST_DATA_DIR)) {
    if (!entry.is_regular_file()) continue;
    std::string extension = entry.path().extension().string();
    std::transform(extension.begin(), extension.end(), extension.begin(),
                   [](unsigned char c) { return std::tolower(c); });
    if (std::find(std::begin(kExtensions), std::end(kExtensions), extension) != std::end(kExtensions)) {
      files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::string expectUndoable(Document& document, QUndoCommand* command) {
  const std::string original = serializeDocument(document);
  document.undoStack()->push(command);
  const std::string done = serializeDocument(document);
  EXPECT_NE(done, original) << "the command changed nothing";
  document.undoStack()->undo();
  EXPECT_EQ(serializeDocument(document), original);
  document.undoStack()->redo();
  EXPECT_EQ(serializeDocument(document), done);
  return done;
}

std::string serializeDocument(const Document& document) {
  std::ostringstream out;
  const Skeleton& skeleton = document.scene().skeleton;
  out << "joints " << skeleton.jointCount() << '\n';
  for (int joint = 0; joint < skeleton.jointCount(); ++joint) {
    out << joint << ' ' << skeleton.name(joint) << " parent " << skeleton.parent(joint) << '\n';
  }
  out << "clips " << document.scene().clips.size() << " current " << document.currentClipIndex() << '\n';
  if (const Clip* clip = document.currentClip()) {
    out << "clip " << clip->name << " rate " << clip->frameRate << " range " << clip->startTime << ' ' << clip->endTime
        << '\n';
    for (const JointTrack& track : clip->tracks) printTrack(out, track);
    for (const AnimLayer& layer : clip->layers) {
      out << " layer " << layer.name << ' ' << layerModeName(layer.mode) << " muted " << layer.muted << " solo "
          << layer.solo << " locked " << layer.locked << '\n';
      printCurve(out, "weight", layer.weight);
      for (const JointTrack& track : layer.tracks) printTrack(out, track);
    }
    for (const auto& [name, curve] : clip->curves) printCurve(out, name.c_str(), curve);
  }
  // Rigs as their JSON (every field of each definition), then which one solves.
  out << "rigs " << document.rigSet().rigs.size() << " active " << document.rigSet().active << " enabled "
      << document.rigEnabled() << '\n';
  for (const RigDefinition& rig : document.rigSet().rigs) out << rigToJson(rig, skeleton) << '\n';
  out << "overrides\n";
  for (const auto& [joint, local] : document.poseOverrides()) {
    out << ' ' << joint;
    printTransform(out, local);
    out << '\n';
  }
  out << "handle poses\n";
  for (const auto& [handle, pose] : document.handlePoses()) {
    out << ' ' << handle;
    if (pose.targetModel) out << " target " << pose.targetModel->transpose();
    if (pose.polePosition) out << " pole " << pose.polePosition->transpose();
    out << '\n';
  }
  out << "pose at " << document.time() << '\n';
  const auto pose = document.localPose();
  for (std::size_t joint = 0; joint < pose.size(); ++joint) {
    out << ' ' << joint;
    printTransform(out, pose[joint]);
    out << '\n';
  }
  return out.str();
}

PlaybackController::Clock FakeClock::clock() const {
  return [nanoseconds = mNanoseconds] { return *nanoseconds; };
}

void FakeClock::advanceSeconds(double seconds) { *mNanoseconds += static_cast<qint64>(std::llround(seconds * 1e9)); }

double luminanceVariance(const QImage& image, const QRect& region) {
  const QRect area = region.intersected(image.rect());
  double sum = 0.0;
  double sumSquares = 0.0;
  for (int y = area.top(); y <= area.bottom(); ++y) {
    for (int x = area.left(); x <= area.right(); ++x) {
      const double luminance = qGray(image.pixel(x, y));
      sum += luminance;
      sumSquares += luminance * luminance;
    }
  }
  const double count = std::max(1.0, double(area.width()) * double(area.height()));
  const double mean = sum / count;
  return sumSquares / count - mean * mean;
}

double changedPixelFraction(const QImage& a, const QImage& b, const QRect& region) {
  const QRect area = region.intersected(a.rect()).intersected(b.rect());
  double changed = 0.0;
  for (int y = area.top(); y <= area.bottom(); ++y) {
    for (int x = area.left(); x <= area.right(); ++x) changed += a.pixel(x, y) != b.pixel(x, y) ? 1.0 : 0.0;
  }
  return changed / std::max(1.0, double(area.width()) * double(area.height()));
}

bool waitForRenderedFrame(const Viewport& viewport, std::string* error) {
  QElapsedTimer waited;
  waited.start();
  while (!viewport.hasRenderedFrame() && viewport.glError().isEmpty() && waited.elapsed() < 10000) {
    QApplication::processEvents(QEventLoop::AllEvents, 20);
  }
  if (!viewport.glError().isEmpty()) {
    *error = viewport.glError().toStdString();
    return false;
  }
  if (!viewport.hasRenderedFrame()) {
    *error = "the viewport did not render within 10 s";
    return false;
  }
  return true;
}

Result<Scene> exportedThroughTheWindow(MainWindow& window, const std::string& stem) {
  const QString path = QDir::temp().filePath(
      QStringLiteral("%1_%2.glb").arg(QString::fromStdString(stem)).arg(QCoreApplication::applicationPid()));
  if (!window.exportGltfTo(path)) return makeError("export failed");
  Result<Scene> reimported = importScene(path.toStdString());
  QFile::remove(path);
  return reimported;
}

void addClipWithoutKeys(Document& document) {
  Clip empty = *document.currentClip();
  empty.tracks.clear();
  empty.layers.clear();
  document.undoStack()->push(ClipListCommand::insertAfter(&document, document.currentClipIndex(), std::move(empty),
                                                          "new", QStringLiteral("New Clip")));
}

int clipIndexNamed(const Document& document, const std::string& name) {
  const auto& clips = document.scene().clips;
  for (std::size_t i = 0; i < clips.size(); ++i) {
    if (clips[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

}  // namespace articula::ui::test
