#include "ui/docks/layers_dock.h"

#include <QAction>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QToolBar>
#include <QVBoxLayout>

#include "ui/commands/layer_commands.h"
#include "ui/document/document.h"

namespace articula::ui {

LayersDock::LayersDock(Document* document, QWidget* parent)
    : QDockWidget(tr("Layers"), parent),
      mDocument(document),
      mList(new QListWidget),
      mWeight(new QDoubleSpinBox),
      mMessage(new QLabel),
      mActions(new QWidget) {
  setObjectName(QStringLiteral("LayersDock"));
  auto* top = new QToolBar;
  auto* bottom = new QToolBar;
  auto layer = [this] { return mDocument->activeLayer(); };
  auto* d = mDocument;
  top->addAction(makeAction(QStringLiteral("addAdditiveLayer"), tr("+ Additive"),
                           [d] { return articula::ui::addLayer(*d, LayerMode::Additive); }));
  top->addAction(makeAction(QStringLiteral("addOverrideLayer"), tr("+ Override"),
                           [d] { return articula::ui::addLayer(*d, LayerMode::Override); }));
  top->addAction(makeAction(QStringLiteral("deleteLayer"), tr("Delete"), [d, layer] { return deleteLayer(*d, layer()); }));
  top->addAction(makeAction(QStringLiteral("moveLayerUp"), tr("Up"), [d, layer] { return moveLayer(*d, layer(), 1); }));
  top->addAction(makeAction(QStringLiteral("moveLayerDown"), tr("Down"), [d, layer] { return moveLayer(*d, layer(), -1); }));
  const std::pair<const char*, LayerFlag> flags[] = {
      {"muteLayer", LayerFlag::Mute}, {"soloLayer", LayerFlag::Solo}, {"lockLayer", LayerFlag::Lock}};
  const QString flagTexts[] = {tr("Mute"), tr("Solo"), tr("Lock")};
  for (int i = 0; i < 3; ++i) {
    const LayerFlag flag = flags[i].second;
    QAction* toggle = makeAction(
        QString::fromLatin1(flags[i].first), flagTexts[i],
        [this, d, layer, flag, name = QString::fromLatin1(flags[i].first)] {
          return setLayerFlag(*d, layer(), flag, action(name)->isChecked());
        },
        true);
    bottom->addAction(toggle);
  }
  bottom->addAction(makeAction(QStringLiteral("mergeLayerDown"), tr("Merge Down"),
                              [d, layer] { return mergeLayerDown(*d, layer()); }));
  bottom->addAction(makeAction(QStringLiteral("mergeAllLayers"), tr("Merge All"), [d] { return mergeAllLayers(*d); }));
  bottom->addAction(makeAction(QStringLiteral("zeroKey"), tr("Zero Key"), [d] { return zeroKeyActiveLayer(*d); }));

  mWeight->setObjectName(QStringLiteral("layerWeight"));
  mWeight->setRange(0.0, 1.0);
  mWeight->setSingleStep(0.05);
  mWeight->setDecimals(3);
  mWeight->setToolTip(tr("The active layer's weight: editing it keys it at the current frame"));
  connect(mWeight, &QDoubleSpinBox::editingFinished, this, [this] {
    if (mRebuilding || !mDocument->activeLayerOfClip()) return;
    if (mDocument->activeLayerOfClip()->weightAt(mDocument->time()) == mWeight->value()) return;
    report(keyLayerWeight(*mDocument, mDocument->activeLayer(), mWeight->value()));
  });
  auto* weightRow = new QHBoxLayout;
  weightRow->addWidget(new QLabel(tr("Weight")));
  weightRow->addWidget(mWeight, 1);

  mList->setObjectName(QStringLiteral("layerList"));
  connect(mList, &QListWidget::currentRowChanged, this, [this](int row) {
    if (!mRebuilding && row >= 0) mDocument->setActiveLayer(layerOfRow(row));
  });
  connect(mList, &QListWidget::itemChanged, this, [this](QListWidgetItem* item) {
    const int layerIndex = layerOfRow(mList->row(item));
    if (mRebuilding || layerIndex < 0) return;
    report(renameLayer(*mDocument, layerIndex, item->text()));
  });
  mMessage->setObjectName(QStringLiteral("layerMessage"));
  mMessage->setWordWrap(true);

  auto* layout = new QVBoxLayout(mActions);
  layout->setContentsMargins(2, 2, 2, 2);
  layout->addWidget(top);
  layout->addWidget(bottom);
  layout->addWidget(mList, 1);
  layout->addLayout(weightRow);
  layout->addWidget(mMessage);
  setWidget(mActions);
  connect(mDocument, &Document::changed, this, &LayersDock::onDocumentChanged);
  rebuild();
}

QAction* LayersDock::action(const QString& name) const { return findChild<QAction*>(name); }

QAction* LayersDock::makeAction(const QString& name, const QString& text,
                               const std::function<std::optional<QString>()>& run, bool checkable) {
  auto* act = new QAction(text, this);
  act->setObjectName(name);
  act->setCheckable(checkable);
  connect(act, &QAction::triggered, this, [this, run] { report(run()); });
  return act;
}

void LayersDock::report(const std::optional<QString>& refusal) {
  mMessage->setText(refusal.value_or(QString()));
  refreshState();  // a refused toggle shows its old state again
}

int LayersDock::layerOfRow(int row) const { return mList->count() - 2 - row; }
int LayersDock::rowOfLayer(int layer) const { return mList->count() - 2 - layer; }

void LayersDock::onDocumentChanged(const ChangeEvent& event) {
  switch (event.type) {
    case ChangeEvent::Type::SceneReplaced:
    case ChangeEvent::Type::CurrentClipChanged:
      rebuild();
      break;
    case ChangeEvent::Type::ActiveLayerChanged:  // picked in the list, or moved by an action
      mRebuilding = true;
      mList->setCurrentRow(rowOfLayer(mDocument->activeLayer()));
      mRebuilding = false;
      refreshState();
      break;
    case ChangeEvent::Type::ClipEdited:
      if (event.clip == mDocument->currentClipIndex()) rebuild();
      break;
    case ChangeEvent::Type::TimeChanged:
      refreshState();
      break;
    default:
      break;
  }
}

void LayersDock::rebuild() {
  mRebuilding = true;
  mList->clear();
  if (const Clip* clip = mDocument->currentClip()) {
    for (auto layer = clip->layers.rbegin(); layer != clip->layers.rend(); ++layer) {
      QString text = QString::fromStdString(layer->name);
      auto* item = new QListWidgetItem(text, mList);
      item->setFlags(item->flags() | Qt::ItemIsEditable);
      QStringList marks{layer->mode == LayerMode::Additive ? tr("additive") : tr("override")};
      if (layer->muted) marks << tr("muted");
      if (layer->solo) marks << tr("solo");
      if (layer->locked) marks << tr("locked");
      item->setToolTip(marks.join(QStringLiteral(", ")));
      if (layer->muted) item->setForeground(palette().color(QPalette::Disabled, QPalette::Text));
    }
    new QListWidgetItem(tr("Base"), mList);
    mList->setCurrentRow(rowOfLayer(mDocument->activeLayer()));
  }
  mRebuilding = false;
  refreshState();
}

void LayersDock::refreshState() {
  mRebuilding = true;
  const AnimLayer* layer = mDocument->activeLayerOfClip();
  const Clip* clip = mDocument->currentClip();
  const bool hasLayers = clip && !clip->layers.empty();
  for (const char* name : {"deleteLayer", "moveLayerUp", "moveLayerDown", "muteLayer", "soloLayer", "lockLayer",
                           "zeroKey"}) {
    action(QString::fromLatin1(name))->setEnabled(layer != nullptr);
  }
  action(QStringLiteral("mergeLayerDown"))->setEnabled(layer != nullptr);
  action(QStringLiteral("mergeAllLayers"))->setEnabled(hasLayers);
  action(QStringLiteral("muteLayer"))->setChecked(layer && layer->muted);
  action(QStringLiteral("soloLayer"))->setChecked(layer && layer->solo);
  action(QStringLiteral("lockLayer"))->setChecked(layer && layer->locked);
  mWeight->setEnabled(layer != nullptr && !layer->locked);
  mWeight->setValue(layer ? layer->weightAt(mDocument->time()) : 1.0);
  mRebuilding = false;
}

}  // namespace articula::ui
