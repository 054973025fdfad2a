#include "ui/viewport/mesh_renderer.h"

#include <QDir>
#include <QFileInfo>
#include <QImage>
#include <QOpenGLShaderProgram>

#include <algorithm>
#include <cstring>
#include <numeric>

namespace articula::ui {

namespace {

constexpr int kAttributeInfluences = 8;               // slots carried by the two uvec4/vec4 attribute pairs
const Vec4 kDefaultColor(0.60f, 0.60f, 0.64f, 1.0f);  // linear "clay" for meshes without material

struct MeshVertex {
  float position[3];
  float normal[3];
  float texCoord[2];
};

struct SkinVertex {
  std::uint16_t joints[kAttributeInfluences];
  float weights[kAttributeInfluences];
};

// Area-weighted vertex normals, for meshes imported without normals.
std::vector<Vec3> computeNormals(const Mesh& mesh) {
  std::vector<Vec3> normals(mesh.vertexCount(), Vec3::Zero());
  for (std::size_t t = 0; t + 2 < mesh.indices.size(); t += 3) {
    const Vec3& a = mesh.positions[mesh.indices[t]];
    const Vec3& b = mesh.positions[mesh.indices[t + 1]];
    const Vec3& c = mesh.positions[mesh.indices[t + 2]];
    const Vec3 faceNormal = (b - a).cross(c - a);
    for (std::size_t k = 0; k < 3; ++k) normals[mesh.indices[t + k]] += faceNormal;
  }
  for (Vec3& n : normals) n = n.squaredNorm() > 0.0f ? n.normalized() : Vec3::UnitY();
  return normals;
}

}  // namespace

struct MeshRenderer::GpuMesh {
  GLuint vao = 0;
  GLuint vertexBuffer = 0;
  GLuint skinBuffer = 0;
  GLuint indexBuffer = 0;
  GLuint paletteBuffer = 0;
  GLuint paletteTexture = 0;
  GLuint extraBuffer = 0;
  GLuint extraTexture = 0;
  GLsizei indexCount = 0;
  int extraCount = 0;  // influences per vertex beyond the attribute slots
  int usedSlots = 1;   // attribute slots that carry a non-zero weight in some vertex (1..8)
  int sceneMesh = -1;
  bool skinned = false;
};

MeshRenderer::MeshRenderer() = default;
MeshRenderer::~MeshRenderer() = default;

bool MeshRenderer::initialize(QOpenGLFunctions_3_3_Core* gl, QString* error) {
  mGl = gl;
  mProgram = std::make_unique<QOpenGLShaderProgram>();
  if (!mProgram->addShaderFromSourceFile(QOpenGLShader::Vertex, QStringLiteral(":/shaders/mesh.vert")) ||
      !mProgram->addShaderFromSourceFile(QOpenGLShader::Fragment, QStringLiteral(":/shaders/mesh.frag")) ||
      !mProgram->link()) {
    if (error) *error = QStringLiteral("mesh shader: ") + mProgram->log();
    mProgram.reset();
    return false;
  }
  mProgram->bind();
  mProgram->setUniformValue("uTexture", 0);
  mProgram->setUniformValue("uJointMatrices", 1);
  mProgram->setUniformValue("uExtraInfluences", 2);
  mProgram->release();
  return true;
}

void MeshRenderer::release() {
  releaseMeshes();
  mProgram.reset();
}

void MeshRenderer::releaseMeshes() {
  if (!mGl) return;
  for (GpuMesh& m : mMeshes) {
    const GLuint buffers[] = {m.vertexBuffer, m.skinBuffer, m.indexBuffer, m.paletteBuffer, m.extraBuffer};
    mGl->glDeleteBuffers(5, buffers);
    const GLuint textures[] = {m.paletteTexture, m.extraTexture};
    mGl->glDeleteTextures(2, textures);
    mGl->glDeleteVertexArrays(1, &m.vao);
  }
  mMeshes.clear();
  if (!mMaterialTextures.empty()) {
    mGl->glDeleteTextures(static_cast<GLsizei>(mMaterialTextures.size()), mMaterialTextures.data());
  }
  mMaterialTextures.clear();
}

unsigned MeshRenderer::loadTexture(const Scene& scene, const Material& material) {
  QImage image;
  if (!material.textureData.empty()) {
    image.loadFromData(material.textureData.data(), static_cast<int>(material.textureData.size()));
  } else if (!material.textureUri.empty()) {
    const QDir base = QFileInfo(QString::fromStdString(scene.sourcePath)).absoluteDir();
    image.load(base.filePath(QString::fromStdString(material.textureUri)));
  }
  if (image.isNull()) return 0;
  // glTF texture coordinates put v = 0 on the image's first row, which is also the first
  // row QImage hands over, so the image is uploaded without flipping.
  image = image.convertToFormat(QImage::Format_RGBA8888);
  GLuint texture = 0;
  mGl->glGenTextures(1, &texture);
  mGl->glBindTexture(GL_TEXTURE_2D, texture);
  mGl->glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  // Colour textures are sRGB-encoded; GL decodes them to linear when sampling.
  mGl->glTexImage2D(GL_TEXTURE_2D, 0, GL_SRGB8_ALPHA8, image.width(), image.height(), 0, GL_RGBA, GL_UNSIGNED_BYTE,
                    image.constBits());
  mGl->glGenerateMipmap(GL_TEXTURE_2D);
  mGl->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER,
                       mTrilinear ? GL_LINEAR_MIPMAP_LINEAR : GL_LINEAR_MIPMAP_NEAREST);
  mGl->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  mGl->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_REPEAT);
  mGl->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_REPEAT);
  mGl->glBindTexture(GL_TEXTURE_2D, 0);
  return texture;
}

