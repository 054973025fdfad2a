#pragma once
#include <QOpenGLFunctions_3_3_Core>
#include <QOpenGLWidget>
#include <QPoint>
#include <QSurfaceFormat>

#include <Eigen/Geometry>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "core/anim/layer_stack.h"
#include "ui/viewport/camera_follow.h"
#include "ui/viewport/gizmo.h"
#include "ui/viewport/mesh_renderer.h"
#include "ui/viewport/onion_skin.h"
#include "ui/viewport/orbit_camera.h"
#include "ui/viewport/rig_overlay.h"
#include "ui/viewport/skeleton_overlay.h"

class QOpenGLShaderProgram;

namespace articula::ui {

class Document;
struct ChangeEvent;

// The 3D view of the document at its current time: gradient background, ground grid,
// GPU-skinned meshes, and the skeleton drawn as bones on top of the meshes so joints inside
// the body stay visible and clickable.
//
// Mouse, Maya and Blender conventions both work: Alt+LMB or MMB orbit; Alt+MMB or
// Shift+MMB pan; wheel, Alt+RMB or Ctrl+MMB zoom. LMB on a gizmo handle drags it (one undo
// step per drag); elsewhere LMB picks a joint (Shift+LMB adds it to the selection, LMB on
// nothing clears it). The gizmo sits on the first selected joint, or else on the selected IK
// handle's target. A rotate drag turns 0.4° per pixel along the ring; Shift held (before or
// after the press on the gizmo) makes any gizmo or handle drag move a tenth as far.
//
// The active rig is drawn over the bones: each IK handle's target (green reached, red not,
// grey disabled, yellow the document's selected handle) and pole, the limit cone or hinge
// arc of the selected joints, and rings on the ground under the feet whose stride curves
// (contact.left_foot, contact.right_foot) are 1. With trails on, the path over the whole
// clip, or over a window of frames around the current one (as the rig solves it), of the
// selected joints and of the selected handle's tip, computed once per change of clip, rig
// or selection (and of the window's frames as the time moves). LMB on a target or a pole selects
// that handle and drags it in the plane facing the camera, solving the rig at every mouse
// move (one undo step per drag); handles are picked after the gizmo and before joints.
class Viewport : public QOpenGLWidget, protected QOpenGLFunctions_3_3_Core {
  Q_OBJECT

 public:
  explicit Viewport(Document* document, QWidget* parent = nullptr);
  ~Viewport() override;

  // OpenGL 3.3 core with depth and multisampling; set as the application default before
  // the QApplication exists so every context matches.
  static QSurfaceFormat surfaceFormat();
  // Multisampling of the viewport's framebuffer: 4 samples on a GPU, none on a software
  // rasteriser (llvmpipe, softpipe, SwiftShader), where 4× MSAA more than doubles the cost
  // of a frame (every fragment is shaded and stored per sample on the CPU). The environment
  // variable ARTICULA_MSAA_SAMPLES overrides it. Probed once with a throwaway context; needs
  // the QGuiApplication.
  static int multisampleSamples();

