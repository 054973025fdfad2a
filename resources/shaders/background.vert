#version 330 core
// Full-screen triangle generated from gl_VertexID: no vertex buffer needed.
out float vHeight;  // 0 at the bottom of the viewport, 1 at the top

void main() {
  vec2 corner = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));
  vHeight = corner.y * 0.5;
  gl_Position = vec4(corner * 2.0 - 1.0, 0.999, 1.0);
}
