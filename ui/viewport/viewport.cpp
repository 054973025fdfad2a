#include "ui/viewport/viewport.h"

#include <QMouseEvent>
#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QOpenGLFunctions>
#include <QOpenGLShaderProgram>
#include <QResizeEvent>
#include <QUndoStack>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>

#include "core/bake/contact_detection.h"
#include "core/skeleton/local_to_model.h"
#include "ui/commands/handle_commands.h"
#include "ui/commands/set_joint_transform_command.h"
#include "ui/document/document.h"
#include "ui/viewport/scene_bounds.h"
#include "ui/viewport/screen_projection.h"

namespace articula::ui {

namespace {

bool isSoftwareRenderer(const char* renderer) {
  const QString name = QString::fromLatin1(renderer ? renderer : "").toLower();
  return name.contains(QLatin1String("llvmpipe")) || name.contains(QLatin1String("softpipe")) ||
         name.contains(QLatin1String("swiftshader")) || name.contains(QLatin1String("software"));
}

// Depth sub-ranges of the passes drawn over each other (scene, bones, rig, gizmo). Each
// pass lies entirely in front of the passes before it, so it is never hidden by them yet
// still depth-tests within itself: what clearing the depth buffer between passes gives,
// without rewriting every depth sample three times a frame (a software rasteriser pays
// for each clear in full).
enum class DepthLayer { Scene, Bones, Rig, Gizmo };
void setDepthLayer(QOpenGLFunctions_3_3_Core& gl, DepthLayer layer) {
  const double slice = 0.25;
  const double nearest = slice * (3 - static_cast<int>(layer));
  gl.glDepthRange(nearest, nearest + slice);
}

std::unique_ptr<QOpenGLShaderProgram> buildProgram(const QString& name, QString* error) {
  auto program = std::make_unique<QOpenGLShaderProgram>();
  if (!program->addShaderFromSourceFile(QOpenGLShader::Vertex, QStringLiteral(":/shaders/%1.vert").arg(name)) ||
      !program->addShaderFromSourceFile(QOpenGLShader::Fragment, QStringLiteral(":/shaders/%1.frag").arg(name)) ||
      !program->link()) {
    *error = QStringLiteral("%1 shader: %2").arg(name, program->log());
    return nullptr;
  }
  return program;
}

}  // namespace

Viewport::Viewport(Document* document, QWidget* parent) : QOpenGLWidget(parent), mDocument(document) {
  setObjectName(QStringLiteral("Viewport"));
  setFocusPolicy(Qt::StrongFocus);
  setMinimumSize(200, 150);
  QSurfaceFormat widgetFormat = surfaceFormat();
  widgetFormat.setSamples(multisampleSamples());
  setFormat(widgetFormat);
  mBones = bonesOf(mDocument->scene().skeleton);
  updateContactFeet();
  mFollow.setJoint(CameraFollow::followedJoint(mDocument->scene()));
  connect(mDocument, &Document::changed, this, &Viewport::documentChanged);
  frameAll();
}

Viewport::~Viewport() {
  // QOpenGLWidget's destructor, which runs after this one, destroys the context: its
  // aboutToBeDestroyed must no longer reach this object's members by then (UBSan reports the
  // call on a destroyed Viewport). The resources are released here instead.
  if (QOpenGLContext* glContext = context()) {
    disconnect(glContext, &QOpenGLContext::aboutToBeDestroyed, this, nullptr);
  }
  if (!mGlReady) return;
  makeCurrent();
  releaseGl();
  doneCurrent();
}

QSurfaceFormat Viewport::surfaceFormat() {
  QSurfaceFormat format;
  format.setRenderableType(QSurfaceFormat::OpenGL);
  format.setVersion(3, 3);
  format.setProfile(QSurfaceFormat::CoreProfile);
  format.setDepthBufferSize(24);
  format.setSamples(4);
  return format;
}

int Viewport::multisampleSamples() {
  static const int samples = [] {
    bool overridden = false;
    const int fromEnvironment = qEnvironmentVariableIntValue("ARTICULA_MSAA_SAMPLES", &overridden);
    if (overridden && fromEnvironment >= 0) return fromEnvironment;
    QOffscreenSurface surface;
    surface.setFormat(surfaceFormat());
    surface.create();
    QOpenGLContext context;
    context.setFormat(surfaceFormat());
    if (!context.create() || !context.makeCurrent(&surface)) return 4;
    const bool software =
        isSoftwareRenderer(reinterpret_cast<const char*>(context.functions()->glGetString(GL_RENDERER)));
    context.doneCurrent();
    return software ? 0 : 4;
  }();
  return samples;
}

void Viewport::documentChanged(const ChangeEvent& event) {
  // A drag continues only on the joint and pose it started from.
  if (mDrag == Drag::Gizmo && event.type != ChangeEvent::Type::PoseEdited) mDrag = Drag::None;
  // A handle drag goes on through its own edits: a pose (HandleEdited) or a static offset
  // in the clip (ClipEdited naming the handle).
  const bool handleEdit = event.type == ChangeEvent::Type::HandleEdited ||
                          (event.type == ChangeEvent::Type::ClipEdited && event.handle == mHandleDrag.handle);
  if (mDrag == Drag::Handle && !handleEdit) mDrag = Drag::None;
  switch (event.type) {
    case ChangeEvent::Type::SceneReplaced:
      mBones = bonesOf(mDocument->scene().skeleton);
      mSceneDirty = true;
      updateContactFeet();
      mFollow.setJoint(CameraFollow::followedJoint(mDocument->scene()));
      frameAll();
      mTrailsDirty = true;
      break;
    // The feet come from the legs' chains and roles, or from joint names.
    case ChangeEvent::Type::RigChanged:
    case ChangeEvent::Type::HandleEdited:
      updateContactFeet();
      mTrailsDirty = true;
      break;
    case ChangeEvent::Type::JointRenamed:
    case ChangeEvent::Type::RolesChanged:  // the feet (and hips) are found through the role map
      updateContactFeet();
      mFollow.setJoint(CameraFollow::followedJoint(mDocument->scene()));
      break;
    case ChangeEvent::Type::CurrentClipChanged:
    case ChangeEvent::Type::SelectionChanged:
    case ChangeEvent::Type::ClipEdited:
    case ChangeEvent::Type::RigEnabledChanged:
      mTrailsDirty = true;
      break;
    case ChangeEvent::Type::TimeChanged:  // a trail window moves with the time
      if (mTrailWindowFrames > 0 && trailFrames() != mTrailSpan) mTrailsDirty = true;
      break;
    case ChangeEvent::Type::PoseEdited:  // overrides are not animation
    case ChangeEvent::Type::ActiveLayerChanged:
      break;
  }
  // Playback and scrubbing move the followed camera, another clip centres it on the character;
  // any other change starts from where it is.
  if (mFollowing && event.type == ChangeEvent::Type::TimeChanged) {
    mCamera.setView(mFollow.follow(mCamera.target(), mDocument->modelPose()), mCamera.yawRad(), mCamera.pitchRad(),
                    mCamera.distance());
  } else if (mFollowing && event.type == ChangeEvent::Type::CurrentClipChanged) {
    mCamera.setView(mFollow.centre(mCamera.target(), mDocument->modelPose()), mCamera.yawRad(), mCamera.pitchRad(),
                    mCamera.distance());
  } else {
    mFollow.restart(mDocument->modelPose());
  }
  update();
}

void Viewport::setFollow(bool follow) {
  mFollowing = follow;
  mFollow.restart(mDocument->modelPose());
}

void Viewport::frameMotion() {
  mPendingFrame = motionBounds(mDocument->scene(), mDocument->currentClip(), mDocument->modelPose());
  update();
}

void Viewport::frameAll() {
  mPendingFrame = posedBounds(mDocument->scene(), mDocument->modelPose());
  update();
}

void Viewport::frameSelected() {
  const auto& selected = mDocument->selectedJoints();
  const auto modelPose = mDocument->modelPose();
  if (selected.empty() || modelPose.empty()) {
    frameAll();
    return;
  }
  const Skeleton& skeleton = mDocument->scene().skeleton;
  Eigen::AlignedBox3f box;
  for (int joint : selected) {
    box.extend(modelPose[static_cast<std::size_t>(joint)].translation());
    // The bones a joint owns belong to what the animator sees as "that joint".
    for (int child : skeleton.children(joint)) box.extend(modelPose[static_cast<std::size_t>(child)].translation());
  }
  // A lone joint still gets some room around it: a tenth of the character.
  const Vec3 margin = Vec3::Constant(0.1f * mDocument->scene().characterHeight());
  box.extend(box.min() - margin);
  box.extend(box.max() + margin);
  mPendingFrame = box;
  update();
}

void Viewport::setNamedView(OrbitCamera::NamedView view) {
  mCamera.setNamedView(view);
  update();
}

void Viewport::setCameraView(const Vec3& target, float yawRad, float pitchRad, float distance) {
  mCamera.setView(target, yawRad, pitchRad, distance);
  mPendingFrame.reset();
  update();
}

void Viewport::setGizmoMode(GizmoMode mode) {
  mGizmoMode = mode;
  if (mDrag == Drag::Gizmo) mDrag = Drag::None;
  update();
}

void Viewport::setOnionSkin(const OnionSkinSettings& settings) {
  mOnionSkin = settings;
  update();
}

std::vector<GhostFrame> Viewport::ghosts() const {
  if (!mDocument->currentClip()) return {};
  return ghostFrames(mDocument->currentFrame(), mDocument->frameCount(), mOnionSkin);
}

void Viewport::drawOnionSkin(const Mat4& view, const Mat4& viewProjection) {
  const Clip* clip = mDocument->currentClip();
  const auto ghosts = this->ghosts();
  if (ghosts.empty()) return;
  const Scene& scene = mDocument->scene();
  mGhostSampler.reset(clip);
  mGhostScratch.clear();
  for (const GhostFrame& ghost : ghosts) {
    const auto rest = scene.skeleton.restPose();
    mGhostLocal.assign(rest.begin(), rest.end());
    mGhostSampler.sample(mDocument->timeOfFrame(ghost.frame), mGhostLocal);
    mGhostModel.resize(mGhostLocal.size());
    LocalToModelJob job;
    job.skeleton = &scene.skeleton;
    job.local = mGhostLocal;
    job.model = mGhostModel;
    if (!job.run()) return;
    buildSkeletonOverlay(scene.skeleton, mBones, mGhostModel, {}, scene.characterHeight(), mOverlayScratch);
    tintGhost(mOverlayScratch, ghost.past, ghost.weight);
    mGhostScratch.insert(mGhostScratch.end(), mOverlayScratch.begin(), mOverlayScratch.end());
  }
  // Translucent, hidden by the body, and not hiding each other.
  // The framebuffer's alpha must stay 1: the widget is composited into the window with it.
  glEnable(GL_BLEND);
  glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ZERO, GL_ONE);
  glDepthMask(GL_FALSE);
  uploadOverlay(mGhosts, mGhostScratch, GL_STREAM_DRAW);
  drawOverlay(mGhosts, GL_TRIANGLES, true, view, viewProjection);
  glDepthMask(GL_TRUE);
  glDisable(GL_BLEND);
}

