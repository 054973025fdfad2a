#include "ui/viewport/viewport.h"

#include <QMouseEvent>
#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QOpenGLFunctions>
#include <QOpenGLShaderProgram>
#include <QUndoStack>
#include <QWheelEvent>

#include <cmath>
#include <utility>

#include "core/skeleton/local_to_model.h"
#include "ui/commands/set_joint_transform_command.h"
#include "ui/document/document.h"
#include "ui/viewport/scene_bounds.h"

namespace articula::ui {

namespace {

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
    const auto* renderer = reinterpret_cast<const char*>(context.functions()->glGetString(GL_RENDERER));
    const QString name = QString::fromLatin1(renderer ? renderer : "").toLower();
    context.doneCurrent();
    const bool software = name.contains(QLatin1String("llvmpipe")) || name.contains(QLatin1String("softpipe")) ||
                          name.contains(QLatin1String("swiftshader")) || name.contains(QLatin1String("software"));
    return software ? 0 : 4;
  }();
  return samples;
}

void Viewport::documentChanged(const ChangeEvent& event) {
  // A drag continues only on the joint and pose it started from.
  if (mDrag == Drag::Gizmo && event.type != ChangeEvent::Type::PoseEdited) mDrag = Drag::None;
  if (event.type == ChangeEvent::Type::SceneReplaced) {
    mBones = bonesOf(mDocument->scene().skeleton);
    mSceneDirty = true;
    frameAll();
  }
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

void Viewport::setGizmoMode(GizmoMode mode) {
  mGizmoMode = mode;
  if (mDrag == Drag::Gizmo) mDrag = Drag::None;
  update();
}

void Viewport::setOnionSkin(const OnionSkinSettings& settings) {
  mOnionSkin = settings;
  update();
}

void Viewport::drawOnionSkin(const Mat4& view, const Mat4& viewProjection) {
  const Clip* clip = mDocument->currentClip();
  if (!clip) return;
  const auto ghosts = ghostFrames(mDocument->currentFrame(), mDocument->frameCount(), mOnionSkin);
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

std::optional<GizmoFrame> Viewport::gizmoFrame() const {
  const int joint = gizmoJoint();
  const auto modelPose = mDocument->modelPose();
  if (mGizmoMode == GizmoMode::None || joint < 0 || joint >= static_cast<int>(modelPose.size())) return std::nullopt;
  return gizmoFrameOf(modelPose[static_cast<std::size_t>(joint)], mGizmoSpace, gizmoView(), kGizmoSizePixels);
}

bool Viewport::startGizmoDrag(const Vec2& mouse) {
  const auto frame = gizmoFrame();
  if (!frame) return false;
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
  mMergeUndo = false;
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
  command->setMergeable(std::exchange(mMergeUndo, true));
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
  glGenVertexArrays(1, &mEmptyVao);
  createOverlayBuffer(mGrid);
  createOverlayBuffer(mSkeleton);
  createOverlayBuffer(mGizmo);
  createOverlayBuffer(mGhosts);
  mGlReady = true;
  mSceneDirty = true;
}

void Viewport::releaseGl() {
  if (!mGlReady) return;
  mMeshes.release();
  for (OverlayBuffer* overlay : {&mGrid, &mSkeleton, &mGizmo, &mGhosts}) {
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

bool Viewport::renderFrameNow() {
  if (!context()) return false;
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
  glDisable(GL_DEPTH_TEST);
  mBackgroundProgram->bind();
  mBackgroundProgram->setUniformValue("uTopColor", 0.35f, 0.35f, 0.37f);
  mBackgroundProgram->setUniformValue("uBottomColor", 0.12f, 0.12f, 0.13f);
  glBindVertexArray(mEmptyVao);
  glDrawArrays(GL_TRIANGLES, 0, 3);
  glBindVertexArray(0);
  mBackgroundProgram->release();

  glEnable(GL_DEPTH_TEST);
  glDepthFunc(GL_LEQUAL);
  drawOverlay(mGrid, GL_LINES, false, view, viewProjection);
  mMeshes.draw(scene, modelPose, view, viewProjection);
  drawOnionSkin(view, viewProjection);

  // Bones in front of the meshes (Maya's joint X-ray): an animator must see and click
  // the joints inside the body. They still depth-test against each other.
  glClear(GL_DEPTH_BUFFER_BIT);
  buildSkeletonOverlay(scene.skeleton, mBones, modelPose, mDocument->selectedJoints(), scene.characterHeight(),
                       mOverlayScratch);
  uploadOverlay(mSkeleton, mOverlayScratch, GL_STREAM_DRAW);
  drawOverlay(mSkeleton, GL_TRIANGLES, true, view, viewProjection);

  // The gizmo over everything, at a constant size on screen.
  if (const auto frame = gizmoFrame()) {
    glClear(GL_DEPTH_BUFFER_BIT);
    buildGizmoLines(mGizmoMode, *frame, mDrag == Drag::Gizmo ? mGizmoAxis : -1, mOverlayScratch);
    uploadOverlay(mGizmo, mOverlayScratch, GL_STREAM_DRAW);
    drawOverlay(mGizmo, GL_LINES, false, view, viewProjection);
  }
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
        if (!shift && startGizmoDrag(mouse)) break;
        const int joint = pickJoint(mDocument->scene().skeleton, mBones, mDocument->modelPose(), viewProjection(),
                                    static_cast<float>(width()), static_cast<float>(height()), mouse);
        std::vector<int> selection;
        if (shift) selection = mDocument->selectedJoints();
        if (joint >= 0) selection.push_back(joint);
        if (joint >= 0 || !shift) mDocument->setSelectedJoints(std::move(selection));
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
      dragGizmo(Vec2(static_cast<float>(event->position().x()), static_cast<float>(event->position().y())));
      break;
    case Drag::None:
      return;
  }
  update();
}

void Viewport::mouseReleaseEvent(QMouseEvent* event) {
  if (mDrag == Drag::Gizmo) update();  // the active handle loses its highlight
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
