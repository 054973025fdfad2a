#pragma once
#include <QDialog>

#include <vector>

class QDialogButtonBox;
class QListWidget;

namespace articula {
struct Scene;
}

namespace articula::ui {

// File ▸ Export glTF…, first step when the character has several clips: which clips the file
// holds (every clip checked at first; All and None buttons). OK is disabled while none is
// checked. Each chosen clip is written as a file of every clip writes it (KeyWriteOptions::clips).
class ExportClipsDialog : public QDialog {
  Q_OBJECT

 public:
  explicit ExportClipsDialog(const Scene& scene, QWidget* parent = nullptr);

  // Indices of the checked clips, ascending.
  std::vector<int> chosenClips() const;

  QListWidget* clipList() const { return mClipList; }
  QDialogButtonBox* buttons() const { return mButtons; }

 private:
  void checkAll(bool checked);
  void updateOk();

  QListWidget* const mClipList;
  QDialogButtonBox* const mButtons;
};

}  // namespace articula::ui
