#include "ui/commands/handle_commands.h"

#include <QCoreApplication>

#include "ui/commands/command_ids.h"
#include "ui/document/document.h"

namespace articula::ui {

namespace {

QString moveText(const IkHandle* handle, MoveHandleCommand::Part part) {
  const QString name = handle ? QString::fromStdString(handle->name) : QStringLiteral("?");
  return part == MoveHandleCommand::Part::Target
             ? QCoreApplication::translate("MoveHandleCommand", "Move IK Target %1").arg(name)
             : QCoreApplication::translate("MoveHandleCommand", "Move IK Pole %1").arg(name);
}

}  // namespace

EditHandleCommand::EditHandleCommand(Document* document, int handle, IkHandle value, const QString& text,
                                     QUndoCommand* parent)
    : ChangeValue(document, std::move(value), text, parent), mHandle(handle) {
  const IkHandle* current = document->activeHandle(handle);
  if (!current || *current == this->value()) setObsolete(true);
}

QString EditHandleCommand::validate(const Document& document, int handle, const IkHandle& value) {
  if (!document.activeHandle(handle)) {
    return QCoreApplication::translate("EditHandleCommand", "there is no IK handle %1 in the active rig").arg(handle);
  }
  RigDefinition rig = *document.activeRig();
  rig.handles[static_cast<std::size_t>(handle)] = value;
  const Result<Rig> bound = Rig::bind(document.scene().skeleton, std::move(rig));
  return bound ? QString() : QString::fromStdString(bound.error());
}

IkHandle EditHandleCommand::exchange(IkHandle value) {
  // The stack keeps the rig as it was when the command ran, so the handle is there.
  std::optional<IkHandle> replaced = document()->setHandle({}, mHandle, value);
  return replaced ? std::move(*replaced) : value;
}

int EditHandleCommand::id() const { return kEditHandleCommandId; }

bool EditHandleCommand::mergeWith(const QUndoCommand* other) {
  const auto* next = static_cast<const EditHandleCommand*>(other);
  const IkHandle* current = document()->activeHandle(mHandle);
  return next->mHandle == mHandle && current && foldDrag(*next, *current);
}

MoveHandleCommand::MoveHandleCommand(Document* document, int handle, Part part, const Vec3& position,
                                     QUndoCommand* parent)
    : QUndoCommand(parent), mDocument(document), mHandle(handle), mPart(part) {
  const IkHandle* current = document->activeHandle(handle);
  setText(moveText(current, part));
  if (!current || !position.allFinite()) {
    setObsolete(true);
    return;
  }
  mPrevious = *current;
  mPreviousPosed = document->posedHandles();
  mValue = *current;
  if (part == Part::Target) {
    mValue.targetSource = TargetSource::Handle;
    mValue.targetModel = position;
  } else {
    mValue.pole.position = position;
  }
  if (mValue == mPrevious) setObsolete(true);
}

MoveHandleCommand::MoveHandleCommand(Document* document, int handle, Part part, const IkHandle& startValue,
                                     QUndoCommand* parent)
    : QUndoCommand(parent), mDocument(document), mHandle(handle), mPart(part) {
  const IkHandle* current = document->activeHandle(handle);
  setText(moveText(current, part));
  if (!current) {
    setObsolete(true);
    return;
  }
  mPrevious = *current;
  mPreviousPosed = document->posedHandles();
  mValue = startValue;
  if (mValue == mPrevious) setObsolete(true);
}

void MoveHandleCommand::redo() {
  if (isObsolete()) return;
  if (!mDocument->posedHandles().contains(mHandle)) {
    std::set<int> posed = mPreviousPosed;
    posed.insert(mHandle);
    mDocument->setPosedHandles({}, std::move(posed));
  }
  mDocument->setHandle({}, mHandle, mValue);
}

void MoveHandleCommand::undo() {
  if (!isObsolete()) restorePrevious();
}

void MoveHandleCommand::restorePrevious() {
  mDocument->setHandle({}, mHandle, mPrevious);
  if (mDocument->posedHandles() != mPreviousPosed) mDocument->setPosedHandles({}, mPreviousPosed);
}

int MoveHandleCommand::id() const { return kMoveHandleCommandId; }

bool MoveHandleCommand::mergeWith(const QUndoCommand* other) {
  const auto* next = static_cast<const MoveHandleCommand*>(other);
  if (!next->mMergeable || next->mDocument != mDocument || next->mHandle != mHandle || next->mPart != mPart ||
      next->isObsolete())
    return false;
  mValue = next->mValue;
  if (mValue == mPrevious) {
    // Back where the drag started: the stack drops an obsolete command without undoing
    // it, so put the document back ourselves.
    restorePrevious();
    setObsolete(true);
  }
  return true;
}

}  // namespace articula::ui
