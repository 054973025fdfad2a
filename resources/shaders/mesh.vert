#version 330 core
// Linear-blend skinning on the GPU.
//
// Positions and normals of a skinned mesh are in bind space; each influence's matrix is
// model(joint) * inverseBind(joint), which maps bind space to model space. The palette of
// one skin lives in a texture buffer (4 RGBA32F texels = the 4 columns of one matrix), so
// any joint count works, not a fixed uniform array.
//
// Influences: the first 8 slots of each vertex come as two uvec4/vec4 attribute pairs.
// Slots beyond 8 (rare: some FBX exports) are read from a second texture buffer of RG32F
// texels (skin joint, weight), uExtraCount texels per vertex indexed by gl_VertexID, so a
// vertex may have any number of influences and still skins entirely on the GPU.
layout(location = 0) in vec3 aPosition;
layout(location = 1) in vec3 aNormal;
layout(location = 2) in vec2 aTexCoord;
layout(location = 3) in uvec4 aJoints0;
layout(location = 4) in vec4 aWeights0;
layout(location = 5) in uvec4 aJoints1;
layout(location = 6) in vec4 aWeights1;

uniform mat4 uViewProjection;
uniform mat4 uView;
uniform mat4 uModel;    // rigid mesh: its node's model matrix; skinned mesh: identity
uniform bool uSkinned;
uniform samplerBuffer uJointMatrices;
uniform samplerBuffer uExtraInfluences;
uniform int uExtraCount;
uniform int uSlots;     // attribute slots (1..8) that carry a weight in this mesh

// Influence slot k of the attribute pairs, or nothing for the slots this mesh leaves empty:
// a software rasteriser pays four texel fetches per slot per vertex, and most skins use
// four slots or fewer. uSlots is uniform, so the branches cost nothing on a GPU.
out vec3 vNormalView;   // view space, for the headlight
out vec2 vTexCoord;

mat4 jointMatrix(uint joint) {
  int base = int(joint) * 4;
  return mat4(texelFetch(uJointMatrices, base), texelFetch(uJointMatrices, base + 1),
              texelFetch(uJointMatrices, base + 2), texelFetch(uJointMatrices, base + 3));
}

void main() {
  mat4 skin = mat4(1.0);
  if (uSkinned) {
    mat4 sum = aWeights0.x * jointMatrix(aJoints0.x);
    if (uSlots > 1) sum += aWeights0.y * jointMatrix(aJoints0.y);
    if (uSlots > 2) sum += aWeights0.z * jointMatrix(aJoints0.z);
    if (uSlots > 3) sum += aWeights0.w * jointMatrix(aJoints0.w);
    if (uSlots > 4) {
      sum += aWeights1.x * jointMatrix(aJoints1.x) + aWeights1.y * jointMatrix(aJoints1.y) +
             aWeights1.z * jointMatrix(aJoints1.z) + aWeights1.w * jointMatrix(aJoints1.w);
    }
    float total = dot(aWeights0, vec4(1.0)) + dot(aWeights1, vec4(1.0));
    for (int k = 0; k < uExtraCount; ++k) {
      vec2 influence = texelFetch(uExtraInfluences, gl_VertexID * uExtraCount + k).xy;
      sum += influence.y * jointMatrix(uint(influence.x));
      total += influence.y;
    }
    // A vertex without any weight stays where it was bound instead of collapsing to the origin.
    if (total > 1e-6) skin = sum;
  }
  mat4 model = uModel * skin;
  gl_Position = uViewProjection * (model * vec4(aPosition, 1.0));
  // The inverse transpose is skipped: exact for rotations and uniform scale, which is what
  // skeletons carry in practice; the fragment shader renormalises.
  vNormalView = mat3(uView) * mat3(model) * aNormal;
  vTexCoord = aTexCoord;
}
