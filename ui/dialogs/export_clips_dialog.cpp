#include "ui/dialogs/export_clips_dialog.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>

#include "core/scene/scene.h"

namespace articula::ui {

ExportClipsDialog::ExportClipsDialog(const Scene& scene, QWidget* parent)
    : QDialog(parent),
      mClipList(new QListWidget(this)),
      mButtons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this)) {
  setObjectName(QStringLiteral("exportClipsDialog"));
  setWindowTitle(tr("Export Clips"));
  mClipList->setObjectName(QStringLiteral("exportClipList"));
  for (const Clip& clip : scene.clips) {
    auto* item = new QListWidgetItem(tr("%1 (%2 frames)").arg(QString::fromStdString(clip.name)).arg(clip.frameCount()),
                                     mClipList);
    item->setFlags(Qt::ItemIsUserCheckable | Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    item->setCheckState(Qt::Checked);
  }
  // Up to 16 clips show without scrolling.
  const int rowsShown = std::min(mClipList->count(), 16);
  mClipList->setMinimumHeight(rowsShown * mClipList->sizeHintForRow(0) + 2 * mClipList->frameWidth());
  QPushButton* all = mButtons->addButton(tr("All"), QDialogButtonBox::ResetRole);
  QPushButton* none = mButtons->addButton(tr("None"), QDialogButtonBox::ResetRole);
  all->setObjectName(QStringLiteral("exportAllClips"));
  none->setObjectName(QStringLiteral("exportNoClips"));

  auto* layout = new QVBoxLayout(this);
  layout->addWidget(new QLabel(tr("Clips the file holds:"), this));
  layout->addWidget(mClipList);
  layout->addWidget(mButtons);
  connect(all, &QPushButton::clicked, this, [this] { checkAll(true); });
  connect(none, &QPushButton::clicked, this, [this] { checkAll(false); });
  connect(mClipList, &QListWidget::itemChanged, this, &ExportClipsDialog::updateOk);
  connect(mButtons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(mButtons, &QDialogButtonBox::rejected, this, &QDialog::reject);
}

std::vector<int> ExportClipsDialog::chosenClips() const {
  std::vector<int> chosen;
  for (int row = 0; row < mClipList->count(); ++row) {
    if (mClipList->item(row)->checkState() == Qt::Checked) chosen.push_back(row);
  }
  return chosen;
}

void ExportClipsDialog::checkAll(bool checked) {
  for (int row = 0; row < mClipList->count(); ++row)
    mClipList->item(row)->setCheckState(checked ? Qt::Checked : Qt::Unchecked);
}

void ExportClipsDialog::updateOk() { mButtons->button(QDialogButtonBox::Ok)->setEnabled(!chosenClips().empty()); }

}  // namespace articula::ui
