#version 330 core
// Editor overlays (grid lines, bones, joint markers) whose vertices are already in model
// space, with a per-vertex display colour.
layout(location = 0) in vec3 aPosition;
layout(location = 1) in vec3 aNormal;
layout(location = 2) in vec4 aColor;

uniform mat4 uViewProjection;
uniform mat4 uView;

out vec3 vNormalView;
out vec4 vColor;

void main() {
  gl_Position = uViewProjection * vec4(aPosition, 1.0);
  vNormalView = mat3(uView) * aNormal;
  vColor = aColor;
}
