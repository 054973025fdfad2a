#pragma once
#include <optional>
#include <string>
#include <string_view>

#include "core/scene/scene.h"

namespace articula {

// How a written file's animation data is stored.
// - None: core glTF 2.0, which every reader opens.
// - Meshopt: each animation's accessors in views of equal-sized elements encoded with
//   EXT_meshopt_compression (lossless, no filter; the extension is required). three.js and
//   Babylon.js read it; Blender 3.4's importer and our own reader do not.
enum class GltfCompression { None, Meshopt };

// "none" or "meshopt": the word of `--compress` and `--json`.
const char* compressionName(GltfCompression compression);
// The GltfCompression a word names (as compressionName writes it), nullopt for any other.
std::optional<GltfCompression> parseCompression(std::string_view word);

// How exportGltf writes a scene.
struct GltfExportOptions {
  // Container: true writes one GLB file; false writes glTF JSON with its buffer
  // (`<stem>.bin`) and images (`<stem>_image<N>.png|.jpg`) beside it. Unset: chosen by the
  // path's extension, ".gltf" (any case) for JSON and anything else for GLB.
  std::optional<bool> binary;
  // Largest error a channel may pick up where glTF cannot hold our interpolation exactly
  // (Bézier segments whose handles do not sit at thirds of the segment in time, Bézier on the
  // sphere, CubicSpline mixed with Slerp), measured on the sampled channel: translation as a
  // fraction of Scene::characterHeight(), rotation in radians (an angle of `tolerance` moves
  // a point one character height away by `tolerance` heights).
  double tolerance = 1e-5;
  // The same for dimensionless channels, absolute: scale factors and morph-target weights.
  double scalarTolerance = 1e-6;
  // A fraction of Scene::characterHeight(): a LINEAR rotation segment that a reader lerping
  // the quaternion's components (Blender's importer) would play further than this from the
  // slerp the spec plays, at the farthest node the joint turns (its subtree at the rest
  // pose), gets slerp keys between its keys. 2.5e-4: 0.44 mm at 1.75 m (a reduced bake's
  // segments already hold 0.4 mm at the default tolerance). 0: never.
  double componentLerpTolerance = 2.5e-4;
  // The scene's up in model space (a humanoid's HumanoidFrame::upModel). glTF is +Y up, so
  // any other up puts the scene's roots under one node named "Y up" that turns it onto +Y
  // (a Z-up BVH stands up in every engine); nodes, keys and skins are written as they are.
  Vec3 upModel = Vec3::UnitY();
  // Model units in one metre (a capture's CaptureConvention::unitsPerMetre). glTF is in
  // metres, so any other value puts the scene's roots under one node named "metres" scaled
  // by 1 / unitsPerMetre (inside "Y up" when there is one): a centimetre capture plays at its
  // size in every engine; nodes, keys and skins are written as they are.
  double unitsPerMetre = 1.0;
  GltfCompression compression = GltfCompression::None;
};

// What exportGltf wrote, for a user to weigh a file: its size and the keys and interpolation
// of its animation channels.
struct GltfExportReport {
  std::size_t bytes = 0;  // the .glb, or the .gltf with its .bin
  std::size_t keys = 0;   // input times over every animation channel
  std::size_t stepChannels = 0;
  std::size_t linearChannels = 0;
  std::size_t cubicChannels = 0;
  GltfCompression compression = GltfCompression::None;
};

// "cubic" when a channel of the file is CUBICSPLINE (Blender's importer drops its tangents),
// else "linear" (LINEAR and STEP, which every reader plays alike; "linear" too without
// animation).
const char* interpolationOf(const GltfExportReport& report);

// Writes `scene` as glTF 2.0 to `path`. Returns nullopt on success, otherwise a message that
// starts with the file at fault and says why (folder missing, write error, invalid scene).
// Nothing is written when the scene is invalid.
//
// What the file holds:
// - One node per skeleton node (same order, names, rest pose as local TRS with identity
//   fields omitted); the forest's roots form the scene, under a "Y up" node when
//   options.upModel is not +Y.
// - One mesh (single triangle primitive) per Mesh: POSITION with min/max, NORMAL (normalised;
//   zero normals become +Y, which glTF requires to be unit length), TEXCOORD_0, indices
//   (UNSIGNED_SHORT below 65535 vertices, since 65535 is the primitive-restart value, else
//   UNSIGNED_INT), morph targets (POSITION/NORMAL deltas, names in extras.targetNames,
//   default weights). A mesh sits on its Mesh::node; a mesh without a node, or whose node
//   already holds another mesh, gets a new node: at the root when skinned (glTF ignores a
//   skinned mesh's node transform), else an identity child of Mesh::node.
// - Skins: joints, inverse bind matrices, `skeleton` = the joints' closest common ancestor.
//   Per vertex, influences with zero weight are dropped, repeated joints merged, the rest
//   sorted by weight and renormalised to sum 1; JOINTS_n/WEIGHTS_n sets are added four
//   influences at a time as the busiest vertex needs. A vertex without weight follows the
//   skin's first joint.
//   A tree of the forest whose joints skin no mesh (BVH, mocap FBX or Collada) gets a skin
//   attached to no node, named after the tree's root: its Joint nodes in index order, inverse
//   bind matrices the inverse of their rest model matrices. Blender's exporter writes an
//   armature without a mesh the same way, and importers build a skeleton only from skins.
// - Materials: baseColorFactor (clamped to [0, 1]), metallicFactor 0 (the Scene keeps no
//   PBR parameters; a character is a dielectric), baseColorTexture when the image is PNG or
//   JPEG, from Material::textureData or read from Material::textureUri (relative to the
//   scene's source file). A texture that is missing, in another format or damaged (a
//   PNG whose chunks or a JPEG whose segments before the scan do not run whole) is left out.
// - One animation per clip, named after it, with samplers chosen per channel:
//     translation, scale, morph weights (one or more curves per channel): key times are
//     the union of the curves' key times; all segments Constant → STEP; Constant and Linear
//     only → LINEAR; any Bézier → CUBICSPLINE, whose tangents are the curves' exact
//     derivatives. A Bézier segment with handles at thirds of its time span is a cubic in
//     time and is written exactly; any other Bézier segment is split in time until the
//     Hermite cubic matches it within the tolerance.
//     rotation: all Step → STEP; Step and Slerp → LINEAR (glTF's LINEAR rotation is slerp;
//     a segment that Blender, which lerps the components, would play further than
//     componentLerpTolerance from the slerp gets slerp keys between its keys);
//     CubicSpline with Step or Slerp → CUBICSPLINE with the stored tangents, a Slerp
//     segment as splines with tangents on the chord (a normalised lerp), halved until
//     within the tolerance of the slerp (a reduced bake spliced into a clip's keys stays
//     key for key); anything with Bézier on the sphere (no glTF equivalent), or a Slerp
//     between keys of opposite signs in such a channel → LINEAR, sampled at every frame of
//     the clip and at the keys, then halved until within the tolerance.
//     LINEAR quaternions are unit and in one hemisphere from key to key. A rotation channel
//     whose values all lie on glTF's normalised 16-bit grid (within 1e-6, up to their
//     normalisation) and whose tangents do exactly is written as SHORT normalized, half the
//     bytes: a reduced bake rounds its keys so (KeyReductionOptions::quantizeRotations), a
//     constant identity channel is so; anything else stays in floats.
//   A step (a Constant or Step segment that jumps) inside a LINEAR or CUBICSPLINE channel is
//   written as a hold key one float step before the next key: exact at every time except
//   that last float step.
//   Times are written as floats rounded down, so a key that takes effect at a frame time
//   still does in the file. A clip with keys before 0 is shifted to start at 0 (glTF
//   forbids negative times).
//   A channel (translation, rotation or scale of a node) that another clip of the scene keys
//   and this one does not gets one STEP key at the node's rest value: Blender's importer
//   makes an action per animation, and a bone the active action does not key keeps the pose
//   the previous one left (RobotExpressive's Wave played 4.0 mm off there, on its keys).
// - Each animation's accessors (times shared by samplers with the same keys, outputs) lie in
//   one bufferView of their own; with GltfCompression::Meshopt, in one compressed view per
//   element size, which lies in a fallback buffer without data.
// - Clip data glTF has no place for travels in the animation's extras (see
//   gltf_export_extras.h): frame rate, time range and the named curves (stride curves),
//   restored on import by readArticulaExtras.
// `report`, when given, receives what was written (untouched on failure).
std::optional<std::string> exportGltf(const Scene& scene, const std::string& path,
                                      const GltfExportOptions& options = {}, GltfExportReport* report = nullptr);

}  // namespace articula