  const OrbitCamera& camera() const { return mCamera; }
  bool follows() const { return mFollowing; }
  // The joint View ▸ Follow follows (-1: none).
  int followedJoint() const { return mFollow.joint(); }
  GizmoMode gizmoMode() const { return mGizmoMode; }
  GizmoSpace gizmoSpace() const { return mGizmoSpace; }
  // Joint carrying the gizmo (the first selected one), -1 when there is none.
  int gizmoJoint() const;
  // Handle carrying the gizmo: the selected handle of the shown rig while no joint is
  // selected, -1 otherwise. Its arrows (W) move the target along the model axes, its rings
  // (E) turn the tip's orientation target; its centre still drags in the view's plane.
  int gizmoHandle() const;
  // The gizmo as drawn now, on the joint or else on the handle's target (valid once a frame
  // has been drawn), for tests and tools.
  std::optional<GizmoFrame> gizmoFrame() const;
  GizmoView gizmoView() const;
  const OnionSkinSettings& onionSkin() const { return mOnionSkin; }
  // The ghosts the onion skin draws at the current frame (none when it is off).
  std::vector<GhostFrame> ghosts() const;
  // Handles as last drawn (valid once a frame has been drawn), for tests and tools.
  const std::vector<HandleMarker>& handleMarkers() const { return mHandleMarkers; }
  // Feet that get contact rings and their stride curves: the active rig's legs when it
  // grounds them, else the humanoid's feet found by joint name. For tests and tools.
  const std::vector<ContactFoot>& contactFeet() const { return mContactFeet; }
  bool showRig() const { return mShowRig; }
  bool showMesh() const { return mShowMesh; }
  // Hidden bones are not drawn and cannot be clicked (the gizmo of a selected joint stays).
  bool showBones() const { return mShowBones; }
  bool showGrid() const { return mShowGrid; }
  bool showTrails() const { return mShowTrails; }
  // Joints with a trail: the selected joints (sorted), then the selected handle's tip when
  // it is not one of them.
  std::vector<int> trailJoints() const;
  // The trail of each of trailJoints(): its model-space position at every frame of
  // trailFrames() (at most kMaxTrailPoints, evenly spread), the rig solving each frame.
  // Empty when trails are off. Computed on the first call after a change, then cached.
  const std::vector<std::vector<Vec3>>& trails();
  // Frames each side of the current one that trails cover; 0: the whole clip.
  int trailWindowFrames() const { return mTrailWindowFrames; }
  // First and last frame the trails cover now: the whole clip, or the window around the
  // current frame cut to the clip (it moves with the time).
  std::pair<int, int> trailFrames() const;
  // How many times trails were computed since the viewport was made (they are cached).
  int trailBuilds() const { return mTrailBuilds; }
  static constexpr int kMaxTrailPoints = 400;
  // Model → clip space of the current camera at the widget's aspect ratio.
  Mat4 viewProjection() const;
  // True once a frame has been drawn with working shaders.
  bool hasRenderedFrame() const { return mRenderedFrame; }
  // Why rendering is impossible (no 3.3 core context, shader errors); empty when fine.
  const QString& glError() const { return mGlError; }
  // Draws the current state into the widget's framebuffer now and waits for the GPU to
  // finish (what one frame costs, without the window system's compositing). For the
  // viewport benchmark; false when the widget has no GL context yet.
  bool renderFrameNow();

 public slots:
  // Fits the camera to the posed scene (bones and meshes) on the next paint, when the
  // widget's final aspect ratio is known.
  void frameAll();
  // Fits the camera to the character over the whole current clip (motionBounds), on the
  // next paint: what a character or capture file shows when it opens.
  void frameMotion();
  // View ▸ Follow: the camera moves across the floor with the character's hips
  // (CameraFollow) as the time changes.
  void setFollow(bool follow);
  // Fits the camera to the selected joints and their bones (frame all without selection).
  void frameSelected();
  void setNamedView(OrbitCamera::NamedView view);
  // Puts the camera where a saved project had it (and cancels a pending frame-all).
  void setCameraView(const Vec3& target, float yawRad, float pitchRad, float distance);
  void setGizmoMode(GizmoMode mode);
  void setGizmoSpace(GizmoSpace space);
  void setOnionSkin(const OnionSkinSettings& settings);
  void setShowRig(bool show);
  void setShowMesh(bool show);
  void setShowBones(bool show);
  void setShowGrid(bool show);
  void setShowTrails(bool show);
  void setTrailWindowFrames(int framesEachSide);