void Viewport::setShowRig(bool show) {
  mShowRig = show;
  if (mDrag == Drag::Handle) mDrag = Drag::None;
  update();
}

void Viewport::setShowMesh(bool show) {
  mShowMesh = show;
  update();
}

void Viewport::setShowBones(bool show) {
  mShowBones = show;
  update();
}

void Viewport::setShowGrid(bool show) {
  mShowGrid = show;
  update();
}

void Viewport::setShowTrails(bool show) {
  if (show == mShowTrails) return;
  mShowTrails = show;
  mTrailsDirty = true;
  update();
}

void Viewport::setTrailWindowFrames(int framesEachSide) {
  framesEachSide = std::max(0, framesEachSide);
  if (framesEachSide == mTrailWindowFrames) return;
  mTrailWindowFrames = framesEachSide;
  mTrailsDirty = true;
  update();
}

std::pair<int, int> Viewport::trailFrames() const {
  const int last = mDocument->frameCount() - 1;
  if (mTrailWindowFrames <= 0) return {0, last};
  const int current = mDocument->currentFrame();
  return {std::max(0, current - mTrailWindowFrames), std::min(last, current + mTrailWindowFrames)};
}

void Viewport::updateContactFeet() {
  mContactFeet.clear();
  const Skeleton& skeleton = mDocument->scene().skeleton;
  // The rig's grounding names the stride curve of each leg; without one, the humanoid's feet.
  if (const RigDefinition* rig = mDocument->activeRig(); rig && rig->grounding.enabled) {
    for (const IkHandle& handle : rig->handles) {
      if (handle.chain.empty()) continue;
      if (handle.role == HandleRole::LeftLeg) {
        mContactFeet.push_back({handle.chain.back(), rig->grounding.left.contactCurve});
      } else if (handle.role == HandleRole::RightLeg) {
        mContactFeet.push_back({handle.chain.back(), rig->grounding.right.contactCurve});
      }
    }
    return;
  }
  if (auto feet = humanoidFeet(skeleton)) {
    for (const FootJoints& foot : *feet) mContactFeet.push_back({foot.ankle, foot.curveName});
  }
}

