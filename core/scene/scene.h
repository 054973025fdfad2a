#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/anim/clip.h"
#include "core/math/euler.h"
#include "core/skeleton/skeleton.h"

namespace articula {

// Base colour and optional texture, as imported. Texture bytes are kept encoded (PNG/JPEG)
// so an export can write them back unchanged.
struct Material {
  std::string name;
  Vec4 baseColor = Vec4::Ones();  // linear RGBA
  std::string textureUri;                    // external image path, relative to the source
  std::vector<std::uint8_t> textureData;     // embedded image bytes (GLB/data URI/FBX)
  std::string textureMimeType;               // "image/png", "image/jpeg", or empty
};

// Morph target: per-vertex deltas, preserved as data.
struct MorphTarget {
  std::string name;
  std::vector<Vec3> positionDeltas;
  std::vector<Vec3> normalDeltas;  // may be empty
};

// Influences of one skinned mesh on the skeleton. Vertex v's influences are
// joints[v*influencesPerVertex + k] with weights[...]; weights sum to 1 per vertex, unused
// slots have weight 0 and joint 0.
struct Skin {
  std::string name;
  // Skeleton joint index of each skin joint (what JOINTS_n refers to).
  std::vector<int> joints;
  // Per skin joint: model space → that joint's bind space (glTF inverseBindMatrices).
  std::vector<Mat4> inverseBindMatrices;
  int influencesPerVertex = 0;
  std::vector<std::uint16_t> vertexJoints;  // indices into `joints`
  std::vector<float> vertexWeights;
};

// A triangle mesh. Unskinned meshes follow `node` rigidly; skinned meshes are deformed by
// `skin` (the glTF rule: the skinned mesh's node transform is ignored).
struct Mesh {
  std::string name;
  int node = -1;  // skeleton node holding the mesh, -1 for none
  std::vector<Vec3> positions;
  std::vector<Vec3> normals;     // empty or one per position
  std::vector<Vec2> texCoords;   // empty or one per position
  std::vector<std::uint32_t> indices;  // triangles
  int material = -1;
  bool hasSkin = false;
  Skin skin;
  std::vector<MorphTarget> morphTargets;
  std::vector<float> morphWeights;  // default weights

  std::size_t vertexCount() const { return positions.size(); }
  int maxInfluences() const;  // largest count of non-zero weights on one vertex
};

// What the user said about a capture's convention, over what the skeleton and motion decide
// (CaptureConventionJob, core/retarget/capture_convention.h): each value left unset is Auto.
struct ConventionOverride {
  std::optional<Vec3> upModel;          // a signed model axis
  std::optional<Vec3> forwardModel;     // a signed model axis perpendicular to the up
  std::optional<double> unitsPerMetre;  // model units in one metre
  bool isAuto() const { return !upModel && !forwardModel && !unitsPerMetre; }
  bool operator==(const ConventionOverride& other) const = default;
};

// Everything an import brings: one node forest (every skeleton of the file), meshes,
// materials and clips. `upAxis`-style conversions are baked into root nodes, never lost.
struct Scene {
  std::string sourcePath;
  Skeleton skeleton;
  std::vector<Mesh> meshes;
  std::vector<Material> materials;
  std::vector<Clip> clips;
  // Per node, the Euler order its rotation was authored in (BVH CHANNELS); empty when the
  // source has no such notion (glTF), then XYZ is the editor's default.
  std::vector<RotationOrder> rotationOrders;
  // The user's override of the capture's up, facing and units (a project keeps it); Auto
  // after an import.
  ConventionOverride convention;

  // Number of separate skeletons: roots of the forest that hold at least one Joint.
  int skeletonCount() const;
  // Height of the character's bind pose (model-space bounding box of the bones and mesh
  // vertices along Y), at least 1e-3; used to scale tolerances.
  float characterHeight() const;
};

}  // namespace articula