void MeshRenderer::upload(const Scene& scene) {
  releaseMeshes();
  if (!mGl) return;
  mMaterialTextures.reserve(scene.materials.size());
  for (const Material& material : scene.materials) mMaterialTextures.push_back(loadTexture(scene, material));

  for (std::size_t meshIndex = 0; meshIndex < scene.meshes.size(); ++meshIndex) {
    const Mesh& mesh = scene.meshes[meshIndex];
    const std::size_t vertexCount = mesh.vertexCount();
    if (vertexCount == 0 || mesh.indices.size() < 3) continue;
    if (std::any_of(mesh.indices.begin(), mesh.indices.end(), [&](std::uint32_t i) { return i >= vertexCount; }))
      continue;

    const std::vector<Vec3> normals = mesh.normals.size() == vertexCount ? mesh.normals : computeNormals(mesh);
    std::vector<MeshVertex> vertices(vertexCount);
    for (std::size_t v = 0; v < vertexCount; ++v) {
      MeshVertex& out = vertices[v];
      std::memcpy(out.position, mesh.positions[v].data(), sizeof out.position);
      std::memcpy(out.normal, normals[v].data(), sizeof out.normal);
      const Vec2 uv = mesh.texCoords.size() == vertexCount ? mesh.texCoords[v] : Vec2::Zero();
      std::memcpy(out.texCoord, uv.data(), sizeof out.texCoord);
    }

    GpuMesh gpu;
    gpu.sceneMesh = static_cast<int>(meshIndex);
    const Skin& skin = mesh.skin;
    const auto influences = static_cast<std::size_t>(std::max(0, skin.influencesPerVertex));
    gpu.skinned = mesh.hasSkin && influences > 0 && skin.vertexJoints.size() >= vertexCount * influences &&
                  skin.vertexWeights.size() >= vertexCount * influences;

    mGl->glGenVertexArrays(1, &gpu.vao);
    mGl->glBindVertexArray(gpu.vao);
    mGl->glGenBuffers(1, &gpu.vertexBuffer);
    mGl->glBindBuffer(GL_ARRAY_BUFFER, gpu.vertexBuffer);
    mGl->glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(vertices.size() * sizeof(MeshVertex)), vertices.data(),
                      GL_STATIC_DRAW);
    const auto stride = static_cast<GLsizei>(sizeof(MeshVertex));
    mGl->glEnableVertexAttribArray(0);
    mGl->glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, stride,
                               reinterpret_cast<void*>(offsetof(MeshVertex, position)));
    mGl->glEnableVertexAttribArray(1);
    mGl->glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, stride, reinterpret_cast<void*>(offsetof(MeshVertex, normal)));
    mGl->glEnableVertexAttribArray(2);
    mGl->glVertexAttribPointer(2, 2, GL_FLOAT, GL_FALSE, stride,
                               reinterpret_cast<void*>(offsetof(MeshVertex, texCoord)));

    if (gpu.skinned) {
      // Heaviest influences first, so the attribute slots carry most of the weight and the
      // texture-buffer overflow only the tail.
      std::vector<SkinVertex> skinVertices(vertexCount, SkinVertex{});
      gpu.extraCount = static_cast<int>(influences > kAttributeInfluences ? influences - kAttributeInfluences : 0);
      std::vector<float> extras(vertexCount * static_cast<std::size_t>(gpu.extraCount) * 2, 0.0f);
      std::vector<std::size_t> order(influences);
      for (std::size_t v = 0; v < vertexCount; ++v) {
        const std::size_t base = v * influences;
        std::iota(order.begin(), order.end(), std::size_t{0});
        std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
          return skin.vertexWeights[base + a] > skin.vertexWeights[base + b];
        });
        for (std::size_t k = 0; k < influences; ++k) {
          const std::uint16_t joint = skin.vertexJoints[base + order[k]];
          const float weight = skin.vertexWeights[base + order[k]];
          if (k < kAttributeInfluences) {
            skinVertices[v].joints[k] = joint;
            skinVertices[v].weights[k] = weight;
            if (weight != 0.0f) gpu.usedSlots = std::max(gpu.usedSlots, static_cast<int>(k) + 1);
          } else {
            const std::size_t e = (v * static_cast<std::size_t>(gpu.extraCount) + (k - kAttributeInfluences)) * 2;
            extras[e] = static_cast<float>(joint);
            extras[e + 1] = weight;
          }
        }
      }
      mGl->glGenBuffers(1, &gpu.skinBuffer);
      mGl->glBindBuffer(GL_ARRAY_BUFFER, gpu.skinBuffer);
      mGl->glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(skinVertices.size() * sizeof(SkinVertex)),
                        skinVertices.data(), GL_STATIC_DRAW);
      const auto skinStride = static_cast<GLsizei>(sizeof(SkinVertex));
      for (GLuint pair = 0; pair < 2; ++pair) {
        mGl->glEnableVertexAttribArray(3 + 2 * pair);
        mGl->glVertexAttribIPointer(
            3 + 2 * pair, 4, GL_UNSIGNED_SHORT, skinStride,
            reinterpret_cast<void*>(offsetof(SkinVertex, joints) + pair * 4 * sizeof(std::uint16_t)));
        mGl->glEnableVertexAttribArray(4 + 2 * pair);
        mGl->glVertexAttribPointer(4 + 2 * pair, 4, GL_FLOAT, GL_FALSE, skinStride,
                                   reinterpret_cast<void*>(offsetof(SkinVertex, weights) + pair * 4 * sizeof(float)));
      }

      mGl->glGenBuffers(1, &gpu.paletteBuffer);
      mGl->glGenTextures(1, &gpu.paletteTexture);
      if (gpu.extraCount > 0) {
        mGl->glGenBuffers(1, &gpu.extraBuffer);
        mGl->glBindBuffer(GL_TEXTURE_BUFFER, gpu.extraBuffer);
        mGl->glBufferData(GL_TEXTURE_BUFFER, static_cast<GLsizeiptr>(extras.size() * sizeof(float)), extras.data(),
                          GL_STATIC_DRAW);
        mGl->glGenTextures(1, &gpu.extraTexture);
        mGl->glBindTexture(GL_TEXTURE_BUFFER, gpu.extraTexture);
        mGl->glTexBuffer(GL_TEXTURE_BUFFER, GL_RG32F, gpu.extraBuffer);
        mGl->glBindTexture(GL_TEXTURE_BUFFER, 0);
        mGl->glBindBuffer(GL_TEXTURE_BUFFER, 0);
      }
    }

    mGl->glGenBuffers(1, &gpu.indexBuffer);
    mGl->glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, gpu.indexBuffer);
    mGl->glBufferData(GL_ELEMENT_ARRAY_BUFFER, static_cast<GLsizeiptr>(mesh.indices.size() * sizeof(std::uint32_t)),
                      mesh.indices.data(), GL_STATIC_DRAW);
    gpu.indexCount = static_cast<GLsizei>(mesh.indices.size() - mesh.indices.size() % 3);
    mGl->glBindVertexArray(0);
    mGl->glBindBuffer(GL_ARRAY_BUFFER, 0);
    mMeshes.push_back(gpu);
  }
}