std::vector<int> Viewport::trailJoints() const {
  std::vector<int> joints = mDocument->selectedJoints();
  if (const IkHandle* selected = mDocument->activeHandle(mDocument->selectedHandle())) {
    const auto& chain = selected->chain;
    if (!chain.empty() && std::find(joints.begin(), joints.end(), chain.back()) == joints.end()) {
      joints.push_back(chain.back());
    }
  }
  return joints;
}

const std::vector<std::vector<Vec3>>& Viewport::trails() {
  updateTrails();
  return mTrails;
}

void Viewport::updateTrails() {
  if (!mTrailsDirty) return;
  mTrailsDirty = false;
  mTrailLinesDirty = true;
  mTrails.clear();
  mTrailJoints.clear();
  const Clip* clip = mDocument->currentClip();
  if (!mShowTrails || !clip) return;
  mTrailJoints = trailJoints();
  if (mTrailJoints.empty()) return;
  ++mTrailBuilds;
  const Skeleton& skeleton = mDocument->scene().skeleton;
  // The rig solves the trail as it solves the pose, on its own copy so the document's
  // reports keep describing the current frame.
  std::optional<Rig> rig;
  if (mDocument->rigEnabled() && mDocument->boundRig()) rig = *mDocument->boundRig();
  mTrailSampler.reset(clip);
  mTrailSpan = trailFrames();
  const auto [first, last] = mTrailSpan;
  const int points = std::min(last - first + 1, kMaxTrailPoints);
  mTrails.assign(mTrailJoints.size(), {});
  for (auto& trail : mTrails) trail.reserve(static_cast<std::size_t>(points));
  const auto rest = skeleton.restPose();
  mTrailModel.resize(rest.size());
  for (int p = 0; p < points; ++p) {
    const int frame =
        first + (points == 1 ? 0 : static_cast<int>(std::lround(double(p) * (last - first) / (points - 1))));
    const double time = mDocument->timeOfFrame(frame);
    mTrailLocal.assign(rest.begin(), rest.end());
    mTrailSampler.sample(time, mTrailLocal);
    if (rig) rig->solve(mTrailLocal, time, clip);
    LocalToModelJob job;
    job.skeleton = &skeleton;
    job.local = mTrailLocal;
    job.model = mTrailModel;
    if (!job.run()) {
      mTrails.clear();
      return;
    }
    for (std::size_t k = 0; k < mTrailJoints.size(); ++k) {
      mTrails[k].push_back(mTrailModel[static_cast<std::size_t>(mTrailJoints[k])].translation());
    }
  }
}

