#pragma once
// The filters that work on samples, one per frame (ClipFilterJob samples the range into a
// DenseClip, runs one of these, then keys the range).
#include "core/bake/dense_clip.h"

namespace articula {

// Butterworth low-pass (butterworthSections) forward and backward over every animated
// channel of `dense`, `padFrames` mirrored at each end: translation and scale per component,
// rotations as their four quaternion components (continuous in sign, as DenseClip keeps
// them) renormalised after.
void butterworthDense(DenseClip& dense, int order, double cutoffHz, int padFrames);

// Replaces single-frame spikes among frames [firstFrame, lastFrame] of `dense` (each with a
// frame on both sides) by the midpoint of their neighbours (lerp, slerp). A spike is a frame
// whose offset from its neighbours' midpoint (model units, or a rotation vector in radians)
// is longer than `factor` times that channel's median and than 1.5 times each neighbour's
// offset, which must point the other way (a spike pushes them back by half its own; a fast
// motion's offsets point alike). Returns the frames replaced, summed over channels.
int removePeaksDense(DenseClip& dense, int firstFrame, int lastFrame, double factor);

}  // namespace articula
