#pragma once
#include <QOpenGLFunctions_3_3_Core>
#include <QString>

#include <memory>
#include <span>
#include <vector>

#include "core/scene/scene.h"

class QOpenGLShaderProgram;

namespace articula::ui {

// GPU copies of a scene's meshes and material textures, and the draw of every mesh at a
// pose: skinned meshes by linear-blend skinning in the vertex shader (see mesh.vert for
// how joint matrices and influences reach the GPU), rigid meshes at their node's model
// matrix.
//
// Every call must happen with the owning widget's GL context current.
class MeshRenderer {
 public:
  MeshRenderer();
  ~MeshRenderer();
  MeshRenderer(const MeshRenderer&) = delete;
  MeshRenderer& operator=(const MeshRenderer&) = delete;

  // Compiles the shaders; false with a message when they do not build.
  bool initialize(QOpenGLFunctions_3_3_Core* gl, QString* error);
  // Minification of colour textures uploaded from now on: trilinear (the default), or
  // bilinear within the nearest mip level. On a software rasteriser trilinear filtering
  // of sRGB textures costs about a third of a textured character's frame; the nearest mip
  // level looks the same at viewport sizes.
  void setTrilinearFiltering(bool trilinear) { mTrilinear = trilinear; }
  // Replaces the GPU meshes by those of `scene`. Meshes whose indices point past their
  // vertices are skipped, as a bad import must not crash the driver.
  void upload(const Scene& scene);
  // `view` and `viewProjection` take model space to view and clip space.
  void draw(const Scene& scene, std::span<const Affine> modelPose, const Mat4& view, const Mat4& viewProjection);
  // Deletes every GL object (meshes, textures, shaders).
  void release();

 private:
  struct GpuMesh;
  void releaseMeshes();
  unsigned loadTexture(const Scene& scene, const Material& material);

  QOpenGLFunctions_3_3_Core* mGl = nullptr;
  std::unique_ptr<QOpenGLShaderProgram> mProgram;
  std::vector<GpuMesh> mMeshes;
  std::vector<unsigned> mMaterialTextures;  // per material, 0 when it has no usable image
  std::vector<float> mPaletteScratch;
  bool mTrilinear = true;
};

}  // namespace articula::ui