void Viewport::drawRig(const Mat4& view, const Mat4& viewProjection) {
  mHandleMarkers.clear();
  if (!mShowRig) return;
  const Scene& scene = mDocument->scene();
  const float height = scene.characterHeight();
  mOverlayScratch.clear();
  if (const RigDefinition* rig = mDocument->activeRig()) {
    const Rig* bound = mDocument->boundRig();
    const std::span<const HandleReport> reports =
        bound && mDocument->rigSolved() ? bound->reports() : std::span<const HandleReport>{};
    // Markers where the rig solves the handles: the clip's curves and the poses over them.
    mShownRig = *rig;
    for (std::size_t i = 0; i < mShownRig.handles.size(); ++i)
      mShownRig.handles[i] = *mDocument->shownHandle(static_cast<int>(i));
    articula::ui::handleMarkers(mShownRig, reports, mDocument->inputModelPose(), mDocument->modelPose(),
                                mHandleMarkers);
    buildHandleLines(mHandleMarkers, mDocument->selectedHandle(), 0.025f * height, mOverlayScratch);
    for (int joint : mDocument->selectedJoints()) {
      buildJointLimitLines(*rig, scene.skeleton, mDocument->modelPose(), joint, 0.1f * height, mOverlayScratch);
    }
  }
  // A handle drag changes the rig at every mouse move: its trails are recomputed once the
  // drag ends rather than hundreds of solves per move.
  if (mDrag != Drag::Handle) updateTrails();
  if (mTrailLinesDirty && !mTrailsDirty) {
    mTrailScratch.clear();
    for (const auto& trail : mTrails) buildTrailLines(trail, 0.004f * height, mTrailScratch);
    uploadOverlay(mTrailLines, mTrailScratch, GL_STATIC_DRAW);
    mTrailLinesDirty = false;
  }
  const auto [first, last] = mTrailSpan;
  for (const auto& trail : mTrails) {
    if (trail.empty()) continue;
    const auto index =
        static_cast<std::size_t>(std::lround(double(std::clamp(mDocument->currentFrame(), first, last) - first) *
                                             double(trail.size() - 1) / std::max(1, last - first)));
    buildTrailCursor(trail[std::min(index, trail.size() - 1)], 0.012f * height, mOverlayScratch);
  }
  if (const Clip* clip = mDocument->currentClip()) {
    buildContactMarkers(mContactFeet, *clip, mDocument->time(), mDocument->modelPose(), 0.05f * height,
                        mOverlayScratch);
  }
  const bool trailsShown = !mTrails.empty() && mTrailLines.count > 0;
  if (mOverlayScratch.empty() && !trailsShown) return;
  // Over the bones and the body, so a target inside a limb stays visible and clickable.
  setDepthLayer(*this, DepthLayer::Rig);
  glEnable(GL_BLEND);
  glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ZERO, GL_ONE);
  if (trailsShown) drawOverlay(mTrailLines, GL_LINES, false, view, viewProjection);
  uploadOverlay(mRigLines, mOverlayScratch, GL_STREAM_DRAW);
  drawOverlay(mRigLines, GL_LINES, false, view, viewProjection);
  glDisable(GL_BLEND);
}

bool Viewport::startHandleGizmoDrag(const Vec2& mouse) {
  const int handle = gizmoHandle();
  const auto frame = gizmoFrame();
  if (handle < 0 || !frame) return false;
  const GizmoView view = gizmoView();
  // The target itself (where the arrows meet) keeps its drag in the view's plane.
  const auto centre = projectToScreen(view.viewProjection, view.width, view.height, frame->originModel);
  if (mGizmoMode == GizmoMode::Translate && centre && (centre->pixel - mouse).norm() <= kHandleCentrePixels)
    return false;
  const int axis = pickGizmoAxis(mGizmoMode, *frame, view, mouse);
  if (axis < 0) return false;
  mHandleDrag = HandlePick{handle, false};
  mHandleGizmoAxis = axis;
  mGizmoStartFrame = *frame;
  mHandleStartModel = frame->originModel;
  mHandleStartOrientation = shownOrientation(*mDocument, handle).value_or(Quat::Identity());
  mHandleStartMouse = mouse;
  mDragUndoIndex = mDocument->undoStack()->index();
  mDrag = Drag::Handle;
  update();
  return true;
}

