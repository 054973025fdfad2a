#pragma once
#include <QString>
#include <QUndoCommand>

#include <string>

namespace articula::ui {

class Document;

// Renames one skeleton node. Names must stay non-empty and unique (exporters and rigs find
// joints by name), so check with validate() before pushing.
class RenameJointCommand : public QUndoCommand {
 public:
  RenameJointCommand(Document* document, int joint, const QString& name, QUndoCommand* parent = nullptr);

  // Why `name` cannot be given to `joint` (invalid joint, empty name, surrounding spaces,
  // a name another node has), or an empty string when it can.
  static QString validate(const Document& document, int joint, const QString& name);

  void redo() override;
  void undo() override;

 private:
  void swapName();

  Document* const mDocument;
  const int mJoint;
  std::string mName;  // the name redo (or undo) puts in place
};

}  // namespace articula::ui