void MeshRenderer::draw(const Scene& scene, std::span<const Affine> modelPose, const Mat4& view,
                        const Mat4& viewProjection) {
  if (!mProgram || mMeshes.empty()) return;
  const auto nodeCount = static_cast<std::size_t>(scene.skeleton.jointCount());
  if (modelPose.size() < nodeCount) return;
  mProgram->bind();
  mGl->glUniformMatrix4fv(mProgram->uniformLocation("uViewProjection"), 1, GL_FALSE, viewProjection.data());
  mGl->glUniformMatrix4fv(mProgram->uniformLocation("uView"), 1, GL_FALSE, view.data());
  mProgram->setUniformValue("uAmbient", 0.28f);
  const int modelLocation = mProgram->uniformLocation("uModel");

  for (const GpuMesh& gpu : mMeshes) {
    const Mesh& mesh = scene.meshes[static_cast<std::size_t>(gpu.sceneMesh)];
    Mat4 model = Mat4::Identity();
    if (gpu.skinned) {
      // Palette in model space: model(joint) * inverseBind, column-major as GL reads it.
      const Skin& skin = mesh.skin;
      const std::size_t jointCount = std::max<std::size_t>(skin.joints.size(), 1);
      mPaletteScratch.assign(jointCount * 16, 0.0f);
      for (std::size_t k = 0; k < jointCount; ++k) {
        Mat4 matrix = Mat4::Identity();
        if (k < skin.joints.size() && static_cast<std::size_t>(skin.joints[k]) < nodeCount) {
          const Mat4 inverseBind = k < skin.inverseBindMatrices.size() ? skin.inverseBindMatrices[k] : Mat4::Identity();
          matrix = modelPose[static_cast<std::size_t>(skin.joints[k])].matrix() * inverseBind;
        }
        std::memcpy(&mPaletteScratch[k * 16], matrix.data(), 16 * sizeof(float));
      }
      mGl->glBindBuffer(GL_TEXTURE_BUFFER, gpu.paletteBuffer);
      mGl->glBufferData(GL_TEXTURE_BUFFER, static_cast<GLsizeiptr>(mPaletteScratch.size() * sizeof(float)),
                        mPaletteScratch.data(), GL_STREAM_DRAW);
      mGl->glBindBuffer(GL_TEXTURE_BUFFER, 0);
      mGl->glActiveTexture(GL_TEXTURE1);
      mGl->glBindTexture(GL_TEXTURE_BUFFER, gpu.paletteTexture);
      mGl->glTexBuffer(GL_TEXTURE_BUFFER, GL_RGBA32F, gpu.paletteBuffer);
      mGl->glActiveTexture(GL_TEXTURE2);
      mGl->glBindTexture(GL_TEXTURE_BUFFER, gpu.extraTexture);
    } else if (mesh.node >= 0 && static_cast<std::size_t>(mesh.node) < nodeCount) {
      model = modelPose[static_cast<std::size_t>(mesh.node)].matrix();
    }
    mGl->glUniformMatrix4fv(modelLocation, 1, GL_FALSE, model.data());
    mProgram->setUniformValue("uSkinned", gpu.skinned);
    mProgram->setUniformValue("uExtraCount", gpu.extraCount);
    mProgram->setUniformValue("uSlots", gpu.usedSlots);

    Vec4 color = kDefaultColor;
    GLuint texture = 0;
    if (mesh.material >= 0 && static_cast<std::size_t>(mesh.material) < scene.materials.size()) {
      color = scene.materials[static_cast<std::size_t>(mesh.material)].baseColor;
      texture = mMaterialTextures[static_cast<std::size_t>(mesh.material)];
    }
    mProgram->setUniformValue("uBaseColor", color.x(), color.y(), color.z(), color.w());
    mProgram->setUniformValue("uHasTexture", texture != 0 && mesh.texCoords.size() == mesh.vertexCount());
    mGl->glActiveTexture(GL_TEXTURE0);
    mGl->glBindTexture(GL_TEXTURE_2D, texture);

    mGl->glBindVertexArray(gpu.vao);
    mGl->glDrawElements(GL_TRIANGLES, gpu.indexCount, GL_UNSIGNED_INT, nullptr);
  }
  mGl->glBindVertexArray(0);
  mGl->glActiveTexture(GL_TEXTURE0);
  mGl->glBindTexture(GL_TEXTURE_2D, 0);
  mProgram->release();
}

}  // namespace articula::ui