bool Viewport::startHandleDrag(const Vec2& mouse) {
  if (!mShowRig) return false;
  const HandlePick pick = pickHandle(mHandleMarkers, gizmoView(), mouse);
  const IkHandle* picked = mDocument->activeHandle(pick.handle);
  if (!picked) return false;
  const auto marker = std::find_if(mHandleMarkers.begin(), mHandleMarkers.end(),
                                   [&pick](const HandleMarker& m) { return m.handle == pick.handle; });
  // Selecting first: the selection change must not end the drag it starts. A click on a
  // handle selects it alone (Maya's habit), so no joint picked before stays selected unseen.
  mDocument->setSelectedJoints({});
  mDocument->setSelectedHandle(pick.handle);
  mHandleDrag = pick;
  mHandleGizmoAxis = -1;
  mHandleStartModel = pick.pole ? marker->poleModel : marker->targetModel;
  mHandleStartMouse = mouse;
  mDragUndoIndex = mDocument->undoStack()->index();
  mDrag = Drag::Handle;
  update();
  return true;
}

void Viewport::dragHandle(const Vec2& mouse) {
  const IkHandle* dragged = mDocument->activeHandle(mHandleDrag.handle);
  if (!dragged) {
    mDrag = Drag::None;
    return;
  }
  const GizmoView view = gizmoView();
  const bool back = mouse == mHandleStartMouse;  // back at the start: the drag's step merges into nothing
  MoveHandleCommand* command = nullptr;
  if (mHandleGizmoAxis >= 0 && mGizmoMode == GizmoMode::Rotate) {
    std::optional<Quat> orientationModel;
    if (!back)
      orientationModel = rotateDragModel(mGizmoStartFrame, mHandleGizmoAxis, view, mHandleStartMouse, mouse) *
                         mHandleStartOrientation;
    command = new MoveHandleCommand(mDocument, mHandleDrag.handle, orientationModel);
  } else {
    const auto part = mHandleDrag.pole ? MoveHandleCommand::Part::Pole : MoveHandleCommand::Part::Target;
    std::optional<Vec3> position;
    if (!back) {
      const Vec3 pointModel =
          mHandleGizmoAxis >= 0
              ? Vec3(mHandleStartModel +
                     translateDragModel(mGizmoStartFrame, mHandleGizmoAxis, view, mHandleStartMouse, mouse))
              : dragOnViewPlane(mHandleStartModel, view, mHandleStartMouse, mouse);
      position = mHandleDrag.pole ? poleInPoleSpace(*dragged, mDocument->inputModelPose(), pointModel) : pointModel;
    }
    command = new MoveHandleCommand(mDocument, mHandleDrag.handle, part, position);
  }
  command->setMergeable(mDocument->undoStack()->index() > mDragUndoIndex);
  mDocument->undoStack()->push(command);
}

void Viewport::setGizmoSpace(GizmoSpace space) {
  mGizmoSpace = space;
  update();
}

int Viewport::gizmoJoint() const {
  const auto& selected = mDocument->selectedJoints();
  return selected.empty() ? -1 : selected.front();
}

GizmoView Viewport::gizmoView() const {
  return GizmoView{viewProjection(), static_cast<float>(width()), static_cast<float>(height())};
}

int Viewport::gizmoHandle() const {
  if (!mShowRig || gizmoJoint() >= 0) return -1;
  const int handle = mDocument->selectedHandle();
  return mDocument->activeHandle(handle) ? handle : -1;
}

std::optional<GizmoFrame> Viewport::gizmoFrame() const {
  if (mGizmoMode == GizmoMode::None) return std::nullopt;
  const int joint = gizmoJoint();
  const auto modelPose = mDocument->modelPose();
  if (joint >= 0 && joint < static_cast<int>(modelPose.size()))
    return gizmoFrameOf(modelPose[static_cast<std::size_t>(joint)], mGizmoSpace, gizmoView(), kGizmoSizePixels);
  const int handle = gizmoHandle();
  const auto marker = std::find_if(mHandleMarkers.begin(), mHandleMarkers.end(),
                                   [handle](const HandleMarker& m) { return m.handle == handle; });
  if (handle < 0 || marker == mHandleMarkers.end()) return std::nullopt;
  // Arrows along the model axes (a foot goes up); rings about the orientation's own axes in
  // local space.
  Affine handleModel = Affine::Identity();
  if (mGizmoMode == GizmoMode::Rotate && mGizmoSpace == GizmoSpace::Local)
    handleModel.linear() = shownOrientation(*mDocument, handle).value_or(Quat::Identity()).toRotationMatrix();
  handleModel.translation() = marker->targetModel;
  return gizmoFrameOf(handleModel, mGizmoSpace, gizmoView(), kGizmoSizePixels);
}