 protected:
  void initializeGL() override;
  void resizeGL(int width, int height) override;
  void paintGL() override;
  bool event(QEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  void paintEvent(QPaintEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;

 private:
  bool contextRefused() const;
  enum class Drag { None, Orbit, Pan, Zoom, Gizmo, Handle };
  struct OverlayBuffer {
    GLuint vao = 0;
    GLuint buffer = 0;
    GLsizei count = 0;
  };

  void documentChanged(const ChangeEvent& event);
  bool startGizmoDrag(const Vec2& mouse);
  void dragGizmo(const Vec2& mouse);
  bool startHandleDrag(const Vec2& mouse);
  bool startHandleGizmoDrag(const Vec2& mouse);
  void dragHandle(const Vec2& mouse);
  // The mouse position a drag reads: the press plus each move's `delta`, scaled down tenfold
  // for the moves made while Shift is held (fine adjustment, Maya's and Blender's habit).
  Vec2 dragMouse(const QMouseEvent& event, const QPoint& delta);
  void updateContactFeet();
  void updateTrails();
  void drawRig(const Mat4& view, const Mat4& viewProjection);
  void drawOnionSkin(const Mat4& view, const Mat4& viewProjection);
  void releaseGl();
  void createOverlayBuffer(OverlayBuffer& overlay);
  void uploadOverlay(OverlayBuffer& overlay, const std::vector<OverlayVertex>& vertices, GLenum usage);
  void drawOverlay(const OverlayBuffer& overlay, GLenum mode, bool lit, const Mat4& view, const Mat4& viewProjection);
  float aspect() const;

  Document* const mDocument;
  OrbitCamera mCamera;
  bool mFollowing = false;
  CameraFollow mFollow;
  std::optional<Eigen::AlignedBox3f> mPendingFrame;
  std::vector<Bone> mBones;

  bool mGlReady = false;
  bool mSceneDirty = true;  // GPU meshes and grid must be rebuilt from the document
  bool mRenderedFrame = false;
  // On a software rasteriser the background is one clear colour instead of the gradient
  // (shading every pixel of a 1280×720 frame costs llvmpipe about 5 ms of CPU per frame)
  // and textures are filtered within one mip level.
  bool mFlatBackground = false;
  QString mGlError;
  MeshRenderer mMeshes;
  std::unique_ptr<QOpenGLShaderProgram> mBackgroundProgram;
  std::unique_ptr<QOpenGLShaderProgram> mSolidProgram;
  GLuint mEmptyVao = 0;  // core profile needs a bound VAO even for the buffer-less background
  OverlayBuffer mGrid;
  OverlayBuffer mSkeleton;
  OverlayBuffer mGizmo;
  OverlayBuffer mGhosts;
  OverlayBuffer mRigLines;
  OverlayBuffer mTrailLines;  // re-uploaded only when the trails are recomputed
  std::vector<OverlayVertex> mOverlayScratch;

  Drag mDrag = Drag::None;
  QPoint mLastMouse;

  static constexpr float kGizmoSizePixels = 90.0f;
  static constexpr float kFineDragScale = 0.1f;
  static constexpr float kHandleCentrePixels = 9.0f;  // pickHandle's radius
  GizmoMode mGizmoMode = GizmoMode::Rotate;
  GizmoSpace mGizmoSpace = GizmoSpace::Local;
  // The drag in progress: everything is measured from its start, so rounding never
  // accumulates over the mouse moves.
  int mGizmoAxis = -1;
  int mGizmoDragJoint = -1;
  Vec2 mGizmoStartMouse = Vec2::Zero();
  GizmoFrame mGizmoStartFrame;
  Transform mGizmoStartLocal;
  Affine mGizmoParentModel = Affine::Identity();
  // Undo index when the drag began: commands after the first of a drag merge into the
  // drag's step only while that step is on top (a drag back to its start removes it).
  int mDragUndoIndex = 0;

  bool mShowRig = true;
  bool mShowMesh = true;
  bool mShowBones = true;
  bool mShowGrid = true;
  std::vector<HandleMarker> mHandleMarkers;
  RigDefinition mShownRig;  // the active rig's handles as the rig solves them now (drawRig)
  HandlePick mHandleDrag;
  Vec3 mHandleStartModel = Vec3::Zero();
  Vec2 mHandleStartMouse = Vec2::Zero();
  int mHandleGizmoAxis = -1;  // the handle's gizmo axis being dragged, -1: the view-plane drag
  Quat mHandleStartOrientation = Quat::Identity();
  Vec2 mDragMouse = Vec2::Zero();  // dragMouse's position (fine moves scaled)
  std::vector<ContactFoot> mContactFeet;
  bool mShowTrails = false;
  int mTrailWindowFrames = 0;
  std::pair<int, int> mTrailSpan{0, 0};  // frames of the cached trails
  bool mTrailsDirty = true;
  bool mTrailLinesDirty = true;
  int mTrailBuilds = 0;
  std::vector<int> mTrailJoints;
  std::vector<std::vector<Vec3>> mTrails;
  LayeredClipSampler mTrailSampler;
  Pose mTrailLocal;
  std::vector<Affine> mTrailModel;

  OnionSkinSettings mOnionSkin;
  LayeredClipSampler mGhostSampler;  // its own cursors: ghosts jump around the document's time
  Pose mGhostLocal;
  std::vector<Affine> mGhostModel;
  std::vector<OverlayVertex> mGhostScratch;
  std::vector<OverlayVertex> mTrailScratch;
};

}  // namespace articula::ui
