#pragma once
#include <QOpenGLFunctions_3_3_Core>
#include <QOpenGLWidget>
#include <QPoint>
#include <QSurfaceFormat>

#include <Eigen/Geometry>
#include <memory>
#include <optional>
#include <vector>

#include "ui/viewport/mesh_renderer.h"
#include "ui/viewport/orbit_camera.h"
#include "ui/viewport/skeleton_overlay.h"

class QOpenGLShaderProgram;

namespace articula::ui {

class Document;
struct ChangeEvent;

// The 3D view of the document at its current time: gradient background, ground grid,
// GPU-skinned meshes, and the skeleton drawn as bones on top of the meshes so joints inside
// the body stay visible and clickable.
//
// Mouse: Alt+LMB or MMB orbit; Alt+MMB or Shift+MMB pan; wheel or Alt+RMB zoom; LMB picks
// a joint (Shift+LMB adds it to the selection, LMB on nothing clears it).
class Viewport : public QOpenGLWidget, protected QOpenGLFunctions_3_3_Core {
  Q_OBJECT

 public:
  explicit Viewport(Document* document, QWidget* parent = nullptr);
  ~Viewport() override;

  // OpenGL 3.3 core with depth and multisampling; set as the application default before
  // the QApplication exists so every context matches.
  static QSurfaceFormat surfaceFormat();

  const OrbitCamera& camera() const { return mCamera; }
  // Model → clip space of the current camera at the widget's aspect ratio.
  Mat4 viewProjection() const;
  // True once a frame has been drawn with working shaders.
  bool hasRenderedFrame() const { return mRenderedFrame; }
  // Why rendering is impossible (no 3.3 core context, shader errors); empty when fine.
  const QString& glError() const { return mGlError; }

 public slots:
  // Fits the camera to the posed scene (bones and meshes) on the next paint, when the
  // widget's final aspect ratio is known.
  void frameAll();

 protected:
  void initializeGL() override;
  void resizeGL(int width, int height) override;
  void paintGL() override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;

 private:
  enum class Drag { None, Orbit, Pan, Zoom };
  struct OverlayBuffer {
    GLuint vao = 0;
    GLuint buffer = 0;
    GLsizei count = 0;
  };

  void documentChanged(const ChangeEvent& event);
  void releaseGl();
  void createOverlayBuffer(OverlayBuffer& overlay);
  void uploadOverlay(OverlayBuffer& overlay, const std::vector<OverlayVertex>& vertices, GLenum usage);
  void drawOverlay(const OverlayBuffer& overlay, GLenum mode, bool lit, const Mat4& view, const Mat4& viewProjection);
  float aspect() const;

  Document* const mDocument;
  OrbitCamera mCamera;
  std::optional<Eigen::AlignedBox3f> mPendingFrame;
  std::vector<Bone> mBones;

  bool mGlReady = false;
  bool mSceneDirty = true;  // GPU meshes and grid must be rebuilt from the document
  bool mRenderedFrame = false;
  QString mGlError;
  MeshRenderer mMeshes;
  std::unique_ptr<QOpenGLShaderProgram> mBackgroundProgram;
  std::unique_ptr<QOpenGLShaderProgram> mSolidProgram;
  GLuint mEmptyVao = 0;  // core profile needs a bound VAO even for the buffer-less background
  OverlayBuffer mGrid;
  OverlayBuffer mSkeleton;
  std::vector<OverlayVertex> mOverlayScratch;

  Drag mDrag = Drag::None;
  QPoint mLastMouse;
};

}  // namespace articula::ui