bool Viewport::startGizmoDrag(const Vec2& mouse) {
  const auto frame = gizmoFrame();
  if (!frame || gizmoJoint() < 0) return false;
  const int axis = pickGizmoAxis(mGizmoMode, *frame, gizmoView(), mouse);
  if (axis < 0) return false;
  const int joint = gizmoJoint();
  const int parent = mDocument->scene().skeleton.parent(joint);
  mGizmoAxis = axis;
  mGizmoDragJoint = joint;
  mGizmoStartMouse = mouse;
  mGizmoStartFrame = *frame;
  mGizmoStartLocal = mDocument->localPose()[static_cast<std::size_t>(joint)];
  mGizmoParentModel =
      parent == kNoParent ? Affine::Identity() : mDocument->modelPose()[static_cast<std::size_t>(parent)];
  mDragUndoIndex = mDocument->undoStack()->index();
  mDrag = Drag::Gizmo;
  update();
  return true;
}

void Viewport::dragGizmo(const Vec2& mouse) {
  const GizmoView view = gizmoView();
  Transform local = mGizmoStartLocal;
  SetJointTransformCommand::Channel channel = SetJointTransformCommand::Channel::Rotate;
  if (mGizmoMode == GizmoMode::Translate) {
    local = translatedLocal(mGizmoStartLocal, mGizmoParentModel,
                            translateDragModel(mGizmoStartFrame, mGizmoAxis, view, mGizmoStartMouse, mouse));
    channel = SetJointTransformCommand::Channel::Translate;
  } else {
    local = rotatedLocal(mGizmoStartLocal, mGizmoParentModel,
                         rotateDragModel(mGizmoStartFrame, mGizmoAxis, view, mGizmoStartMouse, mouse));
  }
  auto* command = new SetJointTransformCommand(mDocument, mGizmoDragJoint, local, channel);
  command->setMergeable(mDocument->undoStack()->index() > mDragUndoIndex);
  mDocument->undoStack()->push(command);
}

float Viewport::aspect() const { return static_cast<float>(width()) / static_cast<float>(std::max(height(), 1)); }

Mat4 Viewport::viewProjection() const { return mCamera.projectionMatrix(aspect()) * mCamera.viewMatrix(); }

void Viewport::initializeGL() {
  // The context dies with the widget's window (e.g. when the widget is reparented): free
  // our objects while it is still current.
  connect(context(), &QOpenGLContext::aboutToBeDestroyed, this, [this] {
    makeCurrent();
    releaseGl();
    doneCurrent();
  });
  if (!initializeOpenGLFunctions()) {
    mGlError = tr("OpenGL 3.3 core profile is not available (got %1.%2)")
                   .arg(context()->format().majorVersion())
                   .arg(context()->format().minorVersion());
    qWarning("Viewport: %s", qPrintable(mGlError));
    return;
  }
  QString error;
  mBackgroundProgram = buildProgram(QStringLiteral("background"), &error);
  if (mBackgroundProgram) mSolidProgram = buildProgram(QStringLiteral("solid"), &error);
  if (!mSolidProgram || !mMeshes.initialize(this, &error)) {
    mGlError = error;
    qWarning("Viewport: %s", qPrintable(mGlError));
    mBackgroundProgram.reset();
    mSolidProgram.reset();
    return;
  }
  mFlatBackground = isSoftwareRenderer(reinterpret_cast<const char*>(glGetString(GL_RENDERER)));
  mMeshes.setTrilinearFiltering(!mFlatBackground);
  glGenVertexArrays(1, &mEmptyVao);
  createOverlayBuffer(mGrid);
  createOverlayBuffer(mSkeleton);
  createOverlayBuffer(mGizmo);
  createOverlayBuffer(mGhosts);
  createOverlayBuffer(mRigLines);
  createOverlayBuffer(mTrailLines);
  mTrailLinesDirty = true;
  mGlReady = true;
  mSceneDirty = true;
}

void Viewport::releaseGl() {
  if (!mGlReady) return;
  mMeshes.release();
  for (OverlayBuffer* overlay : {&mGrid, &mSkeleton, &mGizmo, &mGhosts, &mRigLines, &mTrailLines}) {
    glDeleteBuffers(1, &overlay->buffer);
    glDeleteVertexArrays(1, &overlay->vao);
    *overlay = OverlayBuffer{};
  }
  glDeleteVertexArrays(1, &mEmptyVao);
  mEmptyVao = 0;
  mBackgroundProgram.reset();
  mSolidProgram.reset();
  mGlReady = false;
}

