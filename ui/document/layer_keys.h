#pragma once
// The keys the dope sheet and the curve editor show and edit (issue 40): the current clip's
// base, or with a layer active that layer's own keys, put in the shape of a Clip so every
// key edit (key_channel.h, curve_edits.h) works on a layer as on a base.
#include <QString>

#include "core/anim/clip.h"

namespace articula::ui {

// Swaps each track of `part` with the track of `tracks` for the same joint (a part's tracks
// whose joint `tracks` lacks stay in `part`): how a clip part's edit goes in and comes back.
void swapTracksByJoint(std::vector<JointTrack>& tracks, std::vector<JointTrack>& part);

// Layer `layer` of `clip` as a clip: its joint tracks, with the clip's name, frame rate and
// range; no named curves and no layers. An empty clip of that range for a bad index.
Clip layerKeysOf(const Clip& clip, int layer);

// Swaps `keys` (a layerKeysOf clip after an edit, or with `part` a clipPart of one) into
// layer `layer` of `clip`, and the range of `keys` with the clip's (a key moved past the end
// grows the clip). Whole: the layer's tracks become those of `keys`; part: only the tracks
// of the joints `keys` holds, matched by joint. `keys` gets what it replaced, so swapping
// it back undoes the edit. Nothing happens for a bad index.
void swapLayerKeys(Clip& clip, int layer, bool part, Clip& keys);

// "Base", or the layer's name ("Layer 2"), with " (locked)" for a locked layer: what the
// key views' titles say they edit.
QString editedKeysName(const Clip& clip, int layer);

class Document;
// A key view's dock title: `view` alone for a clip without layers, else with the name of
// what it edits ("Curve Editor · Layer 2", "Timeline · Base").
QString keyViewTitle(const QString& view, const Document& document);

}  // namespace articula::ui