void Viewport::createOverlayBuffer(OverlayBuffer& overlay) {
  glGenVertexArrays(1, &overlay.vao);
  glGenBuffers(1, &overlay.buffer);
  glBindVertexArray(overlay.vao);
  glBindBuffer(GL_ARRAY_BUFFER, overlay.buffer);
  const auto stride = static_cast<GLsizei>(sizeof(OverlayVertex));
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, stride, reinterpret_cast<void*>(offsetof(OverlayVertex, position)));
  glEnableVertexAttribArray(1);
  glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, stride, reinterpret_cast<void*>(offsetof(OverlayVertex, normal)));
  glEnableVertexAttribArray(2);
  glVertexAttribPointer(2, 4, GL_FLOAT, GL_FALSE, stride, reinterpret_cast<void*>(offsetof(OverlayVertex, color)));
  glBindVertexArray(0);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
}

void Viewport::uploadOverlay(OverlayBuffer& overlay, const std::vector<OverlayVertex>& vertices, GLenum usage) {
  glBindBuffer(GL_ARRAY_BUFFER, overlay.buffer);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(vertices.size() * sizeof(OverlayVertex)), vertices.data(),
               usage);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  overlay.count = static_cast<GLsizei>(vertices.size());
}

void Viewport::drawOverlay(const OverlayBuffer& overlay, GLenum mode, bool lit, const Mat4& view,
                           const Mat4& viewProjection) {
  if (overlay.count == 0) return;
  mSolidProgram->bind();
  glUniformMatrix4fv(mSolidProgram->uniformLocation("uViewProjection"), 1, GL_FALSE, viewProjection.data());
  glUniformMatrix4fv(mSolidProgram->uniformLocation("uView"), 1, GL_FALSE, view.data());
  mSolidProgram->setUniformValue("uLit", lit);
  glBindVertexArray(overlay.vao);
  glDrawArrays(mode, 0, overlay.count);
  glBindVertexArray(0);
  mSolidProgram->release();
}

void Viewport::resizeGL(int, int) {}

// Qt 6.4's QOpenGLWidget makes a new context on every show, resize and paint until one is
// created, and keeps only the last: where OpenGL is refused (a platform without it, a driver
// that says no) each retry leaked a QOpenGLContext and printed another warning. A context that
// failed once fails again on the same window, so the widget asks once per window; a new window
// (reparenting) drops the context and asks again.
bool Viewport::contextRefused() const { return context() != nullptr && !context()->isValid(); }

bool Viewport::event(QEvent* event) {
  if (event->type() == QEvent::Show && contextRefused()) return QWidget::event(event);
  return QOpenGLWidget::event(event);
}

void Viewport::resizeEvent(QResizeEvent* event) {
  if (contextRefused()) {
    QWidget::resizeEvent(event);
    return;
  }
  QOpenGLWidget::resizeEvent(event);
}

void Viewport::paintEvent(QPaintEvent* event) {
  if (!contextRefused()) QOpenGLWidget::paintEvent(event);
}

bool Viewport::renderFrameNow() {
  if (!context() || contextRefused()) return false;
  makeCurrent();
  paintGL();
  context()->functions()->glFinish();
  doneCurrent();
  return mGlReady;
}

void Viewport::paintGL() {
  if (!mGlReady) {
    // Without 3.3 core our function table may be empty; the context's own functions
    // always exist.
    QOpenGLFunctions* fallback = context()->functions();
    fallback->glClearColor(0.2f, 0.2f, 0.21f, 1.0f);
    fallback->glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    return;
  }
  if (mFlatBackground) glClearColor(0.235f, 0.235f, 0.25f, 1.0f);  // the gradient's middle
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);

  const Scene& scene = mDocument->scene();
  const auto modelPose = mDocument->modelPose();
  if (mSceneDirty) {
    mMeshes.upload(scene);
    buildGroundGrid(scene.characterHeight(), mOverlayScratch);
    uploadOverlay(mGrid, mOverlayScratch, GL_STATIC_DRAW);
    mSceneDirty = false;
  }
  if (mPendingFrame) {
    mCamera.frame(*mPendingFrame, aspect());
    mPendingFrame.reset();
  }
  const Mat4 view = mCamera.viewMatrix();
  const Mat4 viewProjection = mCamera.projectionMatrix(aspect()) * view;

  // Background: a vertical gradient, drawn without depth so everything covers it.
  if (!mFlatBackground) {
    glDisable(GL_DEPTH_TEST);
    mBackgroundProgram->bind();
    mBackgroundProgram->setUniformValue("uTopColor", 0.35f, 0.35f, 0.37f);
    mBackgroundProgram->setUniformValue("uBottomColor", 0.12f, 0.12f, 0.13f);
    glBindVertexArray(mEmptyVao);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glBindVertexArray(0);
    mBackgroundProgram->release();
  }

  glEnable(GL_DEPTH_TEST);
  glDepthFunc(GL_LEQUAL);
  setDepthLayer(*this, DepthLayer::Scene);
  if (mShowGrid) drawOverlay(mGrid, GL_LINES, false, view, viewProjection);
  if (mShowMesh) mMeshes.draw(scene, modelPose, view, viewProjection);
  drawOnionSkin(view, viewProjection);

  // Bones in front of the meshes (Maya's joint X-ray): an animator must see and click
  // the joints inside the body. They still depth-test against each other.
  setDepthLayer(*this, DepthLayer::Bones);
  if (mShowBones) {
    buildSkeletonOverlay(scene.skeleton, mBones, modelPose, mDocument->selectedJoints(), scene.characterHeight(),
                         mOverlayScratch);
    uploadOverlay(mSkeleton, mOverlayScratch, GL_STREAM_DRAW);
    drawOverlay(mSkeleton, GL_TRIANGLES, true, view, viewProjection);
  }
  drawRig(view, viewProjection);

  // The gizmo over everything, at a constant size on screen.
  if (const auto frame = gizmoFrame()) {
    setDepthLayer(*this, DepthLayer::Gizmo);
    const int activeAxis = mDrag == Drag::Gizmo ? mGizmoAxis : mDrag == Drag::Handle ? mHandleGizmoAxis : -1;
    buildGizmoLines(mGizmoMode, *frame, activeAxis, mOverlayScratch);
    uploadOverlay(mGizmo, mOverlayScratch, GL_STREAM_DRAW);
    drawOverlay(mGizmo, GL_LINES, false, view, viewProjection);
  }
  setDepthLayer(*this, DepthLayer::Scene);
  mRenderedFrame = true;
}

void Viewport::mousePressEvent(QMouseEvent* event) {
  mLastMouse = event->position().toPoint();
  const Qt::KeyboardModifiers modifiers = event->modifiers();
  const bool alt = modifiers & Qt::AltModifier;
  const bool shift = modifiers & Qt::ShiftModifier;
  switch (event->button()) {
    case Qt::LeftButton:
      if (alt) {
        mDrag = Drag::Orbit;
      } else {
        const Vec2 mouse(static_cast<float>(event->position().x()), static_cast<float>(event->position().y()));
        mDragMouse = mouse;
        // Shift held before grabbing a gizmo drags it at the fine rate (Maya's and Blender's
        // habit); Shift on anything else adds to the selection.
        if (startGizmoDrag(mouse) || startHandleGizmoDrag(mouse) || (!shift && startHandleDrag(mouse))) break;
        const int joint = mShowBones
                              ? pickJoint(mDocument->scene().skeleton, mBones, mDocument->modelPose(), viewProjection(),
                                          static_cast<float>(width()), static_cast<float>(height()), mouse)
                              : -1;
        std::vector<int> selection;
        if (shift) selection = mDocument->selectedJoints();
        if (joint >= 0) selection.push_back(joint);
        if (joint >= 0 || !shift) mDocument->setSelectedJoints(std::move(selection));
        // A plain click on a joint or on nothing leaves no handle selected (Maya's habit).
        if (!shift) mDocument->setSelectedHandle(-1);
      }
      break;
    case Qt::MiddleButton:
      if (modifiers & Qt::ControlModifier) {
        mDrag = Drag::Zoom;  // Blender's Ctrl+MMB
      } else {
        mDrag = alt || shift ? Drag::Pan : Drag::Orbit;
      }
      break;
    case Qt::RightButton:
      if (alt) mDrag = Drag::Zoom;
      break;
    default:
      break;
  }
  event->accept();
}

void Viewport::mouseMoveEvent(QMouseEvent* event) {
  const QPoint position = event->position().toPoint();
  const QPoint delta = position - mLastMouse;
  mLastMouse = position;
  switch (mDrag) {
    case Drag::Orbit:
      mCamera.orbit(static_cast<float>(delta.x()), static_cast<float>(delta.y()));
      break;
    case Drag::Pan:
      mCamera.pan(static_cast<float>(delta.x()), static_cast<float>(delta.y()), static_cast<float>(height()));
      break;
    case Drag::Zoom:
      // Dragging right or down moves closer, as Maya's Alt+RMB dolly.
      mCamera.zoom(std::exp(-0.005f * static_cast<float>(delta.x() + delta.y())));
      break;
    case Drag::Gizmo:
      dragGizmo(dragMouse(*event, delta));
      break;
    case Drag::Handle:
      dragHandle(dragMouse(*event, delta));
      break;
    case Drag::None:
      return;
  }
  update();
}

Vec2 Viewport::dragMouse(const QMouseEvent& event, const QPoint& delta) {
  const float scale = event.modifiers() & Qt::ShiftModifier ? kFineDragScale : 1.0f;
  mDragMouse += scale * Vec2(static_cast<float>(delta.x()), static_cast<float>(delta.y()));
  return mDragMouse;
}

void Viewport::mouseReleaseEvent(QMouseEvent* event) {
  if (mDrag == Drag::Gizmo || mDrag == Drag::Handle) update();  // the active handle loses its highlight
  mDrag = Drag::None;
  event->accept();
}

void Viewport::wheelEvent(QWheelEvent* event) {
  // 120 units per notch; each notch moves 15 % of the way.
  mCamera.zoom(std::pow(0.85f, static_cast<float>(event->angleDelta().y()) / 120.0f));
  update();
  event->accept();
}

}  // namespace articula::ui
